// Every request of issue 43's table at a dealer's history of N assessments (BENCH_SIZES, default
// "1000"; the issue's are 1000,10000,50000,200000), on the embedded default as `npm start` runs it:
// the built app starts its own engine (EMBEDDED_DB_HEAP unset: 512 MiB) on a data directory.
// After the first use of the seeded data is timed, scripts/upgrade-data.mjs finishes what it started
// (search index, counters), so the rest is a dealership's steady state.
// Per N it seeds, once, N assessments for dealer0 and N for each of four other dealers, with a
// quarter as many contacts per dealer (bench/lib.mjs's shapes, with the driver; niced from 200,000
// documents, N = 32,000); the
// directory is kept under BENCH_SEED_DIR (default the system's temporary directory) by N and reused,
// also by another tree (a branch's "after" figures on the same data). Each run works on a copy.
// Then, not niced: the first request after a restart (cold: the app and its engine restarted, the
// files in the OS's cache) for `/` and for `/estimates`; every request warm at one connection
// (BENCH_RUNS after 5 unmeasured; p50 / p95) and at 8 connections for BENCH_BURST_S seconds
// (pages/s); then the engine's heap live after a full collection (jcmd) and its resident memory,
// and the database's bytes on disk. Screens that page by a cursor and an API `cursor` are detected
// and measured beside `page` and `offset`. Loopback only; every wait is bounded.
// The upgraded directory is kept beside the seed (`upgraded/`, with its first-use and upgrade
// figures) and reused by later runs, so that BENCH_PREPARE=1 (seed, first use and upgrade only) can
// run on a shared machine and the measuring run, minutes long, on a quiet one.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import mongoose from "mongoose";
import {
  benchAssessment, benchContact, benchDealers, call, childPids, dirBytes, freePort, liveHeapMiB, memoryMiB, percentile, root,
  signInCookie, startApp, stopProcess, timed, upgradeData,
} from "./lib.mjs";

const { MongoClient, ObjectId } = mongoose.mongo;
const SIZES = (process.env.BENCH_SIZES ?? "1000").split(",").map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const BURST_MS = Number(process.env.BENCH_BURST_S ?? 5) * 1000;
const SEED_DIR = process.env.BENCH_SEED_DIR ?? os.tmpdir();
const START_LIMIT_MS = 600_000;
const PASSWORD = "bench-dealer-1";
const DB = "damage_assess";
const self = fileURLToPath(import.meta.url);
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");
const log = (line) => console.log(`scale-requests: ${line}`);
const seedPath = (size) => path.join(SEED_DIR, `bench-scale-requests-${size}`);
const PREPARE = process.env.BENCH_PREPARE === "1";

/** The engine the app started (its java child), or undefined. */
const enginePid = (appPid) => childPids(appPid).find((pid) => readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "java");

/** Stops the app and waits for its engine to be gone (the next start opens the same files). */
async function stopApp(app) {
  const engine = enginePid(app.pid);
  await stopProcess(app);
  for (let i = 0; engine && existsSync(`/proc/${engine}`) && i < 600; i++) await new Promise((r) => setTimeout(r, 100));
}

/** `--seed N` (run by the parent, niced when large): the app on a new data directory, its dealers, then the documents with the driver. */
async function seed(size, dir) {
  const started = performance.now();
  const dataDir = path.join(dir, "app");
  mkdirSync(dataDir, { recursive: true });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // Started here, the app and its engine inherit this process's niceness.
  const { app } = await startApp({ port, dataDir, timeoutMs: START_LIMIT_MS });
  let dealer;
  try {
    dealer = await seedDocuments(size, base, dataDir, started);
  } finally {
    await stopApp(app);
  }
  const meta = { size, seedMs: performance.now() - started, dealer, fileBytes: dirBytes(path.join(dataDir, "db")), load: load() };
  writeFileSync(path.join(dir, "meta.json"), JSON.stringify(meta, null, 2));
}

