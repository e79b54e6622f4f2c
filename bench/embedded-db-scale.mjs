// The embedded database at a dealership's real size (issue 38): for each size N (BENCH_SIZES, default
// "50000,250000"; the curve goes to 1000000) it seeds N assessments and N/4 contacts shaped as the app
// stores them, with the app's own indexes (the built app is started once on the engine and builds
// them), over BENCH_ACCOUNTS dealers of which one holds 40 %. Then, with the default heap (512 MiB,
// the app's JVM options), from a clean stop: the open time (spawn → "listening", given up after
// BENCH_OPEN_LIMIT_S), resident memory and the heap's live size after a full collection (after the
// open and after a burst of requests), the built app's first requests after the restart and p50/p95
// of more, the big dealer's account export (time, size, the engine's peak RSS, /healthz after), a
// write soak (BENCH_SOAK updates), kill -9 during acknowledged inserts (time to listen
// again, inserts lost) and the data file against the data's size. The engine is BENCH_ENGINE_JAR
// (default the launcher this tree builds). Seeded directories are kept under /tmp keyed by size and
// jar, so a rerun does not seed again. BENCH_UPGRADE_FROM=<seeded directory written by another jar>
// instead times the first open of that directory by this jar (once) and the open after it.
// Everything runs at lower priority (nice 10) on loopback; every wait is bounded.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import {
  benchAssessment, benchContact, benchDealers, call, dirBytes, freePort, LAUNCHER_JAR, liveHeapMiB, memoryMiB, ms,
  openEngine, pool, signInCookie, startApp, stopEngineCleanly, stopProcess, timed, upgradeData,
} from "./lib.mjs";

const { MongoClient, ObjectId, BSON } = mongoose.mongo;
const SIZES = (process.env.BENCH_SIZES ?? "50000,250000").split(",").map(Number);
const JAR = path.resolve(process.env.BENCH_ENGINE_JAR ?? LAUNCHER_JAR);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 20);
const HEAP_MB = Number(process.env.BENCH_HEAP_MB ?? 512);
// Seeding is not what is measured: a little more heap than the default for the bulk inserts, not so
// much that a full collection's pause outlasts the driver's check of the server (5 s).
const SEED_HEAP_MB = Number(process.env.BENCH_SEED_HEAP_MB ?? 1024);
const OPEN_LIMIT_MS = Number(process.env.BENCH_OPEN_LIMIT_S ?? 240) * 1000;
const SOAK = Number(process.env.BENCH_SOAK ?? 20_000);
const PASSWORD = "bench-dealer-1";
const DB = "damage_assess";
const MiB = 1024 * 1024;

os.setPriority(10);
const jarStamp = `${Math.round(statSync(JAR).mtimeMs)}-${statSync(JAR).size}`;
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");
const secs = (m) => (m === undefined ? "–" : `${(m / 1000).toFixed(1)} s`);
const mib = (b) => (b === undefined ? "–" : `${(b / MiB).toFixed(0)} MiB`);
const log = (line) => console.log(`embedded-db-scale: ${line}`);

