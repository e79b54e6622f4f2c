// Assessments at scale on the embedded database: one dealer with 10,000 assessments (and 2,000
// contacts, a third of the assessments naming one) beside four dealers with 10,000 each
// (ASSESSMENTS_BIG, ASSESSMENTS_OTHERS). Measures GET /api/assessments?limit=50 and
// GET /api/dashboard/stats at one connection and at 16. The built app (server.mjs) runs against an
// engine this script starts, so the documents can be seeded with the driver; loopback only, every
// loop bounded.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import {
  cpuSeconds,
  freePort,
  ms,
  percentile,
  pool,
  startApp,
  startEngine,
  stopProcess,
  timed,
  treeCpuSeconds,
  verdict,
} from "./lib.mjs";

const BIG = Number(process.env.ASSESSMENTS_BIG ?? 10_000);
const OTHERS = Number(process.env.ASSESSMENTS_OTHERS ?? 40_000);
const CONTACTS = 2_000;
const REQUESTS = Number(process.env.REQUESTS ?? 320);
const WARMUP = Number(process.env.WARMUP ?? 300);
const { MongoClient, ObjectId } = mongoose.mongo;

const STATUSES = ["uploaded", "processing", "analyzing", "completed", "reviewed", "sent"];
const VEHICLES = [["Toyota", "Camry"], ["Honda", "Civic"], ["Ford", "F-150"], ["Chevrolet", "Silverado"], ["Tesla", "Model 3"],
  ["BMW", "X5"], ["Nissan", "Altima"], ["Hyundai", "Tucson"]];
const DAMAGES = [["dent", "left", "moderate"], ["scratch", "front", "minor"], ["bumper_damage", "rear", "major"], ["glass_damage", "front", "severe"]];

/** About 1 KB each, shaped as the analysis leaves them: damages, quote lines, an audit list. */
function assessment(ownerId, i, contactIds) {
  const status = STATUSES[i % STATUSES.length];
  const [make, model] = VEHICLES[i % VEHICLES.length];
  const [damageType, location, severity] = DAMAGES[i % DAMAGES.length];
  const at = new Date(Date.UTC(2024, 0, 1) + i * 600_000);
  const analysed = ["completed", "reviewed", "sent"].includes(status);
  const ai = 200 + (i % 40) * 25;
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
          estimatedCost: status === "completed" ? ai : ai * (i % 5 === 0 ? 1.3 : 1.05),
          aiEstimatedCost: ai,
          lineItems: [{ damageType, severity, labourHours: 2, labourRate: 85, parts: 120, paint: 60, total: ai }],
          damages: [{ damageType, location, severity, description: `A ${severity} ${damageType} on the ${location}`, confidence: 0.82, mediaUrl }],
          damageCategories: [damageType],
          aiAnalysis: { confidence: 0.82, description: `One ${severity} ${damageType} found.`, provider: "embedded" },
        }
      : { lineItems: [], damages: [], damageCategories: [] }),
    photoHashes: [{ mediaUrl, hash: "f0e1d2c3b4a59687" }],
    photoWarnings: [],
    audit: [{ at, by: ownerId, byName: "Bench Dealer", action: "created", to: "uploaded" }],
    ...(status === "sent" ? { sentAt: at } : {}),
    createdAt: at,
    updatedAt: at,
  };
}

