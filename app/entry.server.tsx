import { Writable } from "node:stream";
import type { EntryContext, HandleDataRequestFunction, HandleErrorFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { randomBytes } from "node:crypto";
import type { ReactElement } from "react";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { startHousekeeping } from "~/services/housekeeping.server";
import { registerAnalysisJobs } from "~/services/assessment-analysis.server";
import { runDataMigrations } from "~/services/data-migrations.server";
import { startMailOutbox } from "~/services/email-delivery.server";
import { startJobs } from "~/services/jobs.server";
import { startWebhookWorker } from "~/services/webhook-delivery.server";
import { closeDb, db, startEmbedded } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { answeringDomainErrors, setPrivateCaching } from "~/utils/http.server";
import { startIdleCollector } from "~/utils/idle-collector.server";
import { log } from "~/utils/log.server";
import { requestScope, runInRequestScope } from "~/utils/request-scope.server";
import { RequestIdContext } from "~/utils/request-id";
import { whileStalled, whileStarting } from "~/utils/starting.server";
import { NonceContext } from "~/utils/nonce";

const ABORT_DELAY = 5_000;

// Once per process: kept on globalThis, which the dev server's module reloads do not replace.
declare global {
  var __stopHousekeeping: (() => void) | undefined;
  var __stopJobs: (() => Promise<void>) | undefined;
  var __stopMail: (() => Promise<void>) | undefined;
  var __stopWebhooks: (() => Promise<void>) | undefined;
  var __stopIdleCollector: (() => void) | undefined;
  var __migrated: Promise<unknown> | undefined;
}
const globalForHousekeeping = globalThis;
// A cluster's primary (server.mjs) serves nothing: it runs the embedded database for its workers.
if (env.DAMAGEIQ_ROLE !== "primary") {
  // Open the database connection at boot rather than on the first request.
  db();
  globalForHousekeeping.__stopIdleCollector ??= startIdleCollector();
  // Once per process (the dev server re-evaluates this module on every change), in one worker.
  if (env.DAMAGEIQ_HOUSEKEEPING) globalForHousekeeping.__stopHousekeeping ??= startHousekeeping();
  // Background jobs (analyses) run in that same worker: ANALYSIS_CONCURRENCY bounds the machine, not
  // each worker, and page rendering keeps the other cores (docs/decisions/0008).
  if (env.DAMAGEIQ_HOUSEKEEPING) {
    // Earlier versions' data brought to today's meaning: the steps this database has not had yet.
    globalForHousekeeping.__migrated ??= runDataMigrations().catch((error: unknown) => log.warn({ err: error }, "data migrations failed"));
    registerAnalysisJobs();
    globalForHousekeeping.__stopJobs ??= startJobs({ leaseMs: env.JOB_LEASE_MS });
    // The email outbox's worker too (docs/decisions/0011): requests in any worker queue, this one delivers.
    globalForHousekeeping.__stopMail ??= startMailOutbox();
    // And the webhook worker (docs/decisions/0022): any instance's worker delivers any account's events.
    globalForHousekeeping.__stopWebhooks ??= startWebhookWorker();
  }
}

/** For server.mjs: the build it serves, every route answering services' typed errors (docs/decisions/0024). */
export const servedBuild = answeringDomainErrors;

/** For server.mjs's cluster primary: the embedded database its workers share (MONGODB_URI unset). */
export const startEmbeddedDatabase = startEmbedded;

/**
 * For server.mjs: the answer to any request before the database first answered (docs/decisions/0029),
 * and while it does not answer (0045).
 */
export { whileStalled, whileStarting };

/** For server.mjs: each request is handled inside a scope of its own (what it looks up about the caller, once). */
export { runInRequestScope };

/** For server.mjs: the upload widget's websocket for a file imported from a link (docs/decisions/0068). */
export { followLinkImport } from "~/services/storage/link-imports.server";

/** For server.mjs: the app's log, which its access lines join (app/utils/log.server.ts). */
export { log };

/** For server.mjs: Express's "trust proxy", parsed and checked with the rest of the environment. */
export const trustProxy = env.TRUST_PROXY;
/** For server.mjs: served over https (PUBLIC_URL), so browsers are told to keep to it (HSTS). */
export const httpsOnly = env.PUBLIC_URL?.startsWith("https://") ?? false;

/** Where the browser may send upload parts besides the app: the bucket, with STORAGE=s3. */
const uploadOrigin =
  env.STORAGE === "s3" ? (env.S3_ENDPOINT ? new URL(env.S3_ENDPOINT).origin : "https://*.amazonaws.com") : "";

/**
 * The pages' Content-Security-Policy: scripts only from the app and inline ones carrying this
 * page's nonce; styles may be inline (Mantine writes style attributes and a style tag); nothing
 * may frame the app or be framed by it; forms post only to the app.
 */
function contentSecurityPolicy(nonce: string) {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "font-src 'self' data:",
    "worker-src 'self' blob:",
    `connect-src 'self'${uploadOrigin ? ` ${uploadOrigin}` : ""}${env.NODE_ENV === "development" ? " ws:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Called by server.mjs after the HTTP server has stopped accepting and finished its requests. */
export async function shutdown() {
  globalForHousekeeping.__stopIdleCollector?.();
  globalForHousekeeping.__stopHousekeeping?.();
  await globalForHousekeeping.__stopJobs?.();
  await Promise.all([globalForHousekeeping.__stopMail?.(), globalForHousekeeping.__stopWebhooks?.()]);
  await closeDb();
}

export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  log.error({ err: error }, "unhandled error");
};

/** Loader and action data (`?_data=`) is as personal as the page it belongs to. */
export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => {
  setPrivateCaching(response.headers, request);
  return response;
};

// Pages render completely before the first byte: no loader defers data, and a whole document is
// what a kiosk with JavaScript off needs. It is rendered to one string: the streaming renderer
// hands over many small chunks, each encoded and copied on its own, which cost a sixth of a page's
// server time (docs/decisions/0025). A page that cannot render in one pass (a lazy component's
// code not loaded yet in this process, or an error) renders again through the stream, which waits
// for it or reports the error as before.
/** The page as one string; null when it suspends or throws (the stream then renders it). */
function renderInOnePass(page: ReactElement): string | null {
  try {
    return renderToString(page);
  } catch {
    return null;
  }
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  const nonce = randomBytes(16).toString("base64");
  const page = (
    <NonceContext.Provider value={nonce}>
      <RequestIdContext.Provider value={requestScope()?.requestId}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} />
      </RequestIdContext.Provider>
    </NonceContext.Provider>
  );
  const respond = (body: string, status: number) => {
    responseHeaders.set("Content-Type", "text/html; charset=utf-8");
    responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(nonce));
    setPrivateCaching(responseHeaders, request);
    return new Response(body, { headers: responseHeaders, status });
  };
  const html = renderInOnePass(page);
  if (html !== null) return respond(`<!DOCTYPE html>${html}`, responseStatusCode);
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(page, {
      onAllReady() {
        shellRendered = true;
        const chunks: Buffer[] = [];
        const document = new Writable({
          write(chunk: Buffer, _encoding, done) {
            chunks.push(chunk);
            done();
          },
          final(done) {
            resolve(respond(Buffer.concat(chunks).toString("utf8"), responseStatusCode));
            done();
          },
        });
        pipe(document);
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        if (shellRendered) log.error({ err: error }, "render failed");
      },
    });
    setTimeout(abort, ABORT_DELAY);
  });
}
