// What the access log costs (issue 42 item 3, docs/decisions/0042): GET /api/contacts?limit=50 at 16
// connections, the same app with LOG_LEVEL=info (one JSON access line per request, with its request
// id) and LOG_LEVEL=silent (no line at all), alternated over ROUNDS starts on one engine so the
// machine's drift falls on both. Target: info within 5 % of silent (the app's CPU per request, the steadier figure; throughput printed too).
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { benchDealers, call, freePort, percentile, pool, startApp, startEngine, stopProcess, treeCpuSeconds, verdict } from "./lib.mjs";

const REQUESTS = Number(process.env.REQUESTS ?? 1500);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const dir = mkdtempSync(path.join(os.tmpdir(), "bench-logging-"));
const enginePort = await freePort();
const engine = await startEngine({ dir: path.join(dir, "db"), port: enginePort });
const mongoUri = `mongodb://127.0.0.1:${enginePort}/bench`;

// One worker: its CPU is the figure, and a second worker still starting would answer 503 after the
// first one's /healthz said 200.
process.env.WEB_CONCURRENCY = "1";

async function measure(level, seed) {
  process.env.LOG_LEVEL = level;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const { app } = await startApp({ port, dataDir: path.join(dir, `app-${level}`), mongoUri });
  try {
    const cookie = await seed(base);
    const url = "/api/contacts?limit=50";
    await pool(300, 16, () => call(base, "GET", url, { cookie }));
    const times = [];
    const cpu0 = treeCpuSeconds(app.pid);
    const started = performance.now();
    await pool(REQUESTS, 16, async () => {
      const t = performance.now();
      await call(base, "GET", url, { cookie });
      times.push(performance.now() - t);
    });
    times.sort((a, b) => a - b);
    const seconds = (performance.now() - started) / 1000;
    return { rate: REQUESTS / seconds, p95: percentile(times, 95), cpuMs: ((treeCpuSeconds(app.pid) - cpu0) * 1000) / REQUESTS };
  } finally {
    await stopProcess(app);
  }
}

try {
  let cookie;
  // The first start makes the accounts and 50 contacts; later starts sign in again.
  const seed = async (base) => {
    if (!cookie) {
      ({ cookie } = await benchDealers(base, 1));
      for (let i = 0; i < 50; i++) await call(base, "POST", "/api/contacts", { cookie, body: { firstName: `Ana${i}`, lastName: "Rivera", email: `ana${i}@example.com` } });
      return cookie;
    }
    const { res } = await call(base, "POST", "/api/admin/login", { body: { username: "dealer0", password: "bench-dealer-1" } });
    cookie = res.headers.get("set-cookie").split(";")[0];
    return cookie;
  };
  const figures = { silent: [], info: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const level of round % 2 === 0 ? ["silent", "info"] : ["info", "silent"]) figures[level].push(await measure(level, seed));
  }
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  for (const level of ["silent", "info"]) {
    console.log(`logging: LOG_LEVEL=${level.padEnd(6)} ${figures[level].map((f) => `${f.rate.toFixed(0)} req/s, ${f.cpuMs.toFixed(2)} ms app CPU/request`).join("; ")}`);
  }
  // Throughput on a shared machine swings more than the log costs: the app's CPU per request is the
  // steadier measure of what the log adds, and throughput follows it where the app's CPU is the limit.
  const silent = median(figures.silent.map((f) => f.cpuMs));
  const info = median(figures.info.map((f) => f.cpuMs));
  const cost = ((info - silent) / silent) * 100;
  const rates = { silent: median(figures.silent.map((f) => f.rate)), info: median(figures.info.map((f) => f.rate)) };
  console.log(`logging: median app CPU per request ${info.toFixed(2)} ms with the access log, ${silent.toFixed(2)} ms without: +${cost.toFixed(1)} % (target <= 5 %) ${verdict(cost <= 5)}; median throughput ${rates.info.toFixed(0)} vs ${rates.silent.toFixed(0)} req/s`);
} finally {
  await stopProcess(engine);
  rmSync(dir, { recursive: true, force: true });
}
