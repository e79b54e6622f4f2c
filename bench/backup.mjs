// `npm run backup` and `npm run restore` at a dealership's size (issue 41 item 1, docs/decisions/0066):
// per N (BENCH_SIZES, default "10000"; the are 10000,50000) the data of bench/scale-requests.mjs
// (N assessments for dealer0, N for each of four others, N/4 contacts each; its kept seed under
// BENCH_SEED_DIR, the upgraded copy when there is one, else seeded here), plus one photo of
// BENCH_PHOTO_KB (16) random bytes for each of dealer0's assessments, served by the app as `npm start`
// runs it. Then a backup while a client writes 10 contacts a second (each write's latency: the
// snapshot holds writes while it copies the file), and a restore of that archive into an empty
// DATA_DIR with its verification. Prints time, size and the writes' latencies.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import { call, dirBytes, freePort, percentile, root, signInCookie, startApp, stopProcess } from "./lib.mjs";

const { MongoClient, ObjectId } = mongoose.mongo;
const SIZES = (process.env.BENCH_SIZES ?? "10000").split(",").map(Number);
const SEED_DIR = process.env.BENCH_SEED_DIR ?? os.tmpdir();
const PHOTO_BYTES = Number(process.env.BENCH_PHOTO_KB ?? 16) * 1024;
const PASSPHRASE = "bench backup passphrase";
const log = (line) => console.log(`backup: ${line}`);
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");
const mib = (b) => `${(b / 1048576).toFixed(0)} MiB`;

/** Runs one of our scripts with the app's environment; answers its output, exit code and time. */
function script(name, args, env) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, "scripts", name), ...args], {
      cwd: root,
      env: { ...process.env, MONGODB_URI: "", BACKUP_PASSPHRASE: PASSPHRASE, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("close", (code) => resolve({ code, output, ms: performance.now() - started }));
  });
}

/** The seeded directory of scale-requests for `size` (its upgraded copy when kept), seeding it when missing. */
async function seed(size) {
  const dir = path.join(SEED_DIR, `bench-scale-requests-${size}`);
  if (!existsSync(path.join(dir, "meta.json"))) {
    const res = await new Promise((resolve) => spawn(process.execPath, [path.join(root, "bench/scale-requests.mjs"), "--seed", String(size), dir], { stdio: "inherit" }).on("close", resolve));
    if (res !== 0) throw new Error(`seeding ${size} failed`);
  }
  return existsSync(path.join(dir, "upgraded")) ? path.join(dir, "upgraded") : path.join(dir, "app");
}

/** One photo per dealer0 assessment: its upload record (with the driver) and its object's bytes. */
async function addPhotos(dataDir) {
  const port = readFileSync(path.join(dataDir, "db", "port"), "utf8").trim();
  const client = await new MongoClient(`mongodb://127.0.0.1:${port}/`).connect();
  const db = client.db("damage_assess");
  const dealer = await db.collection("users").findOne({ username: "dealer0" });
  let count = 0;
  let batch = [];
  const flush = async () => {
    if (batch.length) await db.collection("uploads").insertMany(batch, { ordered: false });
    batch = [];
  };
  for await (const a of db.collection("assessments").find({ ownerId: dealer._id }, { projection: { _id: 1 } })) {
    const _id = new ObjectId();
    const key = `uploads/${dealer._id}/${_id}/photo.jpg`;
    const file = path.join(dataDir, "objects", key);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), randomBytes(PHOTO_BYTES - 3)]));
    const now = new Date();
    batch.push({ _id, ownerId: dealer._id, key, originalName: "photo.jpg", contentType: "image/jpeg", size: PHOTO_BYTES, state: "complete", purpose: "wizard", draft: false, assessmentId: a._id, completedAt: now, createdAt: now, updatedAt: now });
    count += 1;
    if (batch.length === 1000) await flush();
  }
  await flush();
  await client.close();
  return count;
}