/** Seeds (or finds in the cache) N assessments and N/4 contacts; answers the directory and its meta. */
async function seeded(size) {
  const cache = path.join(os.tmpdir(), `bench-embedded-db-scale-${size}-${ACCOUNTS}-${jarStamp}-upgraded`);
  if (existsSync(path.join(cache, "meta.json"))) return { cache, meta: JSON.parse(readFileSync(path.join(cache, "meta.json"), "utf8")) };
  rmSync(cache, { recursive: true, force: true });
  mkdirSync(path.join(cache, "db"), { recursive: true });
  const port = await freePort();
  const started = performance.now();
  const engine = await openEngine({ dir: path.join(cache, "db"), port, heapMb: SEED_HEAP_MB, jar: JAR, limitMs: 600_000 });
  if (!engine.proc) throw new Error(`the engine did not start for seeding: ${engine.exit}`);
  // A failed seed (its upgrade stopped) must not leave its engine running with the directory open.
  try {
    const mongoUri = `mongodb://127.0.0.1:${port}/${DB}`;
    // The app builds every model's indexes at start; the dealers are made over its API.
    const appPort = await freePort();
    const appDir = mkdtempSync(path.join(os.tmpdir(), "bench-eds-app-"));
    const { app } = await startApp({ port: appPort, dataDir: appDir, mongoUri });
    const { dealers } = await benchDealers(`http://127.0.0.1:${appPort}`, ACCOUNTS);
    await stopProcess(app);
    rmSync(appDir, { recursive: true, force: true });

    const client = await connect(port);
    const db = client.db(DB);
    const big = Math.round(size * 0.4);
    const perOther = Math.floor((size - big) / (ACCOUNTS - 1));
    const counts = dealers.map((_, d) => (d === 0 ? big : d === ACCOUNTS - 1 ? size - big - perOther * (ACCOUNTS - 2) : perOther));
    const now = new Date();
    let dataBytes = 0;
    const insert = async (collection, docs) => {
      for (const doc of docs) dataBytes += BSON.calculateObjectSize(doc);
      await db.collection(collection).insertMany(docs, { ordered: false });
    };
    for (const [d, ownerId] of dealers.entries()) {
      const contactIds = Array.from({ length: Math.max(1, Math.round(counts[d] / 4)) }, () => new ObjectId());
      for (let from = 0; from < contactIds.length; from += 1000) {
        await insert("contacts", contactIds.slice(from, from + 1000).map((_id, k) => benchContact(ownerId, from + k, _id)));
      }
      for (let from = 0; from < counts[d]; from += 1000) {
        await insert("assessments", Array.from({ length: Math.min(1000, counts[d] - from) }, (_, k) => benchAssessment(ownerId, from + k, { contactIds, now })));
      }
      if (d === 0) log(`seeding ${size}: the big dealer's ${big} in ${secs(performance.now() - started)}`);
    }
    const contacts = await db.collection("contacts").countDocuments({});
    await client.close();
    // What the app keeps as it writes (search index, dashboard counters), made once: the figures are a
    // dealership's steady state, not a first use of data from an older release.
    const upgraded = await upgradeData({ mongoUri });
    log(`seeding ${size}: upgrade-data in ${secs(upgraded.ms)}: ${upgraded.output.split("\n").slice(-3).join("; ")}`);
    const stopMs = await stopEngineCleanly(engine.proc);
    const meta = {
      size, contacts, big, accounts: ACCOUNTS, jar: JAR, seedMs: performance.now() - started, stopMs, upgradeMs: upgraded.ms,
      dataBytes, fileBytes: dirBytes(path.join(cache, "db")), dealer: dealers[0].toHexString(),
    };
    writeFileSync(path.join(cache, "meta.json"), JSON.stringify(meta, null, 2));
    log(`seeded ${size} assessments + ${contacts} contacts in ${secs(meta.seedMs)} (clean stop ${secs(stopMs)}): ${mib(meta.fileBytes)} on disk for ${mib(dataBytes)} of BSON → ${cache}`);
    return { cache, meta };
  } catch (error) {
    engine.proc.kill("SIGKILL");
    throw error;
  }
}

/** A copy of a seeded directory to measure on (the soak and the kill change it). */
function workCopy(from) {
  const work = mkdtempSync(path.join(os.tmpdir(), "bench-eds-run-"));
  cpSync(from, path.join(work, "db"), { recursive: true });
  return work;
}

const memory = (pid) => {
  const { rss, hwm } = memoryMiB(pid);
  return { rss, hwm, live: liveHeapMiB(pid) };
};

/** The built app on the restarted engine: its start, then the big dealer's first requests, then p50/p95 of more. */
async function firstRequests(mongoUri, work, enginePid) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const { app, startMs } = await startApp({ port, dataDir: path.join(work, "app"), mongoUri, timeoutMs: OPEN_LIMIT_MS });
  const errors = [];
  // A failed answer (a 503 while the engine is busy) is a figure too: its time and status are kept.
  const time = async (label, fn) => {
    const t = performance.now();
    const out = await fn().catch((error) => errors.push(`${label}: ${error.message.slice(0, 60)} after ${ms(performance.now() - t)}`));
    return [performance.now() - t, out];
  };
  const [signInMs, cookie] = await time("sign-in", () => signInCookie(base, "dealer0", PASSWORD));
  const list = () => call(base, "GET", "/api/assessments?limit=50", { cookie });
  const stats = () => call(base, "GET", "/api/dashboard/stats", { cookie });
  const [listMs] = await time("first list", list);
  const [statsMs] = await time("first dashboard", stats);
  const more = {};
  for (const [name, fn] of [["list", list], ["stats", stats]]) {
    more[name] = await timed(fn, { runs: 20, warmup: 0 }).catch((error) => (errors.push(`${name}: ${error.message.slice(0, 60)}`), { p50: NaN, p95: NaN }));
  }
  // The burst: 200 more at 8 connections, the two in turn.
  let failed = 0;
  await pool(200, 8, (i) => (i % 2 ? list() : stats()).catch(() => (failed += 1)));
  if (failed) errors.push(`burst: ${failed} of 200 failed`);
  const exported = await exportAccount(base, cookie, enginePid).catch((error) => (errors.push(`export: ${error.message.slice(0, 60)}`), undefined));
  return { app, startMs, signInMs, listMs, statsMs, more, errors, exported };
}

