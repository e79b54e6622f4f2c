// The production HTTP server: Express + Remix's request handler (what remix-serve does), plus what
// remix-serve cannot do: pass the client's socket address to the app (login throttling per IP),
// security headers, and an ordered graceful shutdown (stop accepting → finish requests → close DB).
// Rendering pages is CPU work and one Node process uses one core, so in production several
// workers share the port (Node's cluster; WEB_CONCURRENCY, default one per core); the primary
// only starts the embedded database for them and replaces a worker that dies.
// The adapter's own request and response halves (its index exports only the whole handler).
import remixExpress from "@remix-run/express/dist/server.js";
import { createRequestHandler, installGlobals } from "@remix-run/node";
import compression from "compression";
import expressStaticGzip from "express-static-gzip";
import express from "express";
import cluster from "node:cluster";
import { randomBytes, randomUUID } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import pino from "pino";
import pinoHttp from "pino-http";

installGlobals({ nativeFetch: false });

const { createRemixRequest, sendRemixResponse } = remixExpress;
const root = path.dirname(fileURLToPath(import.meta.url));
const buildPath = path.resolve(root, process.env.BUILD_DIR ?? "build", "index.js");
const workerCount = Number(
  process.env.WEB_CONCURRENCY || (process.env.NODE_ENV === "production" ? os.availableParallelism() : 1)
);

// Until the build (and its log, app/utils/log.server.ts) is loaded, the same JSON lines from here; the
// app checks LOG_LEVEL itself.
const bootLog = pino({
  level: process.env.LOG_LEVEL && process.env.LOG_LEVEL in { ...pino.levels.values, silent: 0 } ? process.env.LOG_LEVEL : "info",
  ...(process.env.NODE_ENV === "development" ? { transport: { target: "pino-pretty" } } : {}),
});

// Several instances on one MongoDB (docs/deploy.md): each announces itself in the database, and
// start-up refuses what cannot work across machines. Workers inherit what the primary settles here.
if (cluster.isPrimary && process.env.MONGODB_URI) await joinInstances(process.env.MONGODB_URI);

if (cluster.isPrimary && workerCount > 1) {
  await runPrimary();
} else {
  await runServer();
}

/** The database's own clock (leases and heartbeats are compared on it, never on this machine's). */
async function databaseTime(db) {
  for (const command of [{ hello: 1 }, { serverStatus: 1 }]) {
    const answer = await db.admin().command(command).catch(() => null);
    if (answer?.localTime instanceof Date) return answer.localTime;
  }
  return new Date();
}

/**
 * With MONGODB_URI, before serving:
 * - without SESSION_SECRET, the secret is the one kept in the database: the first instance creates
 *   it (insert if absent), every other reads it, so a cookie from one instance works on all;
 * - the instance (INSTANCE_NAME, default the host name) writes a heartbeat every 5 s; STORAGE=local
 *   keeps files on this machine's disk, so start-up refuses it while another instance is alive
 *   (a heartbeat in the last 20 s, on the database's clock), and refuses any instance while a
 *   STORAGE=local one is alive.
 */
