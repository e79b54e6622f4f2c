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
