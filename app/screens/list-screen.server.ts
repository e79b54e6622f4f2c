import type { Validator } from "remix-validated-form";
import { redirectWithToast, type Toast } from "~/services/session.server";
import { jsonError, screenAnswer } from "~/utils/http.server";
import { handleForm } from "~/utils/forms.server";
import { listSearch, readDialog, readPage } from "~/utils/list-url";
import { SEARCH_MAX_LENGTH } from "~/schemas/list-query";
import { CURSOR_INVALID, decodeCursor, type ListCursor } from "~/schemas/list-cursor";
import { isRefusal } from "~/utils/domain-errors";

/** What a list screen's loader reads from its URL: the search and the open dialog (the page: readListPosition). */
export function readListUrl(requestUrl: string) {
  const url = new URL(requestUrl);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, SEARCH_MAX_LENGTH);
  return { q: q || undefined, dialog: readDialog(url.searchParams) };
}

/**
 * The page a list screen's URL asks for: `?cursor=` (its Older and Newer links, docs/decisions/0036),
 * else an old bookmark's `?page=` as an offset. A cursor that is not one is a 400 page, never a guess.
 */
export function readListPosition(requestUrl: string, pageSize: number): { cursor?: ListCursor; offset: number } {
  const params = new URL(requestUrl).searchParams;
  const text = params.get("cursor");
  // An empty cursor (a form or client sending the field blank) is no cursor: the first page.
  if (!text) return { offset: (readPage(params) - 1) * pageSize };
  const cursor = decodeCursor(text);
  // A sync's cursor pages the API's order of changes, not a screen's.
  if (!cursor || cursor.direction === "changed") throw jsonError(400, CURSOR_INVALID);
  return { cursor, offset: 0 };
}

/** Where a list screen's form post goes back to: the list as it was (search, page), no dialog. */
export function listReturnTo(requestUrl: string, { firstPage = false, keys }: { firstPage?: boolean; keys?: readonly string[] } = {}) {
  const url = new URL(requestUrl);
  return `${url.pathname}${listSearch(url.searchParams, firstPage ? { cursor: null, page: null } : {}, keys)}`;
}

/** null for a thrown 404 (an item that is gone or not the caller's); anything else rethrown. */
export function nullIfNotFound(error: unknown): null {
  if (isRefusal(error) && error.status === 404) return null;
  throw error;
}

/**
 * Runs a list screen's write and redirects back with the success toast; a refusal from the
 * service (a thrown 4xx, e.g. the item was deleted meanwhile) redirects with the failure toast; a
 * full disk's with its own message, which says that nothing was saved (docs/decisions/0038).
 */
export async function writeAndReturn(
  request: Request,
  returnTo: string,
  write: () => Promise<Toast>,
  failure: string,
  /** A refusal about a field (e.g. a conflict) goes back to the form, beside that field (see handleForm). */
  { fieldErrorsToForm = false } = {},
) {
  let toast: Toast;
  try {
    toast = await write();
  } catch (error) {
    const refusal = await screenAnswer(error instanceof Response ? error.clone() : error);
    if (!refusal) throw error;
    if (fieldErrorsToForm && refusal.fieldErrors) throw error;
    return redirectWithToast(request, returnTo, { title: "Error", message: refusal.status === 507 ? refusal.message : failure, color: "red" });
  }
  return redirectWithToast(request, returnTo, { color: "green", ...toast });
}

/**
 * The create / update / delete posts of a list screen (`intent`, plus `id` for update and delete):
 * validated with the domain's form schema, then one service call, then back to the list with the
 * spec's toast ("<Noun> Created", "Failed to create <noun>", …).
 */
export async function listScreenAction<Input extends Record<string, unknown>, Item>(
  request: Request,
  domain: {
    /** Capitalised, as in the toasts: "Contact". */
    noun: string;
    validator: Validator<Input>;
    create: (input: Input) => Promise<Item>;
    update: (id: string, input: Input) => Promise<Item>;
    remove: (id: string) => Promise<Item>;
    /** The success sentence, e.g. "Jane Doe has been added to your contacts." */
    describe: (item: Item, done: "created" | "updated" | "deleted") => string;
  },
) {
  const form = await request.formData();
  const id = String(form.get("id") ?? "");
  const noun = domain.noun.toLowerCase();
  const write = (returnTo: string, done: "created" | "updated" | "deleted", run: () => Promise<Item>) => {
    const verb = done === "created" ? "create" : done === "updated" ? "update" : "delete";
    const title = `${domain.noun} ${done[0].toUpperCase()}${done.slice(1)}`;
    return writeAndReturn(
      request,
      returnTo,
      async () => ({ title, message: domain.describe(await run(), done) }),
      `Failed to ${verb} ${noun}`,
    );
  };
  const back = listReturnTo(request.url);
  switch (form.get("intent")) {
    case "create":
      return handleForm(
        request,
        domain.validator,
        (input) => write(listReturnTo(request.url, { firstPage: true }), "created", () => domain.create(input)),
        form,
      );
    case "update":
      return handleForm(request, domain.validator, (input) => write(back, "updated", () => domain.update(id, input)), form);
    case "delete":
      return write(back, "deleted", () => domain.remove(id));
    default:
      throw jsonError(400, "Unknown action");
  }
}
