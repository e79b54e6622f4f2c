import { databaseStarting } from "./db.server";

/**
 * What every request answers while the database has not answered yet (docs/decisions/0029): the
 * app serves from its first second, and says it is starting instead of failing. server.mjs asks
 * `whileStarting` before the app's routes run; /healthz reports `startingHealth`.
 */

/** Seconds a client (and the "starting" page's own refresh) waits before trying again. */
export const STARTING_RETRY_SECONDS = 5;

const REASON = "database starting";

/** /healthz's answer while starting; null once the database has been up. */
export function startingHealth() {
  const starting = databaseStarting();
  if (!starting) return null;
  return { status: "starting" as const, reason: REASON, ...starting };
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** A page of its own (no app shell: rendering that needs the session, hence the database); it refreshes itself, no script needed. */
function startingPage(progress: string | undefined, startingSeconds: number) {
  const reason = progress ? `Database starting: ${progress}` : "Database starting";
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${STARTING_RETRY_SECONDS}">
<title>Starting · DamageIQ</title>
<style>
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f8f9fa;color:#212529}
main{max-width:32rem;margin:15vh auto 0;padding:1.5rem;background:#fff;border:1px solid #dee2e6;border-radius:8px}
h1{font-size:1.5rem;margin:0 0 .75rem}
p{line-height:1.5;margin:.5rem 0;overflow-wrap:anywhere}
.note{color:#495057;font-size:.875rem}
@media (prefers-color-scheme:dark){body{background:#1a1b1e;color:#e9ecef}main{background:#25262b;border-color:#373a40}.note{color:#adb5bd}}
</style>
</head>
<body>
<main>
<h1>DamageIQ is starting</h1>
<p role="status">${escapeHtml(reason)}</p>
<p class="note">Starting for ${startingSeconds} s. This page reloads every ${STARTING_RETRY_SECONDS} seconds and opens by itself once the database is ready.</p>
</main>
</body>
</html>
`;
}

/**
 * The answer to a request that arrives before the database first answered: the API's 503 JSON, a
 * screen's "starting" page (503), both with Retry-After; null once it has been up, and for /healthz,
 * which says it itself.
 */
export function whileStarting(path: string): Response | null {
  const starting = databaseStarting();
  if (!starting || path === "/healthz") return null;
  const headers = { "Retry-After": String(STARTING_RETRY_SECONDS), "Cache-Control": "no-store" };
  if (path.startsWith("/api/")) {
    return new Response(JSON.stringify({ message: `Service temporarily unavailable: ${REASON}` }), {
      status: 503,
      statusText: "Service Unavailable",
      headers: { ...headers, "Content-Type": "application/json; charset=utf-8" },
    });
  }
  return new Response(startingPage(starting.progress, starting.startingSeconds), {
    status: 503,
    statusText: "Service Unavailable",
    headers: {
      ...headers,
      "Content-Type": "text/html; charset=utf-8",
      // Nothing to run and nothing to load: only its own inline style.
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    },
  });
}
