// The embedded engine's file against the data it holds, as it runs (issue 41 item 3, issue 38 item 4;
// docs/decisions/0047): BENCH_SEED (default 10,000) assessments inserted, then BENCH_WRITES (default
// 100,000) writes of tests/engine-write-mix.mjs (inserts, updates growing and shrinking documents,
// small updates, deletes) at 8 connections. At 0, 25 %, 50 % and 100 % of the writes (none in
// flight) it reads the data file's size, stops the engine cleanly, measures "the data" (a full
// offline compaction of a copy of the file, tests/engine-write-mix.mjs's compactedBytes) and starts
// it again (the file read at the last acknowledged write and again BENCH_REST_MS, default 10 s, later:
// the store at rest compacts harder). Prints the curve file / data and every phase's write latency p50 / p99 / max.
// BENCH_ENGINE_JAR picks the launcher (compare main's). Engine at nice 19.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import { freePort, LAUNCHER_JAR, openEngine, stopEngineCleanly } from "./lib.mjs";
import { compactedBytes, lostWrites, percentile, writeMix } from "../tests/engine-write-mix.mjs";

const { MongoClient } = mongoose.mongo;
const JAR = path.resolve(process.env.BENCH_ENGINE_JAR ?? LAUNCHER_JAR);
const WRITES = Number(process.env.BENCH_WRITES ?? 100_000);
const SEED = Number(process.env.BENCH_SEED ?? 10_000);
// The file is read at the last acknowledged write and again after this long at rest (tests/engine-write-mix.mjs).
const REST_MS = Number(process.env.BENCH_REST_MS ?? 10_000);
const MiB = 1024 * 1024;
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");
const log = (line) => console.log(`embedded-db-compaction: ${line}`);

os.setPriority(19);
const dir = mkdtempSync(path.join(os.tmpdir(), "bench-compaction-"));
const dbDir = path.join(dir, "db");
const port = await freePort();
const open = async () => {
  const engine = await openEngine({ dir: dbDir, port, jar: JAR, niceness: 19 });
  if (!engine.proc) throw new Error(`the engine did not open: ${engine.exit}`);
  const client = await new MongoClient(`mongodb://127.0.0.1:${port}/`, { serverSelectionTimeoutMS: 60_000 }).connect();
  return { engine: engine.proc, client, collection: client.db("damage_assess").collection("assessments") };
};
let running;
const rows = [];
let phaseStart = 0;
const latencies = [];
try {
  log(`engine ${JAR}, ${SEED} seeded then ${WRITES} writes at 8 connections, ${os.cpus().length} CPUs, load ${load()}`);
  running = await open();
  const started = performance.now();
  const point = async (done) => {
    const fileBytes = statSync(path.join(dbDir, "damageiq.mv.db")).size;
    await new Promise((r) => setTimeout(r, REST_MS));
    const restedBytes = statSync(path.join(dbDir, "damageiq.mv.db")).size;
    const phase = latencies.slice(phaseStart);
    phaseStart = latencies.length;
    await running.client.close();
    await stopEngineCleanly(running.engine);
    const dataBytes = await compactedBytes(JAR, dbDir);
    const row = { done, fileBytes, restedBytes, dataBytes, ratio: fileBytes / dataBytes, restedRatio: restedBytes / dataBytes, atS: (performance.now() - started) / 1000, load: load() };
    if (phase.length) Object.assign(row, { p50: percentile(phase, 50), p99: percentile(phase, 99), max: Math.max(...phase) });
    rows.push(row);
    log(JSON.stringify(row));
    running = await open();
    // The mix keeps its collection object: the new client's answers the next calls.
    collectionProxy.target = running.collection;
  };
  const collectionProxy = { target: running.collection };
  const collection = new Proxy({}, { get: (_, name) => (...args) => collectionProxy.target[name](...args) });
  const mix = await writeMix(collection, {
    writes: WRITES, seed: SEED, checkpoints: [0, WRITES / 4, WRITES / 2].map(Math.round), checkpoint: point, latencies,
  });
  await point(WRITES);
  const { lost, extra, live } = await lostWrites(running.collection, mix.expected);
  log(`after a clean restart: ${live} documents, ${lost.length} acknowledged writes lost, ${extra.length} deleted documents back`);
  const all = mix.latencies;
  log(`all ${all.length} writes: p50 ${percentile(all, 50).toFixed(1)} ms, p99 ${percentile(all, 99).toFixed(1)} ms, max ${Math.max(...all).toFixed(0)} ms`);
  console.log(`| writes | data (full compaction) | file at the last write (/ data) | file ${REST_MS / 1000} s later (/ data) | writes p50 / p99 / max in the phase | load |`);
  console.log("|---|---|---|---|---|---|");
  for (const r of rows) {
    console.log(`| ${r.done.toLocaleString("en")} | ${(r.dataBytes / MiB).toFixed(1)} MiB | ${(r.fileBytes / MiB).toFixed(1)} MiB (${r.ratio.toFixed(2)}) | ${(r.restedBytes / MiB).toFixed(1)} MiB (${r.restedRatio.toFixed(2)}) | ${r.p50 === undefined ? "–" : `${r.p50.toFixed(1)} / ${r.p99.toFixed(1)} / ${r.max.toFixed(0)} ms`} | ${r.load} |`);
  }
} catch (error) {
  console.error(`embedded-db-compaction: ${error.stack ?? error.message}`);
  process.exitCode = 1;
} finally {
  await running?.client.close().catch(() => {});
  if (running) await stopEngineCleanly(running.engine);
  rmSync(dir, { recursive: true, force: true });
}