async function joinInstances(uri) {
  const { default: mongoose } = await import("mongoose");
  const dbName = new URL(uri.replace(/^mongodb(\+srv)?:/, "http:")).pathname.slice(1) || "damage_assess";
  const name = process.env.INSTANCE_NAME?.trim() || os.hostname();
  const storage = process.env.STORAGE?.trim() || "local";
  const secretSet = Boolean(process.env.SESSION_SECRET);
  let connection;
  try {
    connection = await mongoose.createConnection(uri, { dbName, serverSelectionTimeoutMS: secretSet ? 5_000 : 30_000 }).asPromise();
  } catch (error) {
    // With its secret the app can start and answer 503 until the database is back (as it always
    // could); without it, it cannot know the secret the other instances use.
    if (secretSet) {
      bootLog.warn(`The database at MONGODB_URI cannot be reached (${error.message}): starting without checking the other instances.`);
      return;
    }
    bootLog.fatal(`SESSION_SECRET is not set and the database at MONGODB_URI, which keeps the shared one, cannot be reached (${error.message}).`);
    process.exit(1);
  }
  const db = connection.db;
  if (!process.env.SESSION_SECRET) {
    const secrets = db.collection("appsecrets");
    const fresh = randomBytes(32).toString("hex");
    // Two instances starting at once may both try the insert: the unique _id lets one win, the other reads it.
    for (let attempt = 0; !process.env.SESSION_SECRET; attempt++) {
      try {
        const doc = await secrets.findOneAndUpdate(
          { _id: "session-secret" },
          { $setOnInsert: { value: fresh, createdAt: new Date() } },
          { upsert: true, returnDocument: "after" },
        );
        process.env.SESSION_SECRET = doc.value;
      } catch (error) {
        if (error?.code !== 11000 || attempt >= 2) throw error;
      }
    }
  }
  const instances = db.collection("instances");
  const now = await databaseTime(db);
  const alive = await instances
    .find({ _id: { $ne: name }, seenAt: { $gt: new Date(now.getTime() - 20_000) } })
    .toArray();
  const blocking = alive.filter((other) => storage === "local" || other.storage === "local");
  if (blocking.length > 0) {
    bootLog.fatal(
      `Refusing to start: ${blocking.map((o) => `instance "${o._id}" (STORAGE=${o.storage})`).join(", ")} is running on this database, ` +
        `and STORAGE=local keeps uploads, thumbnails, import archives and the mail drop on one machine's disk. ` +
        `Several instances need STORAGE=s3 on every one of them (docs/deploy.md).`,
    );
    process.exit(1);
  }
  const beat = () =>
    instances
      .updateOne({ _id: name }, { $set: { storage, pid: process.pid }, $currentDate: { seenAt: true } }, { upsert: true })
      .catch(() => {});
  await beat();
  setInterval(beat, 5_000).unref();
}

/** Starts the workers (and the embedded database they share), replaces dead ones, stops them in order. */
async function runPrimary() {
  process.env.DAMAGEIQ_ROLE = "primary";
  const build = await import(pathToFileURL(buildPath).href);
  const { log } = build.entry.module;
  const database = process.env.MONGODB_URI ? null : await build.entry.module.startEmbeddedDatabase();
  const shared = {
    DAMAGEIQ_ROLE: "worker",
    ...(database ? { MONGODB_URI: database.uri } : {}),
  };
  const housekeepers = new Set();
  let stopping = false;
  let quickExits = 0;
  const fork = (housekeeping) => {
    const worker = cluster.fork({
      ...shared,
      DAMAGEIQ_HOUSEKEEPING: String(housekeeping),
    });
    worker.startedAt = Date.now();
    if (housekeeping) housekeepers.add(worker.id);
  };
  for (let i = 0; i < workerCount; i++) fork(i === 0);
  // The engine runs here, its progress shows in the workers' /healthz and "starting" page: relay it
  // until it listens (a worker started meanwhile hears it within a second).
  if (database) {
    const relay = setInterval(() => {
      for (const worker of Object.values(cluster.workers ?? {})) {
        if (worker?.isConnected()) worker.send({ databaseProgress: database.progress() ?? null });
      }
    }, 1000);
    void database.listening.then(() => clearInterval(relay));
  }
  // A worker's `{ broadcast }` message (app/utils/broadcast.server.ts) goes to every other worker.
  cluster.on("message", (from, message) => {
    if (typeof message?.broadcast !== "string") return;
    for (const worker of Object.values(cluster.workers ?? {})) {
      if (worker && worker !== from && worker.isConnected()) worker.send({ broadcast: message.broadcast });
    }
  });
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) return;
    const housekeeping = housekeepers.delete(worker.id);
    // A worker that cannot start (a port in use, a bad build) would be replaced forever: give up.
    quickExits = Date.now() - worker.startedAt < 5000 ? quickExits + 1 : 0;
    if (quickExits >= 5) {
      log.fatal("Workers keep exiting at start; stopping.");
      process.exit(1);
    }
    log.error(`Worker ${worker.process.pid} exited (${signal ?? code}); starting another.`);
    fork(housekeeping);
  });
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, async () => {
      if (stopping) return;
      stopping = true;
      const workers = Object.values(cluster.workers ?? {});
      await Promise.all(
        workers.map((w) => new Promise((resolve) => (w.once("exit", resolve), w.process.kill(signal))))
      );
      await database?.stop();
      process.exit(0);
    });
  }
}