/** dealer0 and four other dealers over the API, then their contacts and assessments; answers dealer0's id. */
async function seedDocuments(size, base, dataDir, started) {
  const { dealers } = await benchDealers(base, 5);
  const enginePort = readFileSync(path.join(dataDir, "db", "port"), "utf8").trim();
  // Patient: on a loaded machine the niced engine may not answer a heartbeat for a while.
  const client = await new MongoClient(`mongodb://127.0.0.1:${enginePort}/`, { serverSelectionTimeoutMS: 600_000, connectTimeoutMS: 300_000, socketTimeoutMS: 0 }).connect();
  const db = client.db(DB);
  const now = new Date();
  // A batch cut by a timeout is sent again: the driver gave its documents their _id, so what was
  // inserted the first time is refused as a duplicate (11000) and only the rest goes in.
  const insert = async (collection, docs) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await db.collection(collection).insertMany(docs, { ordered: false });
      } catch (error) {
        if (error.writeErrors?.length && error.writeErrors.every((e) => e.code === 11000)) return;
        if (attempt === 5) throw error;
        log(`seeding ${size}: ${collection} batch sent again (${error.message.slice(0, 80)})`);
      }
    }
  };
  for (const [d, ownerId] of dealers.entries()) {
    const contactIds = Array.from({ length: Math.max(1, Math.round(size / 4)) }, () => new ObjectId());
    for (let from = 0; from < contactIds.length; from += 1000) {
      await insert("contacts", contactIds.slice(from, from + 1000).map((_id, k) => benchContact(ownerId, from + k, _id)));
    }
    for (let from = 0; from < size; from += 1000) {
      await insert("assessments", Array.from({ length: Math.min(1000, size - from) }, (_, k) => benchAssessment(ownerId, from + k, { contactIds, now })));
    }
    log(`seeding ${size}: dealer${d} done at ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  await client.close();
  return dealers[0].toHexString();
}

/** The seeded directory of `size` (seeding it first when there is none). */
function seeded(size) {
  const dir = seedPath(size);
  if (!existsSync(path.join(dir, "meta.json"))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    // 200,000 documents and more are seeded at lower priority (a shared machine's other work first).
    const niceness = size * 5 * 1.25 >= 200_000 ? ["nice", "-n10"] : [];
    const [command, ...args] = [...niceness, process.execPath, self, "--seed", String(size), dir];
    const res = spawnSync(command, args, { stdio: "inherit" });
    if (res.status !== 0) throw new Error(`seeding ${size} failed`);
  }
  return { dir, meta: JSON.parse(readFileSync(path.join(dir, "meta.json"), "utf8")) };
}

async function start(dataDir) {
  const started = performance.now();
  const port = await freePort();
  const { app } = await startApp({ port, dataDir, timeoutMs: START_LIMIT_MS });
  const base = `http://127.0.0.1:${port}`;
  // Ready when every worker is: /healthz 200 four times in a row (the cluster hands requests out in turn).
  for (let ok = 0, i = 0; ok < 4 && i < 6000; i++) {
    ok = (await fetch(`${base}/healthz`).then((r) => r.status, () => 0)) === 200 ? ok + 1 : 0;
    if (ok === 0) await new Promise((r) => setTimeout(r, 100));
  }
  return { app, startMs: performance.now() - started, base };
}

/** Answers of 400 or more per URL (a 503 when a query outlasts the app's limit is a figure too). */
const failures = new Map();

/** One call's time in ms, whatever its answer (a failed one is counted in `failures`). */
async function once(base, url, cookie) {
  const t = performance.now();
  await call(base, "GET", url, { cookie }).catch((error) => failures.set(url, [...(failures.get(url) ?? []), error.message.slice(0, 40)]));
  return performance.now() - t;
}

/** Pages per second and p95 at 8 connections for BURST_MS (at least 16 requests). */
async function burst(base, url, cookie) {
  const times = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (performance.now() - started < BURST_MS || times.length < 16) times.push(await once(base, url, cookie));
    }),
  );
  times.sort((a, b) => a - b);
  return { rate: times.length / ((performance.now() - started) / 1000), p95: percentile(times, 95) };
}

/** The hrefs of a page's links whose query names `param`. */
const linksWith = (html, param) => [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1].replaceAll("&amp;", "&")).filter((h) => new RegExp(`[?&]${param}=`).test(h));

