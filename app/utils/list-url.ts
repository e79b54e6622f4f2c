import type { ShouldRevalidateFunction } from "@remix-run/react";

// URL state of a list screen (Contacts, Packages, …). Everything a user can open is a URL, so the
// screen works with JavaScript off: `?q=` search, `?cursor=` page (Older / Newer; `?page=` in old
// bookmarks, read as an offset), and one dialog at a time —
// `?dialog=new`, `?edit=<id>`, `?delete=<id>` (the delete confirmation).

export const LIST_PARAMS = ["q", "cursor", "page"] as const;

export type ListDialog = { kind: "new" } | { kind: "edit"; id: string } | { kind: "delete"; id: string } | null;

export function readDialog(params: URLSearchParams): ListDialog {
  if (params.get("dialog") === "new") return { kind: "new" };
  const edit = params.get("edit");
  if (edit) return { kind: "edit", id: edit };
  const del = params.get("delete");
  if (del) return { kind: "delete", id: del };
  return null;
}

/** The page number in `?page=` (1 when missing or not a positive whole number). */
export function readPage(params: URLSearchParams) {
  const page = Number(params.get("page"));
  return Number.isInteger(page) && page > 0 ? page : 1;
}

/**
 * `?…` for the list with the current search and page, no dialog, plus `changes`
 * (a null value removes the parameter). "" when nothing remains.
 */
export function listSearch(
  params: URLSearchParams,
  changes: Record<string, string | number | null> = {},
  /** The list's own parameters (a screen with filters adds them). */
  keys: readonly string[] = LIST_PARAMS,
) {
  const next = new URLSearchParams();
  for (const key of keys) {
    const value = params.get(key);
    if (value) next.set(key, value);
  }
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === "") next.delete(key);
    else next.set(key, String(value));
  }
  if (next.get("page") === "1") next.delete("page");
  const text = next.toString();
  return text ? `?${text}` : "";
}

/**
 * Opening a dialog over the list needs no fresh list: the item is on the page already (and a
 * direct load of the URL gets it from the loader). Everything else — closing, searching, paging,
 * the redirect after a save — revalidates as usual.
 */
export const keepListWhenOpeningDialog: ShouldRevalidateFunction = ({
  currentUrl,
  nextUrl,
  formMethod,
  actionResult,
  defaultShouldRevalidate,
}) => {
  const opensDialog =
    !formMethod &&
    actionResult === undefined &&
    currentUrl.pathname === nextUrl.pathname &&
    LIST_PARAMS.every((k) => currentUrl.searchParams.get(k) === nextUrl.searchParams.get(k)) &&
    readDialog(currentUrl.searchParams) === null &&
    readDialog(nextUrl.searchParams) !== null;
  return opensDialog ? false : defaultShouldRevalidate;
};