async function api(base, method, url, { body, cookie } = {}) {
  const res = await fetch(`${base}${url}`, {
    method,
    redirect: "manual",
    headers: { ...(body ? { "Content-Type": "application/json" } : {}), ...(cookie ? { Cookie: cookie } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 200)}`);
  return { res, text };
}

const dir = mkdtempSync(path.join(os.tmpdir(), "bench-assessments-"));
const enginePort = await freePort();
const engine = await startEngine({ dir: path.join(dir, "db"), port: enginePort });
const appPort = await freePort();
const base = `http://127.0.0.1:${appPort}`;
const { app } = await startApp({ port: appPort, dataDir: path.join(dir, "app"), mongoUri: `mongodb://127.0.0.1:${enginePort}/bench` });
const client = await new MongoClient(`mongodb://127.0.0.1:${enginePort}/`).connect();

async function signIn(username, password) {
  const { res } = await api(base, "POST", "/api/admin/login", { body: { username, password } });
  return res.headers.get("set-cookie").split(";")[0];
}

/** One connection, then 16: latency, pages per second and CPU per request of app and engine. */
async function measure(label, urls, cookie) {
  // A dealership's server runs for days: measure it warm (V8 has optimised the page's code), not
  // in its first seconds, which the cold-start figure covers.
  await pool(WARMUP, 16, (i) => api(base, "GET", urls[i % urls.length], { cookie }));
  const one = await timed(() => api(base, "GET", urls[0], { cookie }), { runs: 60, warmup: 5 });
  const times = [];
  const cpu0 = { app: treeCpuSeconds(app.pid), db: cpuSeconds(engine.pid), client: process.cpuUsage() };
  const started = performance.now();
  await pool(REQUESTS, 16, async (i) => {
    const t = performance.now();
    await api(base, "GET", urls[i % urls.length], { cookie });
    times.push(performance.now() - t);
  });
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const perRequest = (a, b) => ms(((b - a) * 1000) / REQUESTS);
  return {
    label,
    p50one: one.p50,
    p95one: one.p95,
    rate: REQUESTS / seconds,
    p95: percentile(times, 95),
    // The client shares the two cores with the app and the engine: its share is printed too.
    cpu: `${perRequest(cpu0.app, treeCpuSeconds(app.pid))} app, ${perRequest(cpu0.db, cpuSeconds(engine.pid))} engine, ${perRequest(0, ((c) => (c.user + c.system) / 1e6)(process.cpuUsage(cpu0.client)))} this client`,
  };
}

try {
  await api(base, "POST", "/api/admin/create-account", {
    body: { username: "benchadmin", password: "bench-admin-1", email: "admin@example.com", firstName: "Bench", lastName: "Admin" },
  });
  const adminCookie = await signIn("benchadmin", "bench-admin-1");
  const dealers = [];
  for (let d = 0; d < 5; d++) {
    const { text } = await api(base, "POST", "/api/admin/users", {
      cookie: adminCookie,
      body: { username: `dealer${d}`, password: "bench-dealer-1", email: `d${d}@example.com`, firstName: "Bench", lastName: `Dealer ${d}`, role: "dealer" },
    });
    dealers.push(new ObjectId(JSON.parse(text).id ?? JSON.parse(text).user.id));
  }
  const cookie = await signIn("dealer0", "bench-dealer-1");

  const seedStart = performance.now();
  const contactIds = Array.from({ length: CONTACTS }, () => new ObjectId());
  await client.db("bench").collection("contacts").insertMany(
    contactIds.map((_id, i) => ({ _id, ownerId: dealers[0], firstName: `First${i}`, lastName: `Last${i}`, email: `c${i}@example.com`,
      createdAt: new Date(Date.UTC(2023, 0, 1) + i * 60_000), updatedAt: new Date() })),
  );
  const assessments = client.db("bench").collection("assessments");
  const perOther = Math.floor(OTHERS / 4);
  for (const [d, count] of [[0, BIG], [1, perOther], [2, perOther], [3, perOther], [4, perOther]]) {
    for (let from = 0; from < count; from += 1000) {
      await assessments.insertMany(
        Array.from({ length: Math.min(1000, count - from) }, (_, k) => assessment(dealers[d], from + k, d === 0 ? contactIds : null)),
      );
    }
  }
  console.log(`assessments: seeded ${BIG} + ${4 * perOther} assessments and ${CONTACTS} contacts with the driver in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

  // The figures are the whole account's, computed by the database.
  const { text: statsText } = await api(base, "GET", "/api/dashboard/stats", { cookie });
  const stats = JSON.parse(statsText);
  if (stats.totalAssessments !== BIG) throw new Error(`stats count ${stats.totalAssessments} assessments, expected ${BIG}`);
  const { text: pageText } = await api(base, "GET", "/api/assessments?limit=50", { cookie });
  const page = JSON.parse(pageText);
  if (page.length !== 50 || !page.some((a) => a.contact)) throw new Error("the first page should hold 50 assessments, some with a contact");
  console.log(`assessments: stats ${JSON.stringify({ ...stats, recentAssessments: stats.recentAssessments.length })}`);

  const rows = [
    await measure("/api/assessments?limit=50", ["/api/assessments?limit=50"], cookie),
    await measure("/api/assessments?limit=50&status=completed", ["/api/assessments?limit=50&status=completed"], cookie),
    await measure("/api/dashboard/stats", ["/api/dashboard/stats"], cookie),
  ];

  console.log(`assessments: ${BIG} assessments in one account beside ${4 * perOther} in four others (${os.cpus().length} CPUs)`);
  console.log("| request | 1 conn p50 | 1 conn p95 | 16 conns req/s | 16 conns p95 | CPU per request | target |");
  console.log("|---|---|---|---|---|---|---|");
  for (const r of rows) {
    const ok = r.p50one <= 50 && r.rate >= 60 && r.p95 <= 500;
    console.log(
      `| ${r.label} | ${ms(r.p50one)} | ${ms(r.p95one)} | ${r.rate.toFixed(0)} | ${ms(r.p95)} | ${r.cpu} | p50 ≤ 50 ms, ≥ 60/s, p95 ≤ 500 ms ${verdict(ok)} |`,
    );
  }
} catch (error) {
  console.error(`assessments: ${error.stack ?? error.message}`);
  process.exitCode = 1;
} finally {
  await client.close().catch(() => {});
  await stopProcess(app);
  await stopProcess(engine);
  rmSync(dir, { recursive: true, force: true });
}
