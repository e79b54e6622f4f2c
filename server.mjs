// The production HTTP server: Express + Remix's request handler (what remix-serve does), plus what
// remix-serve cannot do: pass the client's socket address to the app (login throttling per IP),
// security headers, and an ordered graceful shutdown (stop accepting → finish requests → close DB).
import { createRequestHandler } from "@remix-run/express";
import { installGlobals } from "@remix-run/node";
import compression from "compression";
import express from "express";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

installGlobals({ nativeFetch: false });

const root = path.dirname(fileURLToPath(import.meta.url));
const buildPath = path.resolve(root, process.env.BUILD_DIR ?? "build", "index.js");
const build = await import(pathToFileURL(buildPath).href);

const app = express();
app.disable("x-powered-by");
// Behind a load balancer set TRUST_PROXY (a hop count, or the proxies' addresses) so req.ip is the
// client's; the app's environment check parses it.
if (build.entry.module.trustProxy !== undefined) app.set("trust proxy", build.entry.module.trustProxy);
app.use(compression());
const httpsOnly = build.entry.module.httpsOnly === true;
app.use((_req, res, next) => {
  if (httpsOnly) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "same-origin");
  res.setHeader("X-Frame-Options", "DENY");
  next();
});
app.use(
  build.publicPath,
  express.static(build.assetsBuildDirectory, { immutable: true, maxAge: "1y", index: false }),
);
app.use(express.static(path.join(root, "public"), { maxAge: "1h", index: false }));
app.get("/favicon.ico", (_req, res) => res.redirect(301, "/favicon.svg"));

// Bodies are bounded before anything reads them (the app parses after authenticating, but a body
// is buffered first): JSON 1 MiB, screen forms 64 KiB. The routes that take files have their own
// limits per upload purpose.
const FILE_ROUTES = new Set(["/api/objects/signed", "/upload", "/ai-training"]);
const MiB = 1024 * 1024;
app.use((req, res, next) => {
  if (req.method === "GET" || req.method === "HEAD" || FILE_ROUTES.has(req.path)) return next();
  const length = req.get("content-length");
  if (length === undefined) {
    if (!req.get("transfer-encoding")) return next();
    return res.status(411).json({ message: "Send the body with a Content-Length" });
  }
  const limit = req.path.startsWith("/api/") ? MiB : 64 * 1024;
  if (Number(length) > limit) {
    return res.status(413).json({ message: `Request body too large (at most ${limit / 1024} KiB)` });
  }
  next();
});

// Screen actions take form posts from this site only. What Remix would turn into a 500 is refused
// here first: a post whose Origin is another site (Remix throws on it), and a body that is not a
// form (JSON, text/plain, multipart without a boundary). The JSON API under /api checks its own.
const FORM_BODY = /^(application\/x-www-form-urlencoded\b|multipart\/form-data\s*;.*\bboundary=)/i;
app.use((req, res, next) => {
  if (req.method === "GET" || req.method === "HEAD" || req.path.startsWith("/api/")) return next();
  const site = req.get("sec-fetch-site");
  const origin = req.get("origin");
  const host = req.get("x-forwarded-host")?.split(",")[0].trim() || req.get("host");
  let originHost;
  try {
    originHost = origin === undefined ? undefined : new URL(origin).host;
  } catch {
    originHost = null;
  }
  if ((site && site !== "same-origin" && site !== "none") || (origin !== undefined && originHost !== host)) {
    return res.status(403).json({ message: "Cross-site request rejected" });
  }
  if (!FORM_BODY.test(req.get("content-type") ?? "")) {
    return res.status(415).json({ message: "Send the form as application/x-www-form-urlencoded or multipart/form-data" });
  }
  next();
});
app.all(
  "*",
  createRequestHandler({
    build,
    mode: process.env.NODE_ENV,
    getLoadContext: (req) => ({ clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown" }),
  }),
);

const port = Number(process.env.PORT ?? 3000);
const server = app.listen(port, () => {
  console.log(`DamageIQ listening on http://localhost:${port}`);
});
server.keepAliveTimeout = 65_000;

let closing = false;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    server.close(async () => {
      await build.entry.module.shutdown?.();
      process.exit(0);
    });
    server.closeIdleConnections();
    setTimeout(() => process.exit(1), 10_000).unref();
  });
}
