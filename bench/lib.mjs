// Shared by the benches: the embedded database and the built app as child processes on loopback,
// timing helpers and /proc readings. Every loop is bounded; nothing leaves this machine.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import mongoose from "mongoose";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const LAUNCHER_JAR = path.join(root, "tools/mongo-launcher/target/mongo-launcher.jar");

export const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** Ends a child process (SIGTERM, SIGKILL after 5 s) and waits for it. */
export async function stopProcess(child, signal = "SIGTERM") {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

/** The embedded database as the app starts it (same JVM options), on `port` with data in `dir`. */
export async function startEngine({ dir, port, heapMb = 512 }) {
  const proc = spawn(
    "java",
    // BENCH_ENGINE_ARGS (e.g. "-XX:StartFlightRecording=filename=/tmp/engine.jfr") profiles the engine under a bench's load.
    [`-Xmx${heapMb}m`, "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError", ...(process.env.BENCH_ENGINE_ARGS ?? "").split(" ").filter(Boolean), "-jar", LAUNCHER_JAR,
      "--port", String(port), "--dir", dir, "--cache-mb", String(Math.floor(heapMb / 4)), "--watch-stdin"],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  await new Promise((resolve, reject) => {
    proc.once("exit", (code) => reject(new Error(`embedded database exited (${code})`)));
    proc.stdout.on("data", (d) => {
      if (d.toString().includes("listening")) resolve();
    });
  });
  proc.stdout.resume();
  return proc;
}

/** Starts server.mjs (the built app) and waits for /healthz; without `mongoUri` it starts its own engine. */
export async function startApp({ port, dataDir, mongoUri, timeoutMs = 60_000 }) {
  const env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, NODE_ENV: "production" };
  if (mongoUri) env.MONGODB_URI = mongoUri;
  else delete env.MONGODB_URI;
  const started = performance.now();
  // BENCH_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the app under a bench's load.
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const app = spawn(process.execPath, [...nodeArgs, "server.mjs"], { cwd: root, env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  app.stderr.on("data", (d) => (stderr += d));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (app.exitCode !== null) throw new Error(`app exited:\n${stderr}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`app not healthy within ${timeoutMs / 1000} s:\n${stderr}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return { app, startMs: performance.now() - started, stderr: () => stderr };
}

/** Runs `task(i)` for i < total with `concurrency` in flight at once. */
export async function pool(total, concurrency, task) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await task(next++);
    }),
  );
}

export const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

/** p50/p95 of `runs` calls of `fn` after `warmup` unmeasured ones, one at a time. */
export async function timed(fn, { runs = 30, warmup = 5 } = {}) {
  for (let i = 0; i < warmup; i++) await fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

/** CPU seconds (user + system) a process has used, from /proc; 0 where there is none. */
export function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds of a process's threads whose name starts with `prefix` (a JVM's "C2 CompilerThread"), from /proc. */
export function threadCpuSeconds(pid, prefix) {
  try {
    return readdirSync(`/proc/${pid}/task`).reduce((sum, task) => {
      try {
        if (!readFileSync(`/proc/${pid}/task/${task}/comm`, "utf8").startsWith(prefix)) return sum;
        const fields = readFileSync(`/proc/${pid}/task/${task}/stat`, "utf8").split(") ")[1].split(" ");
        return sum + (Number(fields[11]) + Number(fields[12])) / 100;
      } catch {
        return sum; // the thread ended meanwhile
      }
    }, 0);
  } catch {
    return 0;
  }
}