/** The URLs of issue 43's table for this data: a VIN of one estimate, the last page, a deep offset, a detail. */
async function requests(base, cookie, size) {
  const screen = JSON.parse((await call(base, "GET", "/estimates?_data=routes%2F_app.estimates", { cookie })).text);
  const vin = `1HGCM8263${String(Math.floor(size / 2)).padStart(8, "0")}`;
  const completed = JSON.parse((await call(base, "GET", "/api/assessments?status=completed&limit=1", { cookie })).text);
  const id = (Array.isArray(completed) ? completed : (completed.items ?? completed.assessments ?? completed.data))[0].id;
  const list = [
    ["/", "/"],
    ["/api/dashboard/stats", "/api/dashboard/stats"],
    ["/estimates?q=<VIN of one>", `/estimates?q=${vin}`],
  ];
  if (screen.pageCount) list.push(["/estimates?page=<last>", `/estimates?page=${screen.pageCount}`]);
  // A screen that pages by a cursor: its link to the oldest page, else the older page's.
  const html = (await call(base, "GET", "/estimates", { cookie })).text;
  for (const param of ["cursor", "after", "before"]) {
    const [older] = linksWith(html, param).slice(-1);
    if (older) list.push([`/estimates by ${param} (a link it renders)`, older]);
  }
  list.push(["/api/assessments?limit=50&offset=<N−50>", `/api/assessments?limit=50&offset=${size - 50}`]);
  // The API's cursor: a Link header's next page, or a cursor beside the items.
  const { res, text } = await call(base, "GET", "/api/assessments?limit=50", { cookie });
  const body = JSON.parse(text);
  const linkNext = /<([^>]+)>;\s*rel="?next"?/.exec(res.headers.get("link") ?? "")?.[1];
  const next = Array.isArray(body) ? undefined : body.nextCursor ?? body.next_cursor ?? body.cursor;
  if (linkNext) list.push(["/api/assessments: the Link header's next page", linkNext.replace(/^https?:\/\/[^/]+/, "")]);
  else if (typeof next === "string") list.push(["/api/assessments?limit=50&cursor=<next>", `/api/assessments?limit=50&cursor=${encodeURIComponent(next)}`]);
  list.push(
    ["/estimates", "/estimates"],
    ["/estimates?q=camry", "/estimates?q=camry"],
    ["/estimates?status=completed", "/estimates?status=completed"],
    ["detail (/estimates?view=<id>)", `/estimates?view=${id}`],
    ["detail (/api/assessments/<id>)", `/api/assessments/${id}`],
    ["PDF", `/api/assessments/${id}/estimate.pdf`],
    ["first API page (limit=50)", "/api/assessments?limit=50"],
  );
  return { list, matched: screen.summary?.total, pageCount: screen.pageCount };
}

async function measure(size) {
  const { dir, meta } = seeded(size);
  const upgradedDir = path.join(dir, "upgraded");
  const upgradedMeta = path.join(dir, "upgraded.json");
  const reuse = existsSync(upgradedMeta);
  const work = mkdtempSync(path.join(SEED_DIR, "bench-scale-requests-run-"));
  const dataDir = path.join(work, "app");
  cpSync(reuse ? upgradedDir : path.join(dir, "app"), dataDir, { recursive: true });
  const row = { size, seedMs: meta.seedMs, seedFileBytes: meta.fileBytes, loadBefore: load(), commit: gitHead() };
  let app;
  try {
    // Signed in once: the session outlives the restarts, so the first request after each is the page.
    let s;
    let cookie;
    if (reuse) {
      // The first use and the upgrade as the run that prepared this directory measured them.
      const prepared = JSON.parse(readFileSync(upgradedMeta, "utf8"));
      Object.assign(row, { firstUse: prepared.firstUse, upgradeMs: prepared.upgradeMs, prepared: `${prepared.commit}, load ${prepared.loadBefore} → ${prepared.loadAfter}` });
      s = await start(dataDir);
      app = s.app;
      row.firstStartMs = s.startMs;
      cookie = await signInCookie(s.base, "dealer0", PASSWORD);
    } else {
      s = await start(dataDir);
      app = s.app;
      row.firstStartMs = s.startMs;
      cookie = await signInCookie(s.base, "dealer0", PASSWORD);
      // The first use of data written with the driver (a figure or an index a version builds once, lazily).
      row.firstUse = { dashboardMs: await once(s.base, "/", cookie), searchMs: await once(s.base, "/estimates?q=camry", cookie) };
      row.firstUse.failed = [...failures.values()].flat();
      failures.clear();
      // Then what the first use started, done whole as an operator does after a restore
      // (scripts/upgrade-data.mjs beside the running app): the figures below are the steady state.
      row.upgradeMs = (await upgradeData({ dataDir })).ms;
      await stopApp(app);
      app = undefined;
      rmSync(upgradedDir, { recursive: true, force: true });
      cpSync(dataDir, upgradedDir, { recursive: true });
      writeFileSync(upgradedMeta, JSON.stringify({ firstUse: row.firstUse, upgradeMs: row.upgradeMs, commit: row.commit, loadBefore: row.loadBefore, loadAfter: load() }, null, 2));
      if (PREPARE) return row;
    }
    for (const url of ["/", "/estimates"]) {
      if (app) await stopApp(app);
      s = await start(dataDir);
      app = s.app;
      row[`cold ${url}`] = { readyMs: s.startMs, firstMs: await once(s.base, url, cookie), failed: failures.get(url) };
      failures.clear();
    }
    const { list, matched, pageCount } = await requests(s.base, cookie, size);
    Object.assign(row, { matched, pageCount, requests: [] });
    for (const [label, url] of list) {
      const one = await timed(() => once(s.base, url, cookie), { runs: RUNS, warmup: 5 });
      const eight = await burst(s.base, url, cookie);
      row.requests.push({ label, url, p50: one.p50, p95: one.p95, rate: eight.rate, p95at8: eight.p95, failed: failures.get(url)?.length ?? 0 });
      failures.delete(url);
      log(`${size}: ${label}: ${one.p50.toFixed(1)} / ${one.p95.toFixed(1)} ms, ${eight.rate.toFixed(1)} pages/s at 8 (p95 ${eight.p95.toFixed(0)} ms)`);
    }
    const engine = enginePid(app.pid);
    row.engine = { ...memoryMiB(engine), live: liveHeapMiB(engine) };
    row.dbBytes = dirBytes(path.join(dataDir, "db"));
  } catch (error) {
    row.failed = error.message.split("\n").slice(0, 3).join(" / ");
  } finally {
    if (app) await stopApp(app);
    rmSync(work, { recursive: true, force: true });
    row.loadAfter = load();
  }
  return row;
}

