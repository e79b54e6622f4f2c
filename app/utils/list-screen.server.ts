import { redirectWithToast, type Toast } from "~/services/session.server";
import { asFormFailure } from "./forms.server";
import { listSearch, readDialog, readPage } from "~/components/crud/list-url";
import { SEARCH_MAX_LENGTH } from "~/schemas/list-query";

/** What a list screen's loader reads from its URL: search, page and the open dialog. */
export function readListUrl(requestUrl: string) {
  const url = new URL(requestUrl);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, SEARCH_MAX_LENGTH);
  return { q: q || undefined, page: readPage(url.searchParams), dialog: readDialog(url.searchParams) };
}

/** Where a list screen's form post goes back to: the list as it was (search, page), no dialog. */
export function listReturnTo(requestUrl: string, { firstPage = false } = {}) {
  const url = new URL(requestUrl);
  return `${url.pathname}${listSearch(url.searchParams, firstPage ? { page: null } : {})}`;
}

/** null for a thrown 404 (an item that is gone or not the caller's); anything else rethrown. */
export function nullIfNotFound(error: unknown): null {
  if (error instanceof Response && error.status === 404) return null;
  throw error;
}

/**
 * Runs a list screen's write and redirects back with the success toast; a refusal from the
 * service (a thrown 4xx, e.g. the item was deleted meanwhile) redirects with the failure toast.
 */
export async function writeAndReturn(
  request: Request,
  returnTo: string,
  write: () => Promise<Toast>,
  failure: string,
) {
  let toast: Toast;
  try {
    toast = await write();
  } catch (error) {
    if (!(await asFormFailure(error))) throw error;
    return redirectWithToast(request, returnTo, { title: "Error", message: failure, color: "red" });
  }
  return redirectWithToast(request, returnTo, { color: "green", ...toast });
}