/** The live child processes of a process (e.g. the app's cluster workers), from /proc. */
export function childPids(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(" ").filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/** CPU seconds of a process and its children (the app's primary and workers). */
export const treeCpuSeconds = (pid) => cpuSeconds(pid) + childPids(pid).reduce((sum, child) => sum + cpuSeconds(child), 0);

/** Resident memory of a process in MiB, from /proc; NaN where there is none. */
export function rssMiB(pid) {
  if (!existsSync(`/proc/${pid}/status`)) return NaN;
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return kb ? Number(kb) / 1024 : NaN;
}

export const ms = (v) => `${v.toFixed(1)} ms`;
export const verdict = (ok) => (ok ? "PASS" : "FAIL");

/**
 * Bundles a TypeScript runner of the app's own code (the "~/" imports bundled, packages loaded from
 * node_modules) and runs it with `env`; answers the last line it printed, parsed as JSON.
 */
export async function runBundled(entry, env, { timeoutMs = 15 * 60_000 } = {}) {
  const { build } = await import("esbuild");
  // Inside the project so that the bundle's bare imports resolve from node_modules.
  const outDir = path.join(root, ".tmp", `bench-runner-${process.pid}-${path.basename(entry, ".ts")}`);
  mkdirSync(outDir, { recursive: true });
  const outfile = path.join(outDir, "runner.mjs");
  try {
    await build({
      entryPoints: [path.join(root, entry)],
      outfile,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      tsconfig: path.join(root, "tsconfig.json"),
      plugins: [{ name: "packages-external", setup: (b) => b.onResolve({ filter: /^[^./~]/ }, (args) => ({ path: args.path, external: true })) }],
      logLevel: "warning",
    });
    const stdout = await new Promise((resolve, reject) => {
      const nodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
      const child = spawn(process.execPath, [...nodeArgs, outfile], { env: { ...process.env, NODE_ENV: "production", ...env }, stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
      child.on("exit", (code) => {
        clearTimeout(timer);
        if (code === 0) resolve(out);
        else reject(new Error(`${entry} exited (${code}):\n${out}`));
      });
    });
    return JSON.parse(stdout.trim().split("\n").pop());
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** A call to the app (JSON body, or `raw` as it is); an answer of 400 or more throws with its start. */
export async function call(base, method, url, { body, cookie, raw } = {}) {
  const res = await fetch(`${base}${url}`, {
    method,
    redirect: "manual",
    headers: { ...(body && !raw ? { "Content-Type": "application/json" } : {}), ...(cookie ? { Cookie: cookie } : {}) },
    body: raw ?? (body ? JSON.stringify(body) : undefined),
  });
  const buffer = Buffer.from(await res.arrayBuffer());
  if (res.status >= 400) throw new Error(`${method} ${url}: ${res.status} ${buffer.toString().slice(0, 200)}`);
  return { res, text: buffer.toString(), bytes: buffer.length };
}

/** Signs in over the API; the session cookie to send. */
export async function signInCookie(base, username, password) {
  const { res } = await call(base, "POST", "/api/admin/login", { body: { username, password } });
  return res.headers.get("set-cookie").split(";")[0];
}

/**
 * A page or API call at one connection, then at 16: latency, requests per second and the CPU per
 * request of the app, the engine and this client (all three share the machine's cores). Measured
 * warm, after `warmup` calls: a dealership's server runs for days, and cold start has its own figure.
 */
export async function measureList({ base, app, engine, requests, warmup }, label, urls, cookie) {
  await pool(warmup, 16, (i) => call(base, "GET", urls[i % urls.length], { cookie }));
  const one = await timed(() => call(base, "GET", urls[0], { cookie }), { runs: 60, warmup: 5 });
  const times = [];
  const cpu0 = { app: treeCpuSeconds(app.pid), db: cpuSeconds(engine.pid), client: process.cpuUsage() };
  const started = performance.now();
  await pool(requests, 16, async (i) => {
    const t = performance.now();
    await call(base, "GET", urls[i % urls.length], { cookie });
    times.push(performance.now() - t);
  });
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const perRequest = (a, b) => ms(((b - a) * 1000) / requests);
  const client = process.cpuUsage(cpu0.client);
  return {
    label,
    p50one: one.p50,
    p95one: one.p95,
    rate: requests / seconds,
    p95: percentile(times, 95),
    cpu: `${perRequest(cpu0.app, treeCpuSeconds(app.pid))} app, ${perRequest(cpu0.db, cpuSeconds(engine.pid))} engine, ${perRequest(0, (client.user + client.system) / 1e6)} this client`,
  };
}

const { MongoClient, ObjectId } = mongoose.mongo;

/**
 * What every scale bench runs on: the engine on a fresh directory, the built app on it and a
 * driver client for seeding (database "bench"); `stop()` ends all three and removes the directory.
 */
export async function startStack(name) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `bench-${name}-`));
  const enginePort = await freePort();
  const engine = await startEngine({ dir: path.join(dir, "db"), port: enginePort });
  const mongoUri = `mongodb://127.0.0.1:${enginePort}/bench`;
  const appPort = await freePort();
  const base = `http://127.0.0.1:${appPort}`;
  const { app } = await startApp({ port: appPort, dataDir: path.join(dir, "app"), mongoUri });
  const client = await new MongoClient(`mongodb://127.0.0.1:${enginePort}/`).connect();
  return {
    dir,
    engine,
    mongoUri,
    base,
    app,
    db: client.db("bench"),
    async stop() {
      await client.close().catch(() => {});
      await stopProcess(app);
      await stopProcess(engine);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The first admin and `count` dealers (dealer0, dealer1, …) made over the API; dealer0's session cookie. */
export async function benchDealers(base, count = 5) {
  const admin = { username: "benchadmin", password: "bench-admin-1" };
  await call(base, "POST", "/api/admin/create-account", { body: { ...admin, email: "admin@example.com", firstName: "Bench", lastName: "Admin" } });
  const adminCookie = await signInCookie(base, admin.username, admin.password);
  const dealers = [];
  for (let d = 0; d < count; d++) {
    const { text } = await call(base, "POST", "/api/admin/users", {
      cookie: adminCookie,
      body: { username: `dealer${d}`, password: "bench-dealer-1", email: `d${d}@example.com`, firstName: "Bench", lastName: `Dealer ${d}`, role: "dealer", companyName: `Dealer ${d} Motors` },
    });
    const made = JSON.parse(text);
    dealers.push(new ObjectId(made.id ?? made.user.id));
  }
  return { adminCookie, dealers, cookie: await signInCookie(base, "dealer0", "bench-dealer-1") };
}

/**
 * Inserts `big` documents for the first owner and `others` spread over the next four, a thousand at
 * a time, made by `make(ownerId, i, ownerIndex)`; answers how many each other owner got.
 */
export async function seedOwners(collection, owners, { big, others }, make) {
  const perOther = Math.floor(others / 4);
  for (const [d, count] of [[0, big], [1, perOther], [2, perOther], [3, perOther], [4, perOther]]) {
    for (let from = 0; from < count; from += 1000) {
      await collection.insertMany(Array.from({ length: Math.min(1000, count - from) }, (_, k) => make(owners[d], from + k, d)));
    }
  }
  return perOther;
}

const STATUSES = ["uploaded", "processing", "analyzing", "completed", "reviewed", "sent"];
const VEHICLES = [["Toyota", "Camry"], ["Honda", "Civic"], ["Ford", "F-150"], ["Chevrolet", "Silverado"], ["Tesla", "Model 3"],
  ["BMW", "X5"], ["Nissan", "Altima"], ["Hyundai", "Tucson"]];
const DAMAGES = [["dent", "left", "moderate"], ["scratch", "front", "minor"], ["bumper_damage", "rear", "major"], ["glass_damage", "front", "severe"]];

/** A pricing-engine line in cents, as the analysis stores it. */
const quoteLine = (damageType, severity, location, totalCents) => ({
  damageType, severity, location, priced: true, ruleId: new ObjectId().toHexString(), baseCents: 10000,
  labour: { hours: 2, hoursFrom: "default", rateCents: 8500, cents: 17000 }, partsCents: Math.max(0, totalCents - 27000),
  modifiers: { make: 1, location: 1, seasonal: 1 }, markupPercentage: 0, subtotalCents: totalCents, minimumChargeCents: 0,
  minimumApplied: false, ruleCents: totalCents, learning: { factor: 1, records: 0, cents: 0 }, totalCents,
});

/**
 * The i-th assessment of a bench account (about 1.5 KB), shaped as the analysis leaves it: the six
 * statuses in turn; analysed ones with a damage, a quote line, the AI's figure and a final cost (a
 * fifth of the reviewed and sent ones 30 % off the AI's); a third naming one of `contactIds`; one in
 * ten of the sent ones last updated at `now` (sent today).
 */
export function benchAssessment(ownerId, i, { contactIds, now } = {}) {
  const status = STATUSES[i % STATUSES.length];
  const [make, model] = VEHICLES[i % VEHICLES.length];
  const [damageType, location, severity] = DAMAGES[i % DAMAGES.length];
  const at = new Date(Date.UTC(2024, 0, 1) + i * 600_000);
  const analysed = ["completed", "reviewed", "sent"].includes(status);
  const cents = 20000 + (i % 40) * 2500;
  const finalCents = status === "completed" ? cents : Math.round(cents * (i % 5 === 0 ? 1.3 : 1.05));
  const mediaUrl = `/media/${new ObjectId().toHexString()}`;
  return {
    ownerId,
    title: `${make} ${model} ${damageType.replace("_", " ")} #${i}`,
    vehicleYear: 2010 + (i % 15),
    vehicleMake: make,
    vehicleModel: model,
    vin: `1HGCM8263${String(i).padStart(8, "0")}`,
    ...(contactIds && i % 3 === 0 ? { contactId: contactIds[i % contactIds.length] } : {}),
    mediaUrls: [mediaUrl],
    status,
    ...(analysed
      ? {
          severity,
          estimatedCost: finalCents / 100,
          aiEstimatedCost: cents / 100,
          lineItems: [quoteLine(damageType, severity, location, cents)],
          damages: [{ damageType, location, severity, description: `A ${severity} ${damageType} on the ${location}`, confidence: 0.82, mediaUrl }],
          damageCategories: [damageType],
          aiAnalysis: { confidence: 0.82, description: `One ${severity} ${damageType} found.`, provider: "embedded" },
        }
      : { lineItems: [], damages: [], damageCategories: [] }),
    // Current prints (colour-aware, 0030): a print from before would be recomputed at first start.
    photoHashes: [{ mediaUrl, hash: "f0e1d2c3b4a59687", print: "f0e1d2c3b4a59687" }],
    photoBands: [],
    photoWarnings: [],
    audit: [{ at, by: ownerId, byName: "Bench Dealer", action: "created", to: "uploaded" }],
    ...(status === "sent" ? { sentAt: at } : {}),
    createdAt: at,
    updatedAt: now && status === "sent" && i % 60 === 5 ? now : at,
  };
}

/** The list benches' table: one row per measured request, judged on the issues' list targets. */
export function printListTable(rows, unit) {
  console.log(`| request | 1 conn p50 | 1 conn p95 | 16 conns ${unit} | 16 conns p95 | CPU per request | target |`);
  console.log("|---|---|---|---|---|---|---|");
  for (const r of rows) {
    const ok = r.p50one <= 50 && r.rate >= 60 && r.p95 <= 500;
    console.log(`| ${r.label} | ${ms(r.p50one)} | ${ms(r.p95one)} | ${r.rate.toFixed(0)} | ${ms(r.p95)} | ${r.cpu} | p50 ≤ 50 ms, ≥ 60/s, p95 ≤ 500 ms ${verdict(ok)} |`);
  }
}

/** Resident memory now and at its peak (VmRSS, VmHWM) of a process in MiB, from /proc; NaN where there is none. */
export function memoryMiB(pid) {
  const status = existsSync(`/proc/${pid}/status`) ? readFileSync(`/proc/${pid}/status`, "utf8") : "";
  const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) / 1024;
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
}

/** The bytes of every file under `dir` (the data directory on disk). */
export function dirBytes(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(path.join(entry.parentPath ?? entry.path, entry.name)).size, 0);
}

/**
 * The embedded database from `jar` with the app's JVM options, at lower priority (nice execs java: the
 * process id is the JVM's), timed from spawn to
 * "listening". Answers { proc, openMs, progress } (progress: the "opening:" lines it printed), or,
 * when it did not open within `limitMs`, kills it and answers { proc: undefined, progress, exit }.
 */
export async function openEngine({ dir, port, heapMb = 512, jar = LAUNCHER_JAR, limitMs = 240_000, niceness = 10 }) {
  const started = performance.now();
  const proc = spawn(
    "nice",
    // `niceness` is where it ends up, also when this process is already niced.
    [`-n${Math.max(0, niceness - os.getPriority())}`, "java", `-Xmx${heapMb}m`, "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError", "-jar", jar,
      "--port", String(port), "--dir", dir, "--cache-mb", String(Math.max(16, Math.floor(heapMb / 4))), "--watch-stdin"],
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  const progress = [];
  let stderr = "";
  proc.stderr.on("data", (d) => (stderr += d).length > 20_000 && (stderr = stderr.slice(-10_000)));
  const outcome = await new Promise((resolve) => {
    const timer = setTimeout(() => resolve("timeout"), limitMs);
    proc.once("exit", (code, signal) => {
      clearTimeout(timer);
      resolve(`exited (${signal ?? code}): ${stderr.trim().split("\n").slice(-3).join(" / ")}`);
    });
    let partial = "";
    proc.stdout.on("data", (d) => {
      const lines = (partial + d).split("\n");
      partial = lines.pop();
      for (const line of lines) {
        if (line.includes("opening:")) progress.push({ atMs: performance.now() - started, text: line.trim() });
        if (line.includes("listening")) {
          clearTimeout(timer);
          resolve("listening");
        }
      }
    });
  });
  if (outcome === "listening") return { proc, openMs: performance.now() - started, progress };
  await stopProcess(proc, "SIGKILL");
  return { proc: undefined, progress, exit: outcome };
}

/** Ends the engine with SIGTERM, giving it `graceMs` to close its store before SIGKILL; answers the ms it took. */
export async function stopEngineCleanly(proc, graceMs = 120_000) {
  const started = performance.now();
  if (proc.exitCode !== null || proc.signalCode !== null) return 0;
  await new Promise((resolve) => {
    const timer = setTimeout(() => proc.kill("SIGKILL"), graceMs);
    proc.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    proc.kill("SIGTERM");
  });
  return performance.now() - started;
}

/**
 * The heap's live size in MiB: a full collection (jcmd GC.run), then the generations' "used" figures
 * of GC.heap_info added up (eden is empty after it, so this is what survives).
 */
export function liveHeapMiB(pid) {
  const jcmd = (command) => execFileSync("nice", [`-n${Math.max(0, 10 - os.getPriority())}`, "jcmd", String(pid), command], { encoding: "utf8", timeout: 120_000 });
  jcmd("GC.run");
  const used = [...jcmd("GC.heap_info").matchAll(/(?:generation|region|heap)\s+total \d+K, used (\d+)K/g)];
  return used.length ? used.reduce((sum, m) => sum + Number(m[1]), 0) / 1024 : NaN;
}

const FIRST_NAMES = ["James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "Carlos", "Aisha"];
const LAST_NAMES = ["Smith", "Johnson", "Williams", "Brown", "Garcia", "Miller", "Davis", "Martinez", "Wilson", "Okonkwo"];

/** The i-th contact of a bench account, shaped as the contacts screen stores it (half with a phone, half with a company). */
export function benchContact(ownerId, i, _id = new ObjectId()) {
  const firstName = FIRST_NAMES[i % FIRST_NAMES.length];
  const lastName = LAST_NAMES[Math.floor(i / FIRST_NAMES.length) % LAST_NAMES.length];
  const at = new Date(Date.UTC(2023, 0, 1) + i * 3_600_000);
  return {
    _id, ownerId, firstName, lastName, email: `${firstName}.${lastName}.${i}@example.com`.toLowerCase(),
    ...(i % 2 === 0 ? { phone: `555-${String(1000 + (i % 9000)).padStart(4, "0")}` } : { companyName: `Fleet ${i % 40} Partners` }),
    ...(i % 4 === 0 ? { address: `${100 + i} Main Street, Springfield` } : {}),
    createdAt: at, updatedAt: at,
  };
}

/**
 * scripts/upgrade-data.mjs on a database (a MONGODB_URI, or the running app's DATA_DIR): the search
 * index and dashboard counters of documents seeded straight into the collections, as an operator
 * brings restored data up to date. Answers its time in ms and what it printed. Asynchronous: this
 * process keeps reading the output of the engine it started (a full pipe would stop the engine).
 */
export async function upgradeData({ mongoUri, dataDir }) {
  const env = { ...process.env };
  delete env.MONGODB_URI;
  if (mongoUri) env.MONGODB_URI = mongoUri;
  else env.DATA_DIR = dataDir;
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(root, "scripts/upgrade-data.mjs")], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const code = await new Promise((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`upgrade-data failed (${code}): ${output.slice(-400)}`);
  return { ms: performance.now() - started, output: output.trim() };
}