async function measure(size) {
  const work = mkdtempSync(path.join(SEED_DIR, "bench-backup-"));
  const dataDir = path.join(work, "app");
  const row = { size, loadBefore: load() };
  let app;
  try {
    cpSync(await seed(size), dataDir, { recursive: true });
    const port = await freePort();
    ({ app } = await startApp({ port, dataDir, timeoutMs: 600_000 }));
    const base = `http://127.0.0.1:${port}`;
    row.photos = await addPhotos(dataDir);
    row.dataBytes = dirBytes(path.join(dataDir, "db")) + dirBytes(path.join(dataDir, "objects"));
    log(`${size}: ${row.photos} photos added; ${mib(row.dataBytes)} of database and objects`);
    const cookie = await signInCookie(base, "dealer0", "bench-dealer-1");
    // 10 writes a second while the backup runs, each timed.
    const latencies = [];
    let writing = true;
    let failed = 0;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        const started = performance.now();
        await call(base, "POST", "/api/contacts", { cookie, body: { firstName: "During", lastName: `Backup ${i}`, email: `during${i}@example.com` } }).catch(() => failed++);
        latencies.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, Math.max(0, 100 - (performance.now() - started))));
      }
    })();
    const target = path.join(work, "backups");
    const backup = await script("backup.mjs", [], { DATA_DIR: dataDir, BACKUP_TARGET: target });
    writing = false;
    await writer;
    if (backup.code !== 0) throw new Error(`backup failed: ${backup.output}`);
    const archive = path.join(target, readdirSync(target).find((f) => f.endsWith(".age")));
    latencies.sort((a, b) => a - b);
    Object.assign(row, {
      backupMs: backup.ms,
      pauseMs: Number(/writes waited (\d+) ms/.exec(backup.output)?.[1]),
      archiveBytes: statSync(archive).size,
      writes: latencies.length,
      writeP50: percentile(latencies, 50),
      writeP99: percentile(latencies, 99),
      writeMax: latencies.at(-1),
      writesFailed: failed,
    });
    await stopProcess(app);
    app = undefined;
    const restored = path.join(work, "restored");
    const restore = await script("restore.mjs", [archive], { DATA_DIR: restored });
    if (restore.code !== 0) throw new Error(`restore failed: ${restore.output}`);
    row.restoreMs = restore.ms;
    row.verified = /restore: succeeded: (.*); verified\./.exec(restore.output)?.[1];
  } catch (error) {
    row.failed = error.message.split("\n").slice(0, 4).join(" / ");
  } finally {
    if (app) await stopProcess(app);
    rmSync(work, { recursive: true, force: true });
    row.loadAfter = load();
  }
  return row;
}

log(`${os.cpus().length} CPUs, load ${load()}, sizes ${SIZES.join(", ")}, photos of ${PHOTO_BYTES / 1024} KiB`);
const rows = [];
for (const size of SIZES) {
  const row = await measure(size);
  log(JSON.stringify(row));
  rows.push(row);
}
const f = (v) => (v === undefined || Number.isNaN(v) ? "–" : v >= 100 ? v.toFixed(0) : v.toFixed(1));
console.log(`\n| N (dealer0's assessments, 5×N in all) | ${rows.map((r) => r.size.toLocaleString("en")).join(" | ")} |`);
console.log(`|---|${rows.map(() => "---").join("|")}|`);
const line = (label, fn) => console.log(`| ${label} | ${rows.map((r) => (r.failed ? "failed" : fn(r))).join(" | ")} |`);
line("photos; database and objects on disk", (r) => `${r.photos}; ${mib(r.dataBytes)}`);
line("`npm run backup` (while serving), archive", (r) => `${f(r.backupMs / 1000)} s, ${mib(r.archiveBytes)}`);
line("writes held by the snapshot", (r) => `${f(r.pauseMs)} ms`);
line("10 writes/s during it: p50 / p99 / max; failed", (r) => `${f(r.writeP50)} / ${f(r.writeP99)} / ${f(r.writeMax)} ms (${r.writes}); ${r.writesFailed}`);
line("`npm run restore` (with its verification)", (r) => `${f(r.restoreMs / 1000)} s`);
line("load before → after", (r) => `${r.loadBefore} → ${r.loadAfter}`);
for (const r of rows) if (r.failed) log(`${r.size}: FAILED ${r.failed}`);
for (const r of rows) if (r.verified) log(`${r.size}: restored ${r.verified}`);
if (rows.some((r) => r.failed)) process.exitCode = 1;
