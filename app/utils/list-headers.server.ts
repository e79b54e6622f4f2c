import { json } from "@remix-run/node";
import { wholeListQueryInput, wholeListQuerySchema, type WholeListQuery } from "~/schemas/list-query";
import { validationError } from "./http.server";

/**
 * The headers of a list answer (docs/decisions/0033, 0052): `Link: <…?cursor=…>; rel="next"` (RFC 8288)
 * and `X-Next-Cursor` when more follow — the same request with the next page's cursor in place of any
 * offset — and `X-Total-Count`, how many records the list's filters match. The body stays the array
 * it always was, so clients that page by offset, or read the whole list, see no change.
 */
export function listHeaders(requestUrl: string, { next, total }: { next: string | null; total?: number }): Record<string, string> {
  const headers: Record<string, string> = total === undefined ? {} : { "X-Total-Count": String(total) };
  if (!next) return headers;
  const url = new URL(requestUrl);
  url.searchParams.delete("offset");
  url.searchParams.set("cursor", next);
  return { ...headers, Link: `<${url.pathname}${url.search}>; rel="next"`, "X-Next-Cursor": next };
}

/** A small list's `?updatedSince=` (answered whole, docs/decisions/0056); a bad one is the list's 400. */
export function wholeListQuery(request: Request): WholeListQuery {
  const query = wholeListQuerySchema.safeParse(wholeListQueryInput(new URL(request.url)));
  if (!query.success) throw validationError(query.error);
  return query.data;
}

/** A small list answered whole: the array, never cached, with its count (`X-Total-Count`) and no next page. */
export const wholeListAnswer = (request: Request, items: readonly unknown[]) =>
  json(items, { headers: { "Cache-Control": "no-store", ...listHeaders(request.url, { next: null, total: items.length }) } });
