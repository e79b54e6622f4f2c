/**
 * `Link: <…?cursor=…>; rel="next"` (RFC 8288) for a list answer with more after it: the same request
 * with the next page's cursor in place of any offset (docs/decisions/0033). The body stays the array
 * it always was, so clients that page by offset, or read the whole list, see no change.
 */
export function nextLinkHeaders(requestUrl: string, next: string | null): Record<string, string> {
  if (!next) return {};
  const url = new URL(requestUrl);
  url.searchParams.delete("offset");
  url.searchParams.set("cursor", next);
  return { Link: `<${url.pathname}${url.search}>; rel="next"` };
}
