import { jsonError } from "./http.server";
import { env } from "./env.server";

declare module "@remix-run/node" {
  interface AppLoadContext {
    clientIp?: string;
  }
}

export const isApiRequest = (request: Request) => new URL(request.url).pathname.startsWith("/api/");

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Cross-site request forgery guard for cookie-authenticated writes: a browser always sends
 * Sec-Fetch-Site and/or Origin on a cross-site POST; both must say "this site".
 */
export function assertSameOrigin(request: Request) {
  if (SAFE_METHODS.has(request.method)) return;
  assertNotFromAnotherSite(request);
}

/**
 * For a GET that changes state (the spec's `GET /api/logout`, Companion's `GET s3/params`) and every
 * cookie write: a browser's request started by another site (a link, an image, a script) says so in
 * Sec-Fetch-Site or Origin; API clients send neither.
 */
export function assertNotFromAnotherSite(request: Request) {
  const site = request.headers.get("Sec-Fetch-Site");
  if (site && site !== "same-origin" && site !== "none") throw forbidden();
  const origin = request.headers.get("Origin");
  if (!origin) return;
  const allowed = new Set([new URL(request.url).origin]);
  if (env.PUBLIC_URL) allowed.add(new URL(env.PUBLIC_URL).origin);
  if (!allowed.has(origin)) throw forbidden();
}

/** A write a browser says comes from one of this site's own pages (Origin or Sec-Fetch-Site present and ours). */
export function isOwnPagePost(request: Request) {
  if (!request.headers.get("Origin") && !request.headers.get("Sec-Fetch-Site")) return false;
  try {
    assertSameOrigin(request);
    return true;
  } catch {
    return false;
  }
}

function forbidden() {
  return jsonError(403, "Cross-site request rejected");
}
