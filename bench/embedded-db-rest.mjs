// An upgraded data directory's file at rest (issue 38 item 4): `scripts/upgrade-data.mjs` rewrites every
// document in one burst, and leaves a file 2.6–3.1× the seed. For each directory of BENCH_REST_DIRS
// (comma-separated; each holds `db/damageiq.mv.db`, e.g. a scale-requests seed's `upgraded/`), it
// copies the file, measures "the data" (a full offline compaction of another copy,
// tests/engine-write-mix.mjs's compactedBytes), opens the engine on the copy with the default heap and
// no client, and reads the file's size at each of BENCH_REST_AT seconds (default 0,30,60,120,300,600)
// while the store is at rest. Prints file / data at each point. Engine at nice 19.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, LAUNCHER_JAR, openEngine, stopEngineCleanly } from "./lib.mjs";
import { compactedBytes } from "../tests/engine-write-mix.mjs";

const DIRS = (process.env.BENCH_REST_DIRS ?? "").split(",").filter(Boolean);
const AT = (process.env.BENCH_REST_AT ?? "0,30,60,120,300,600").split(",").map(Number);
const JAR = path.resolve(process.env.BENCH_ENGINE_JAR ?? LAUNCHER_JAR);
const MiB = 1024 * 1024;
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");
const log = (line) => console.log(`embedded-db-rest: ${line}`);

if (DIRS.length === 0) {
  log("set BENCH_REST_DIRS to one or more data directories (each with db/damageiq.mv.db); nothing to measure");
  process.exit(0);
}
os.setPriority(19);
const rows = [];
for (const source of DIRS) {
  const work = mkdtempSync(path.join(os.tmpdir(), "bench-rest-"));
  try {
    const dbDir = path.join(work, "db");
    mkdirSync(dbDir);
    const file = path.join(dbDir, "damageiq.mv.db");
    copyFileSync(path.join(source, "db", "damageiq.mv.db"), file);
    const startBytes = statSync(file).size;
    const dataBytes = await compactedBytes(JAR, dbDir);
    log(`${source}: file ${(startBytes / MiB).toFixed(0)} MiB, data ${(dataBytes / MiB).toFixed(0)} MiB; opening (load ${load()})`);
    const opened = await openEngine({ dir: dbDir, port: await freePort(), jar: JAR, niceness: 19 });
    if (!opened.proc) throw new Error(`the engine did not open on ${source}: ${opened.exit}`);
    const started = performance.now();
    const sizes = [];
    for (const at of AT) {
      const wait = at * 1000 - (performance.now() - started);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const bytes = statSync(file).size;
      sizes.push(bytes);
      log(`${source} at ${at} s: ${(bytes / MiB).toFixed(0)} MiB (${(bytes / dataBytes).toFixed(2)}× the data), load ${load()}`);
    }
    await stopEngineCleanly(opened.proc);
    rows.push({ source, startBytes, dataBytes, sizes, closedBytes: statSync(file).size });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
console.log(`\n| directory | data (full compaction) | file as upgraded | ${AT.map((s) => `after ${s} s at rest`).join(" | ")} | after a clean stop |`);
console.log(`|---|---|---|${AT.map(() => "---").join("|")}|---|`);
const cell = (bytes, data) => `${(bytes / MiB).toFixed(0)} MiB (${(bytes / data).toFixed(2)})`;
for (const r of rows) {
  console.log(`| ${path.basename(path.dirname(r.source))} | ${(r.dataBytes / MiB).toFixed(0)} MiB | ${cell(r.startBytes, r.dataBytes)} | ${r.sizes.map((b) => cell(b, r.dataBytes)).join(" | ")} | ${cell(r.closedBytes, r.dataBytes)} |`);
}
