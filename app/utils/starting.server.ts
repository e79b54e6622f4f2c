import Handlebars from "handlebars";
import { randomBytes } from "node:crypto";
import { serviceUnavailable } from "./db-errors.server";
import { databaseStalled, databaseStarting } from "./db.server";

/**
 * What every request answers while the database has not answered yet (docs/decisions/0029): the
 * app serves from its first second, and says it is starting instead of failing. server.mjs asks
 * `whileStarting` before the app's routes run; /healthz reports `startingHealth`.
 */

/** Seconds a client (and the "starting" page's own check) waits before trying again. */
export const STARTING_RETRY_SECONDS = 5;

const REASON = "database starting";

/** Seconds a client waits before trying again while the database does not answer (as during an outage). */
const STALLED_RETRY_SECONDS = 2;

/** The look of the pages that stand without the app (starting, stalled): readable, light and dark. */
const PAGE_STYLE = `body{margin:0;padding:0 1rem;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f8f9fa;color:#212529}
main{max-width:32rem;margin:15vh auto 0;padding:1.5rem;background:#fff;border:1px solid #dee2e6;border-radius:8px}
h1{font-size:1.5rem;margin:0 0 .75rem}
p{line-height:1.5;margin:.5rem 0;overflow-wrap:anywhere}
a{color:#1864ab}
.note{color:#495057;font-size:.875rem}
@media (prefers-color-scheme:dark){body{background:#1a1b1e;color:#e9ecef}main{background:#25262b;border-color:#373a40}a{color:#74c0fc}.note{color:#adb5bd}}`;

/** /healthz's answer while starting; null once the database has been up. */
export function startingHealth() {
  const starting = databaseStarting();
  if (!starting) return null;
  return { status: "starting" as const, reason: REASON, ...starting };
}


/**
 * A page of its own (no app shell: rendering it needs the session, hence the database). With
 * JavaScript it asks /healthz every few seconds, shows its progress and reloads once the app is
 * ready: one reload, not a page refreshing under a screen reader every few seconds (a meta refresh
 * fails WCAG 2.2.1). Without, a link tries again.
 */
function startingPage(path: string, progress: string | undefined) {
  const reason = progress ? `Database starting: ${progress}` : "Database starting";
  const nonce = randomBytes(16).toString("base64");
  // Each answer's progress goes into the status line (announced when it changes); ready: one reload.
  const poll = `(function poll(){setTimeout(function(){fetch("/healthz",{cache:"no-store"}).then(function(r){if(r.ok)return location.reload();return r.json().then(function(b){var t=b.progress?"Database starting: "+b.progress:"Database starting",e=document.getElementById("reason");if(e.textContent!==t)e.textContent=t;poll()})}).catch(poll)},${STARTING_RETRY_SECONDS * 1000})})()`;
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Starting · DamageIQ</title>
<style>${PAGE_STYLE}</style>
<noscript><style>.js{display:none}</style></noscript>
</head>
<body>
<main>
<h1>DamageIQ is starting</h1>
<p role="status" id="reason">${Handlebars.Utils.escapeExpression(reason)}</p>
<p class="note js">This page opens by itself once the database is ready.</p>
<p><a href="${Handlebars.Utils.escapeExpression(path)}">Try again</a></p>
</main>
<script nonce="${nonce}">${poll}</script>
</body>
</html>
`;
  return { html, nonce };
}

/**
 * A screen's answer while the database, once up, does not answer (docs/decisions/0045): the app's
 * own error page needs the session, hence the database, so this page stands alone; it names the
 * request's id as the error page does. In English, as the starting page: the account's language is
 * in the database.
 */
function stalledPage(path: string, requestId: string) {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Service temporarily unavailable · DamageIQ</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<main>
<h1>Service temporarily unavailable</h1>
<p>The database is not answering. Try again in a moment.</p>
<p class="note">Request ID: ${Handlebars.Utils.escapeExpression(requestId)} (quote it when you report this)</p>
<p><a href="${Handlebars.Utils.escapeExpression(path)}">Try again</a></p>
</main>
</body>
</html>
`;
}

/**
 * The answer to a request while the database, once up, does not answer its pings; null while it
 * does (and for /healthz, which says it itself). server.mjs asks before a request runs and again
 * while one waits, so nothing waits on a stalled database for more than about two seconds.
 */
export function whileStalled(path: string, requestId: string): Response | null {
  if (path === "/healthz" || !databaseStalled()) return null;
  const headers = { "Retry-After": String(STALLED_RETRY_SECONDS), "Cache-Control": "no-store" };
  if (path.startsWith("/api/")) return serviceUnavailable(undefined, STALLED_RETRY_SECONDS, requestId);
  return new Response(stalledPage(`/${path.replace(/^\/+/, "")}`, requestId), {
    status: 503,
    statusText: "Service Unavailable",
    headers: {
      ...headers,
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    },
  });
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
  if (path.startsWith("/api/")) return serviceUnavailable(REASON, STARTING_RETRY_SECONDS);
  // The link stays on this site (a path given as "//host/…" would leave it).
  const page = startingPage(`/${path.replace(/^\/+/, "")}`, starting.progress);
  return new Response(page.html, {
    status: 503,
    statusText: "Service Unavailable",
    headers: {
      ...headers,
      "Content-Type": "text/html; charset=utf-8",
      // Nothing to load: its own inline style and script, which may ask /healthz only.
      "Content-Security-Policy": `default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${page.nonce}'; connect-src 'self'; frame-ancestors 'none'`,
    },
  });
}
