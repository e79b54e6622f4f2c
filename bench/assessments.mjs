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
import { call, freePort, measureList, ms, signInCookie, startApp, startEngine, stopProcess, verdict } from "./lib.mjs";

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

const dir = mkdtempSync(path.join(os.tmpdir(), "bench-assessments-"));
const enginePort = await freePort();
const engine = await startEngine({ dir: path.join(dir, "db"), port: enginePort });
const appPort = await freePort();
const base = `http://127.0.0.1:${appPort}`;
const { app } = await startApp({ port: appPort, dataDir: path.join(dir, "app"), mongoUri: `mongodb://127.0.0.1:${enginePort}/bench` });
const bench = { base, app, engine, requests: REQUESTS, warmup: WARMUP };
const client = await new MongoClient(`mongodb://127.0.0.1:${enginePort}/`).connect();

try {
  await call(base, "POST", "/api/admin/create-account", {
    body: { username: "benchadmin", password: "bench-admin-1", email: "admin@example.com", firstName: "Bench", lastName: "Admin" },
  });
  const adminCookie = await signInCookie(base, "benchadmin", "bench-admin-1");
  const dealers = [];
  for (let d = 0; d < 5; d++) {
    const { text } = await call(base, "POST", "/api/admin/users", {
      cookie: adminCookie,
      body: { username: `dealer${d}`, password: "bench-dealer-1", email: `d${d}@example.com`, firstName: "Bench", lastName: `Dealer ${d}`, role: "dealer" },
    });
    dealers.push(new ObjectId(JSON.parse(text).id ?? JSON.parse(text).user.id));
  }
  const cookie = await signInCookie(base, "dealer0", "bench-dealer-1");

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
  const { text: statsText } = await call(base, "GET", "/api/dashboard/stats", { cookie });
  const stats = JSON.parse(statsText);
  if (stats.totalAssessments !== BIG) throw new Error(`stats count ${stats.totalAssessments} assessments, expected ${BIG}`);
  const { text: pageText } = await call(base, "GET", "/api/assessments?limit=50", { cookie });
  const page = JSON.parse(pageText);
  if (page.length !== 50 || !page.some((a) => a.contact)) throw new Error("the first page should hold 50 assessments, some with a contact");
  console.log(`assessments: stats ${JSON.stringify({ ...stats, recentAssessments: stats.recentAssessments.length })}`);

  const rows = [
    await measureList(bench, "/api/assessments?limit=50", ["/api/assessments?limit=50"], cookie),
    await measureList(bench, "/api/assessments?limit=50&status=completed", ["/api/assessments?limit=50&status=completed"], cookie),
    await measureList(bench, "/api/dashboard/stats", ["/api/dashboard/stats"], cookie),
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
