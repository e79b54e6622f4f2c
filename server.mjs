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
app.use((_req, res, next) => {
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