function gitHead() {
  try {
    return execFileSync("git", ["-C", root, "log", "-1", "--format=%h %s"], { encoding: "utf8" }).trim().slice(0, 80);
  } catch {
    return "?";
  }
}

const f = (v) => (v === undefined || Number.isNaN(v) ? "–" : v >= 100 ? v.toFixed(0) : v.toFixed(1));
const mib = (b) => (b === undefined ? "–" : `${(b / 1024 / 1024).toFixed(0)} MiB`);

function print(rows) {
  const sizes = rows.map((r) => r.size.toLocaleString("en"));
  console.log(`\nscale-requests: ${rows[0]?.commit}; one dealer with N assessments beside 4×N of four others, N/4 contacts each; ms p50 / p95 at one connection (pages/s at 8)`);
  console.log(`| request | ${sizes.map((s) => `N = ${s}`).join(" | ")} |`);
  console.log(`|---|${rows.map(() => "---").join("|")}|`);
  const labels = [...new Set(rows.flatMap((r) => (r.requests ?? []).map((q) => q.label)))];
  for (const label of labels) {
    const cells = rows.map((r) => {
      const q = r.requests?.find((x) => x.label === label);
      return q ? `${f(q.p50)} / ${f(q.p95)} (${f(q.rate)}/s)${q.failed ? `, ${q.failed} failed` : ""}` : "–";
    });
    console.log(`| ${label} | ${cells.join(" | ")} |`);
  }
  const cell = (fn) => rows.map((r) => { try { return fn(r); } catch { return "–"; } }).join(" | ");
  console.log(`| first use after seeding: \`/\`, \`/estimates?q=camry\` | ${cell((r) => `${f(r.firstUse.dashboardMs)} ms, ${f(r.firstUse.searchMs)} ms`)} |`);
  console.log(`| then \`scripts/upgrade-data.mjs\` (search index, counters of every account) | ${cell((r) => `${f(r.upgradeMs / 1000)} s`)} |`);
  for (const r of rows) if (r.prepared) log(`${r.size}: first use and upgrade as measured when prepared (${r.prepared})`);
  console.log(`| cold: ready, then first \`/\` | ${cell((r) => `${f(r["cold /"].readyMs / 1000)} s, ${f(r["cold /"].firstMs)} ms`)} |`);
  console.log(`| cold: ready, then first \`/estimates\` | ${cell((r) => `${f(r["cold /estimates"].readyMs / 1000)} s, ${f(r["cold /estimates"].firstMs)} ms`)} |`);
  console.log(`| engine: live heap after full GC; RSS (peak) | ${cell((r) => `${f(r.engine.live)} MiB; ${f(r.engine.rss)} (${f(r.engine.hwm)}) MiB`)} |`);
  console.log(`| database on disk: seeded, after the run | ${cell((r) => `${mib(r.seedFileBytes)}, ${mib(r.dbBytes)}`)} |`);
  console.log(`| seeding (niced from 200,000 documents) | ${cell((r) => `${f(r.seedMs / 1000)} s`)} |`);
  console.log(`| load before → after | ${cell((r) => `${r.loadBefore} → ${r.loadAfter}`)} |`);
  for (const r of rows) if (r.failed) log(`${r.size}: FAILED ${r.failed}`);
}

if (process.argv[2] === "--seed") await seed(Number(process.argv[3]), process.argv[4]);
else {
  log(`${os.cpus().length} CPUs, load ${load()}, sizes ${SIZES.join(", ")}, ${RUNS} runs, ${BURST_MS / 1000} s at 8 connections`);
  delete process.env.MONGODB_URI;
  delete process.env.EMBEDDED_DB_HEAP;
  const rows = [];
  for (const size of SIZES) {
    const row = await measure(size).catch((error) => ({ size, failed: error.message.split("\n")[0] }));
    log(JSON.stringify(row));
    rows.push(row);
  }
  if (!PREPARE) print(rows);
  if (rows.some((r) => r.failed)) process.exitCode = 1;
}