/**
 * The build's routes as patterns (`/api/contacts/:id`), literal segments before parameters
 * (`/preview` before `/:id`), as Remix ranks them: the function returned names the route a path reaches
 * (its access log line) and, under /api, the methods it answers.
 */
function routeTable(build) {
  // Nested routes (api.contacts.$id under api.contacts) hold their path relative to their parent's.
  const fullPath = (route) => {
    const parent = route.parentId ? build.routes[route.parentId] : undefined;
    const base = parent ? fullPath(parent) : "";
    return [base, route.path ?? ""].filter(Boolean).join("/");
  };
  const table = Object.values(build.routes)
    .map((route) => ({ route, path: fullPath(route) }))
    .map(({ route, path }) => {
      const segments = path.split("/");
      const methods = [];
      if (route.module.loader) methods.push("GET", "HEAD");
      if (route.module.action) methods.push(...(route.module.action.allowedMethods ?? ["POST", "PUT", "PATCH", "DELETE"]));
      const pattern = segments.map((s) => (s === "*" ? ".*" : s.startsWith(":") ? "[^/]+" : s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("/");
      return { name: `/${path}`, regex: new RegExp(`^/${pattern}/?$`), splat: segments.includes("*"), params: segments.filter((s) => s.startsWith(":")).length, methods };
    })
    // A splat (the not-found page) last of all.
    .sort((a, b) => Number(a.splat) - Number(b.splat) || a.params - b.params);
  return (path) => table.find((route) => route.regex.test(path));
}

async function runServer() {
  const build = await import(pathToFileURL(buildPath).href);

  const { log } = build.entry.module;
  const match = routeTable(build);
  // Matched once per request: the 405 check and the access line both ask.
  const routeOf = (req) => (req.matchedRoute === undefined ? (req.matchedRoute = match(req.path) ?? null) : req.matchedRoute);
  const app = express();
  app.disable("x-powered-by");
  // One access line per request, and its id in every answer (X-Request-Id: a caller's own, when it is a
  // plain token, else a new one), so a reported failure leads to its log lines (docs/decisions/0042).
  // The line names the route's pattern, never the path or query a customer's name may be in; the
  // account, never a token or a cookie.
  const REQUEST_ID = /^[\w.:@-]{1,128}$/;
  app.use(
    pinoHttp({
      logger: log,
      quietReqLogger: true,
      quietResLogger: true,
      genReqId(req, res) {
        const own = req.headers["x-request-id"];
        const id = typeof own === "string" && REQUEST_ID.test(own) ? own : randomUUID();
        res.setHeader("X-Request-Id", id);
        return id;
      },
      // The build's files and the public ones are not requests anyone traces; health checks (a load
      // balancer's, every few seconds) at debug; a 503 (starting, the database away) is a warning.
      autoLogging: { ignore: (req) => req.path.startsWith(build.publicPath) || path.extname(req.path) !== "" },
      customLogLevel: (req, res) => (req.path === "/healthz" ? "debug" : res.statusCode === 503 ? "warn" : res.statusCode >= 500 ? "error" : "info"),
      customSuccessMessage: () => "request",
      customErrorMessage: () => "request",
      customSuccessObject: (req, res, { responseTime }) => accessLine(req, res, responseTime),
      customErrorObject: (req, res, _error, { responseTime }) => accessLine(req, res, responseTime),
    }),
  );
  const accessLine = (req, res, responseTime) => ({
    method: req.method,
    route: routeOf(req)?.name ?? null,
    status: res.statusCode,
    ms: responseTime,
    ...(req.scope?.accountId ? { accountId: req.scope.accountId } : {}),
    ...(res.writableFinished ? {} : { aborted: true }),
  });
  // Remix reads the query from the URL itself: Express parsing it too is wasted work.
  app.set("query parser", false);
  // Behind a load balancer set TRUST_PROXY (a hop count, or the proxies' addresses) so req.ip is the
  // client's; the app's environment check parses it.
  if (build.entry.module.trustProxy !== undefined) app.set("trust proxy", build.entry.module.trustProxy);
  app.use(compression());
  // An answer given without reading the body (a 401 before parsing, a logout) leaves the rest of it
  // on the kept-alive socket, held by Remix's paused body stream, and the client's next request there
  // hangs: detach that stream and let the rest flow away.
  app.use((req, res, next) => {
    res.once("finish", () => {
      if (req.complete) return;
      req.removeAllListeners("data");
      req.resume();
    });
    next();
  });
  // The JSON API's methods per route, from the build (a loader answers GET and HEAD; an action the
  // methods its `methods()` wrapper lists): OPTIONS says exactly those, any other is 405 with them in
  // Allow (RFC 9110), before a route runs — Remix answered a loader-only route's PUT with a bare 405.
  app.use((req, res, next) => {
    if (!req.path.startsWith("/api/")) return next();
    const route = routeOf(req);
    const allowed = route?.name.startsWith("/api/") ? route.methods : undefined;
    if (!allowed || (allowed.includes(req.method) && req.method !== "OPTIONS")) return next();
    res.set("Allow", [...allowed, "OPTIONS"].join(", "));
    res.set("Cache-Control", "no-store");
    if (req.method === "OPTIONS") return res.status(204).end();
    return res.status(405).json({ message: "Method not allowed" });
  });
  // The methods the app answers. TRACE (and any other) came back a 500 from deep inside Remix, and an
  // OPTIONS ran the route's loader (GET /api/uploads/s3/params records an upload): the app takes no
  // cross-origin calls, so OPTIONS only says which methods exist, with nothing run.
  const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]);
  app.use((req, res, next) => {
    if (METHODS.has(req.method)) return next();
    res.set("Allow", "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
    res.set("Cache-Control", "no-store");
    if (req.method === "OPTIONS") return res.status(204).end();
    return res.status(405).json({ message: "Method not allowed" });
  });
  const httpsOnly = build.entry.module.httpsOnly === true;
  app.use((_req, res, next) => {
    if (httpsOnly) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "same-origin");
    res.setHeader("X-Frame-Options", "DENY");
    next();
  });
  // The build's files as gzipped once at build time (scripts/precompress.mjs) to a client that
  // accepts gzip; without a copy (a development build) compression() gzips as it sends.
  app.use(
    build.publicPath,
    expressStaticGzip(build.assetsBuildDirectory, {
      index: false,
      serveStatic: { immutable: true, maxAge: "1y", index: false },
    })
  );
  // Only a path naming a file (favicon.svg…) can be in public/: a page or API path skips the disk
  // lookup that a static handler otherwise makes on every request.
  const publicFiles = express.static(path.join(root, "public"), { maxAge: "1h", index: false });
  app.use((req, res, next) => (path.extname(req.path) ? publicFiles(req, res, next) : next()));
  app.get("/favicon.ico", (_req, res) => res.redirect(301, "/favicon.svg"));

  // Bodies are bounded before anything reads them (the app parses after authenticating, but a body
  // is buffered first): JSON 1 MiB, screen forms 64 KiB. The routes that take files have their own
  // limits per upload purpose. Edit Estimate posts every field of every line (100 damages and 450
  // lines, docs/decisions/0027): 220 KB as shops fill them, 2.6 MB with every text at its longest
  // in accented letters (URL-encoded, 6 bytes each).
  const FILE_ROUTES = new Set(["/api/objects/signed", "/upload", "/ai-training", "/settings/import", "/api/account/import"]);
  const MiB = 1024 * 1024;
  const LARGE_FORMS = new Map([["/estimates", 4 * MiB]]);
  app.use((req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || FILE_ROUTES.has(req.path)) return next();
    const length = req.get("content-length");
    if (length === undefined) {
      if (!req.get("transfer-encoding")) return next();
      return res.status(411).json({ message: "Send the body with a Content-Length" });
    }
    const limit = req.path.startsWith("/api/") ? MiB : LARGE_FORMS.get(req.path) ?? 64 * 1024;
    if (Number(length) > limit) {
      const refuse = () => res.status(413).json({ message: `Request body too large (at most ${limit / 1024} KiB)` });
      // A client still sending when the answer comes and the socket closes sees a reset instead of
      // the 413: a body a little over the limit is read and dropped first, a huge one is cut off.
      if (Number(length) > 16 * MiB) return res.set("Connection", "close") && refuse();
      req.resume();
      req.once("end", refuse);
      return;
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
      return res.status(415).json({
        message: "Send the form as application/x-www-form-urlencoded or multipart/form-data",
      });
    }
    next();
  });
  // The adapter drops a header whose value is empty, so the app would take an empty Idempotency-Key
  // for none and create again: refused here with the app's own message (app/schemas/email.ts).
  app.use((req, res, next) => {
    if (req.method !== "POST" || !req.path.startsWith("/api/") || req.headers["idempotency-key"] !== "") return next();
    const message = "Idempotency-Key must be 8 to 200 characters";
    res.status(400).json({ message, errors: { "Idempotency-Key": message } });
  });
  // Remix's Express adapter, except that a JSON answer (the API, a screen's data) is sent whole
  // with its Content-Length: one write to the socket and no chunked framing, where the adapter
  // streams every body.
  const handleRequest = createRequestHandler(build.entry.module.servedBuild(build), process.env.NODE_ENV);
  const JSON_TYPE = /^application\/json\b/i;
  // How long a request may wait on a database that does not answer before it is answered 503: with
  // the stall watch's second-long ping, every request is answered within about 1.5 s (target 2 s).
  const STALL_WAIT_MS = 1000;
  const { whileStarting, whileStalled, runInRequestScope } = build.entry.module;
  app.all("*", async (req, res, next) => {
    let stallWatch;
    try {
      // Until the database first answers, every route says the app is starting (503, Retry-After):
      // a session, a page's data, a sign-in all need it (docs/decisions/0029).
      const starting = whileStarting(req.path) ?? whileStalled(req.path, req.id);
      if (starting) return await sendRemixResponse(res, starting);
      // A request still waiting after STALL_WAIT_MS while the database does not answer is answered
      // 503 then (0045); whatever it finishes later is not sent, and the log says how it ended.
      let answeredStalled = false;
      const watch = () => {
        const stalled = whileStalled(req.path, req.id);
        if (!stalled) return (stallWatch = setTimeout(watch, 250));
        answeredStalled = true;
        sendRemixResponse(res, stalled).catch(next);
      };
      stallWatch = setTimeout(watch, STALL_WAIT_MS);
      const loadContext = { clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown" };
      req.scope = { requestId: req.id };
      const response = await runInRequestScope(() => handleRequest(createRemixRequest(req, res), loadContext), req.scope);
      clearTimeout(stallWatch);
      if (answeredStalled) {
        log.warn({ reqId: req.id, status: response.status }, "A request answered 503 while the database stalled finished later; its answer was not sent.");
        return;
      }
      if (!response.body || !JSON_TYPE.test(response.headers.get("Content-Type") ?? "")) {
        return await sendRemixResponse(res, response);
      }
      const body = Buffer.from(await response.arrayBuffer());
      res.statusMessage = response.statusText;
      res.status(response.status);
      for (const [key, value] of response.headers.entries()) res.append(key, value);
      res.setHeader("Content-Length", body.length);
      res.end(body);
    } catch (error) {
      clearTimeout(stallWatch);
      if (res.headersSent) return;
      next(error);
    }
  });

  const port = Number(process.env.PORT ?? 3000);
  const server = app.listen(port, () => {
    log.info(`DamageIQ listening on http://localhost:${port}`);
  });
  server.keepAliveTimeout = 65_000;

  // The upload widget's remote files follow their import on a websocket, /api/uploads/api/<token>
  // (the Companion protocol; docs/decisions/0068). The token is the authorisation (unguessable, from
  // the signed-in `url/get`); the state is in the database, so any instance answers.
  const { WebSocketServer } = await import("ws");
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 4096 });
  server.on("upgrade", (req, socket, head) => {
    const token = /^\/api\/uploads\/api\/([0-9a-f]{48})$/.exec(new URL(req.url ?? "/", "http://x").pathname)?.[1];
    if (!token) {
      socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    sockets.handleUpgrade(req, socket, head, (ws) => build.entry.module.followLinkImport(ws, token));
  });

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
}
