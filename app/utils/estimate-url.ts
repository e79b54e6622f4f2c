// URL state of /estimates: `?q=&status=&page=` for the list, and one dialog about one estimate —
// `?view=<id>` (the detail), `?edit=<id>` (Edit Estimate), `?delete=<id>` (the confirmation).

export const ESTIMATE_LIST_PARAMS = ["q", "status", "cursor", "page"] as const;

export type EstimateDialog = { kind: "view" | "edit" | "delete"; id: string } | null;

export function readEstimateDialog(params: URLSearchParams): EstimateDialog {
  for (const kind of ["view", "edit", "delete"] as const) {
    const id = params.get(kind);
    if (id) return { kind, id };
  }
  return null;
}
