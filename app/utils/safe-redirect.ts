const LOCAL = "http://local.invalid";
// Tabs and newlines are dropped by browsers from a URL, a backslash is read as a slash: "/\t/evil"
// and "/\evil" leave the site.
// eslint-disable-next-line no-control-regex
const DANGEROUS = /[\u0000-\u001f\u007f\\]/;
const MAX_LENGTH = 2048;

/** Percent-decodes until stable (a double-encoded "%252F" too); null when it does not decode. */
function fullyDecoded(value: string) {
  let current = value;
  for (let round = 0; round < 4; round += 1) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (next === current) return current;
    current = next;
  }
  return null;
}

/** The path a URL resolves to on this site, or null when it leaves the site or is not plain. */
function resolvedPath(value: string) {
  if (!value.startsWith("/") || value.startsWith("//") || DANGEROUS.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, LOCAL);
  } catch {
    return null;
  }
  // Dot segments are resolved first: "/.//evil.example" becomes "//evil.example", another host.
  if (url.origin !== LOCAL || url.pathname.startsWith("//")) return null;
  return url;
}

/**
 * Where to send a user after signing in: only a path of this site, normalised. A crafted
 * ?redirectTo= must not leave the site, whatever a browser, a proxy or a framework makes of it: control
 * characters and backslashes are refused, dot segments resolved, and the path is checked again after
 * percent-decoding (so "/%2F%2Fevil.example" or "/%2e%2e//evil" is refused too). Anything else is
 * `fallback`. The one rule for every redirect after sign-in (the login screens, their links).
 */
export function safeRedirect(to: unknown, fallback = "/") {
  if (typeof to !== "string" || to.length > MAX_LENGTH) return fallback;
  const url = resolvedPath(to);
  if (!url) return fallback;
  const rawPath = to.split(/[?#]/, 1)[0];
  const decoded = fullyDecoded(rawPath);
  if (decoded === null || !resolvedPath(decoded)) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