/** The big dealer's account export (Settings → System), read to the end: its time, size, the engine's peak RSS meanwhile, and /healthz after. */
async function exportAccount(base, cookie, enginePid) {
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, memoryMiB(enginePid).rss || 0)), 500);
  const started = performance.now();
  let bytes = 0;
  try {
    const res = await fetch(`${base}/api/account/export`, { headers: { Cookie: cookie }, signal: AbortSignal.timeout(OPEN_LIMIT_MS * 2) });
    for await (const chunk of res.body) bytes += chunk.length;
    return { status: res.status, ms: performance.now() - started, bytes, peakRss: peak, healthAfter: (await fetch(`${base}/healthz`)).status };
  } finally {
    clearInterval(sampler);
  }
}

/** `SOAK` updates of the big dealer's assessments at 8 connections; answers updates per second. */
async function soak(db, dealer) {
  const ids = (await db.collection("assessments").find({ ownerId: dealer }, { projection: { _id: 1 } }).limit(5000).toArray()).map((a) => a._id);
  const started = performance.now();
  await pool(SOAK, 8, (i) =>
    db.collection("assessments").updateOne({ _id: ids[(i * 7919) % ids.length] }, { $set: { updatedAt: new Date(), title: `Soaked ${i}` }, $inc: { revision: 1 } }),
  );
  return SOAK / ((performance.now() - started) / 1000);
}

/** kill -9 during a stream of acknowledged inserts, then the reopen: its time and the acknowledged inserts lost. */
async function killDuringInserts(engine, dir, port) {
  const client = await connect(port, 2000);
  const acknowledged = [];
  let stop = false;
  const crash = client.db(DB).collection("bench_kill_check");
  const writers = Array.from({ length: 4 }, async (_, w) => {
    for (let i = 0; !stop; i++) {
      const _id = `${w}-${i}`;
      try {
        await crash.insertOne({ _id, at: new Date() });
        acknowledged.push(_id);
      } catch {
        return; // the engine is gone
      }
    }
  });
  await new Promise((r) => setTimeout(r, 3000));
  engine.kill("SIGKILL");
  stop = true;
  await Promise.all(writers);
  await client.close(true).catch(() => {});
  const reopened = await openEngine({ dir, port, heapMb: HEAP_MB, jar: JAR, limitMs: OPEN_LIMIT_MS });
  if (!reopened.proc) return { reopened, acknowledged: acknowledged.length };
  const after = await connect(port);
  const kept = await after.db(DB).collection("bench_kill_check").countDocuments({ _id: { $in: acknowledged } });
  await after.close();
  return { reopened, acknowledged: acknowledged.length, lost: acknowledged.length - kept };
}

async function measure(size) {
  const loadBefore = load();
  const { cache, meta } = await seeded(size);
  const work = workCopy(path.join(cache, "db"));
  const dir = path.join(work, "db");
  const port = await freePort();
  const row = { size, contacts: meta.contacts, seedMs: meta.seedMs, dataBytes: meta.dataBytes, fileBytes: meta.fileBytes, loadBefore };
  let engine;
  try {
    const opened = await openEngine({ dir, port, heapMb: HEAP_MB, jar: JAR, limitMs: OPEN_LIMIT_MS });
    row.openMs = opened.openMs;
    row.progressLines = opened.progress.length;
    if (!opened.proc) {
      row.failed = `did not open within ${OPEN_LIMIT_MS / 1000} s (${opened.exit})`;
      return row;
    }
    engine = opened.proc;
    row.afterOpen = memory(engine.pid);
    const mongoUri = `mongodb://127.0.0.1:${port}/${DB}`;
    const first = await firstRequests(mongoUri, work, engine.pid);
    Object.assign(row, { appStartMs: first.startMs, signInMs: first.signInMs, listMs: first.listMs, statsMs: first.statsMs, more: first.more, errors: first.errors, exported: first.exported });
    row.afterBurst = memory(engine.pid);
    await stopProcess(first.app);
    const client = await connect(port);
    row.soakPerSecond = await soak(client.db(DB), new ObjectId(meta.dealer));
    row.fileAfterSoak = dirBytes(dir);
    await client.close();
    const killed = await killDuringInserts(engine, dir, port);
    engine = killed.reopened.proc;
    Object.assign(row, { recoveryMs: killed.reopened.openMs, acknowledged: killed.acknowledged, lost: killed.lost });
    if (!engine) row.failed = `after kill -9: did not open within ${OPEN_LIMIT_MS / 1000} s (${killed.reopened.exit})`;
    else row.afterRecovery = memoryMiB(engine.pid);
    return row;
  } catch (error) {
    // What was measured before the failure stays in the row.
    row.failed = error.message.split("\n")[0];
    return row;
  } finally {
    if (engine) await stopEngineCleanly(engine);
    if (row.fileAfterSoak) row.fileAfterSoakStopped = dirBytes(dir);
    row.loadAfter = load();
    rmSync(work, { recursive: true, force: true });
  }
}

