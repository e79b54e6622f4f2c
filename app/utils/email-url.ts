// URL state of the Email Center (/email): `?tab=logs` (templates otherwise), `?q=` search, `?cursor=`
// (the open tab's Older / Newer; `?page=` in old bookmarks),
// and one dialog at a time — `?dialog=new`, `?dialog=compose[&assessment=<id>]`, `?edit=<id>`,
// `?view=<id>`, `?delete=<id>` (templates) or `?log=<id>` (a log's view).

/** The URL's list state: the tab, the search and the page. */
export const EMAIL_LIST_PARAMS = ["tab", "q", "cursor", "page"] as const;

export type EmailTab = "templates" | "logs";

export type EmailDialog =
  | { kind: "new" }
  | { kind: "compose"; assessmentId?: string }
  | { kind: "edit" | "view" | "delete"; id: string }
  | { kind: "log"; id: string }
  | null;

export function readEmailDialog(params: URLSearchParams): EmailDialog {
  const dialog = params.get("dialog");
  if (dialog === "new") return { kind: "new" };
  if (dialog === "compose") return { kind: "compose", assessmentId: params.get("assessment") ?? undefined };
  for (const kind of ["edit", "view", "delete", "log"] as const) {
    const id = params.get(kind);
    if (id) return { kind, id };
  }
  return null;
}

export const readEmailTab = (params: URLSearchParams): EmailTab => (params.get("tab") === "logs" ? "logs" : "templates");