/** The first open of a directory another jar wrote (persisted indexes built once), then the open after it. */
async function upgrade(from) {
  const work = workCopy(from);
  const dir = path.join(work, "db");
  const port = await freePort();
  try {
    const first = await openEngine({ dir, port, heapMb: HEAP_MB, jar: JAR, limitMs: 900_000 });
    if (!first.proc) return log(`upgrade of ${from}: did not open within 900 s (${first.exit})`);
    for (const p of first.progress.filter((_, i, all) => i % 10 === 0 || i === all.length - 1)) log(`  ${secs(p.atMs)} ${p.text}`);
    const stopMs = await stopEngineCleanly(first.proc);
    const second = await openEngine({ dir, port, heapMb: HEAP_MB, jar: JAR, limitMs: OPEN_LIMIT_MS });
    if (second.proc) await stopEngineCleanly(second.proc);
    log(`upgrade of ${from} (${mib(dirBytes(from))}) by ${JAR}: first open ${secs(first.openMs)} (${first.progress.length} progress lines), clean stop ${secs(stopMs)}, next open ${second.proc ? secs(second.openMs) : `failed: ${second.exit}`}; ${mib(dirBytes(dir))} after (load ${load()})`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** A driver client; the kill's writers give up on the gone engine after `timeoutMs`. */
const connect = (port, timeoutMs = 120_000) =>
  new MongoClient(`mongodb://127.0.0.1:${port}/`, { serverSelectionTimeoutMS: timeoutMs, socketTimeoutMS: 0 }).connect();
const mem = (m) => (m ? `${m.rss.toFixed(0)} / ${m.hwm.toFixed(0)} MiB${m.live === undefined ? "" : `, live ${m.live.toFixed(0)} MiB`}` : "–");

try {
  log(`engine ${JAR} (${jarStamp}), heap ${HEAP_MB} MiB, ${ACCOUNTS} dealers (one with 40 %), ${os.cpus().length} CPUs, load ${load()}`);
  if (process.env.BENCH_UPGRADE_FROM) await upgrade(path.resolve(process.env.BENCH_UPGRADE_FROM));
  else {
    const rows = [];
    for (const size of SIZES) {
      const row = await measure(size).catch((error) => ({ size, contacts: 0, failed: error.message.split("\n")[0] }));
      rows.push(row);
      log(JSON.stringify(row));
    }
    console.log(`| assessments + contacts | seed | data / file after seed | open (${HEAP_MB} MiB heap) | RSS / peak, live heap after open | after a burst | app ready | first sign-in, list, dashboard | list p50 / p95 | dashboard p50 / p95 | soak updates/s | file after soak (stopped) | kill -9 → listening | acknowledged lost | load before → after |`);
    console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (const r of rows) {
      const m = r.more;
      console.log(
        `| ${r.size.toLocaleString("en")} + ${r.contacts.toLocaleString("en")} | ${secs(r.seedMs)} | ${mib(r.dataBytes)} / ${mib(r.fileBytes)} | ${r.openMs === undefined ? r.failed : secs(r.openMs)} | ${mem(r.afterOpen)} | ${mem(r.afterBurst)} | ${secs(r.appStartMs)} | ${r.signInMs === undefined ? "–" : `${ms(r.signInMs)}, ${ms(r.listMs)}, ${ms(r.statsMs)}`} | ${m ? `${ms(m.list.p50)} / ${ms(m.list.p95)}` : "–"} | ${m ? `${ms(m.stats.p50)} / ${ms(m.stats.p95)}` : "–"} | ${r.soakPerSecond?.toFixed(0) ?? "–"} | ${r.fileAfterSoak ? `${mib(r.fileAfterSoak)} (${mib(r.fileAfterSoakStopped)})` : "–"} | ${r.recoveryMs === undefined ? (r.acknowledged === undefined ? "–" : "did not open") : secs(r.recoveryMs)} | ${r.lost === undefined ? "–" : `${r.lost} of ${r.acknowledged}`} | ${r.loadBefore} → ${r.loadAfter} |`,
      );
      if (r.failed && r.openMs !== undefined) log(`${r.size}: ${r.failed}`);
      if (r.errors?.length) log(`${r.size}: ${r.errors.join("; ")}`);
    }
  }
} catch (error) {
  console.error(`embedded-db-scale: ${error.stack ?? error.message}`);
  process.exitCode = 1;
}
