// The Estimates review desk at scale on the embedded database: one dealer with 10,000 assessments
// beside four dealers with 10,000 each (ESTIMATES_BIG, ESTIMATES_OTHERS). Measures the server-rendered
// /estimates (page 1, a search, a status filter; each with its four summary cards) at one connection
// and at 16, and the PDF of an estimate with 6 photos at one connection. The built app (server.mjs)
// runs against an engine this script starts, so the documents can be seeded with the driver;
// loopback only, every loop bounded.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import sharp from "sharp";
import { call, freePort, measureList, ms, signInCookie, startApp, startEngine, stopProcess, timed, verdict } from "./lib.mjs";

const BIG = Number(process.env.ESTIMATES_BIG ?? 10_000);
const OTHERS = Number(process.env.ESTIMATES_OTHERS ?? 40_000);
const REQUESTS = Number(process.env.REQUESTS ?? 320);
const WARMUP = Number(process.env.WARMUP ?? 300);
const PHOTOS = 6;
const { MongoClient, ObjectId } = mongoose.mongo;

const STATUSES = ["uploaded", "processing", "analyzing", "completed", "reviewed", "sent"];
const VEHICLES = [["Toyota", "Camry"], ["Honda", "Civic"], ["Ford", "F-150"], ["Chevrolet", "Silverado"], ["Tesla", "Model 3"],
  ["BMW", "X5"], ["Nissan", "Altima"], ["Hyundai", "Tucson"]];
const DAMAGES = [["dent", "left", "moderate"], ["scratch", "front", "minor"], ["bumper_damage", "rear", "major"], ["glass_damage", "front", "severe"]];

/** A pricing-engine line in cents, as the analysis stores it. */
const line = (damageType, severity, location, totalCents) => ({
  damageType, severity, location, priced: true, ruleId: new ObjectId().toHexString(), baseCents: 10000,
  labour: { hours: 2, hoursFrom: "default", rateCents: 8500, cents: 17000 }, partsCents: Math.max(0, totalCents - 27000),
  modifiers: { make: 1, location: 1, seasonal: 1 }, markupPercentage: 0, subtotalCents: totalCents, minimumChargeCents: 0,
  minimumApplied: false, ruleCents: totalCents, learning: { factor: 1, records: 0, cents: 0 }, totalCents,
});

/** About 1.5 KB each, shaped as the analysis leaves them; a sixth sent, some of those today. */
function assessment(ownerId, i, now) {
  const status = STATUSES[i % STATUSES.length];
  const [make, model] = VEHICLES[i % VEHICLES.length];
  const [damageType, location, severity] = DAMAGES[i % DAMAGES.length];
  const at = new Date(Date.UTC(2024, 0, 1) + i * 600_000);
  const analysed = ["completed", "reviewed", "sent"].includes(status);
  const cents = 20000 + (i % 40) * 2500;
  const mediaUrl = `/media/${new ObjectId().toHexString()}`;
  return {
    ownerId,
    title: `${make} ${model} ${damageType.replace("_", " ")} #${i}`,
    vehicleYear: 2010 + (i % 15),
    vehicleMake: make,
    vehicleModel: model,
    vin: `1HGCM8263${String(i).padStart(8, "0")}`,
    mediaUrls: [mediaUrl],
    status,
    ...(analysed
      ? {
          severity,
          estimatedCost: cents / 100,
          aiEstimatedCost: cents / 100,
          lineItems: [line(damageType, severity, location, cents)],
          damages: [{ damageType, location, severity, description: `A ${severity} ${damageType} on the ${location}`, confidence: 0.82, mediaUrl }],
          damageCategories: [damageType],
          aiAnalysis: { confidence: 0.82, description: `One ${severity} ${damageType} found.`, provider: "embedded" },
        }
      : { lineItems: [], damages: [], damageCategories: [] }),
    photoHashes: [{ mediaUrl, hash: "f0e1d2c3b4a59687" }],
    photoBands: [],
    photoWarnings: [],
    audit: [{ at, by: ownerId, byName: "Bench Dealer", action: "created", to: "uploaded" }],
    createdAt: at,
    // Every 60th (a tenth of the sent ones) was sent today.
    updatedAt: status === "sent" && i % 60 === 5 ? now : at,
  };
}

const dir = mkdtempSync(path.join(os.tmpdir(), "bench-estimates-"));
const enginePort = await freePort();
const engine = await startEngine({ dir: path.join(dir, "db"), port: enginePort });
const appPort = await freePort();
const base = `http://127.0.0.1:${appPort}`;
const { app } = await startApp({ port: appPort, dataDir: path.join(dir, "app"), mongoUri: `mongodb://127.0.0.1:${enginePort}/bench` });
const bench = { base, app, engine, requests: REQUESTS, warmup: WARMUP };
const client = await new MongoClient(`mongodb://127.0.0.1:${enginePort}/`).connect();

/** One upload of the dealer as the browser makes it: a 1600 × 1200 JPEG photo; its media URL. */
async function uploadPhoto(cookie, seed) {
  const raw = Buffer.alloc(160 * 120 * 3, 0).map((_, k) => (k * (seed + 7) * 31) % 251);
  const jpeg = await sharp(raw, { raw: { width: 160, height: 120, channels: 3 } }).resize(1600, 1200).jpeg({ quality: 85 }).toBuffer();
  const { text } = await call(base, "POST", "/api/objects/upload", { cookie, body: { filename: `photo${seed}.jpg`, type: "image/jpeg" } });
  const { uploadURL, url } = JSON.parse(text);
  const put = await fetch(uploadURL, { method: "PUT", body: jpeg, headers: { "Content-Type": "image/jpeg" } });
  if (put.status !== 200) throw new Error(`upload PUT: ${put.status}`);
  await call(base, "POST", "/api/objects/complete", { cookie, body: { uploadURL } });
  return url;
}

try {
  await call(base, "POST", "/api/admin/create-account", {
    body: { username: "benchadmin", password: "bench-admin-1", email: "admin@example.com", firstName: "Bench", lastName: "Admin" },
  });
  const adminCookie = await signInCookie(base, "benchadmin", "bench-admin-1");
  const dealers = [];
  for (let d = 0; d < 5; d++) {
    const { text } = await call(base, "POST", "/api/admin/users", {
      cookie: adminCookie,
      body: { username: `dealer${d}`, password: "bench-dealer-1", email: `d${d}@example.com`, firstName: "Bench", lastName: `Dealer ${d}`, role: "dealer", companyName: `Dealer ${d} Motors` },
    });
    dealers.push(new ObjectId(JSON.parse(text).id ?? JSON.parse(text).user.id));
  }
  const cookie = await signInCookie(base, "dealer0", "bench-dealer-1");

  const seedStart = performance.now();
  const now = new Date();
  const assessments = client.db("bench").collection("assessments");
  const perOther = Math.floor(OTHERS / 4);
  for (const [d, count] of [[0, BIG], [1, perOther], [2, perOther], [3, perOther], [4, perOther]]) {
    for (let from = 0; from < count; from += 1000) {
      await assessments.insertMany(Array.from({ length: Math.min(1000, count - from) }, (_, k) => assessment(dealers[d], from + k, now)));
    }
  }
  const photos = [];
  for (let p = 0; p < PHOTOS; p++) photos.push(await uploadPhoto(cookie, p));
  const withPhotos = assessment(dealers[0], 3, now);
  const { insertedId: pdfId } = await assessments.insertOne({ ...withPhotos, title: "Six photos", mediaUrls: photos, createdAt: new Date(Date.UTC(2020, 0, 1)) });
  console.log(`estimates: seeded ${BIG} + ${4 * perOther} assessments with the driver and ${PHOTOS} photos in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

  // The figures are the whole account's, computed by the database.
  const { text: data } = await call(base, "GET", "/estimates?_data=routes%2F_app.estimates", { cookie });
  const { summary, matched, assessments: page } = JSON.parse(data);
  if (summary.total !== BIG + 1 || matched !== BIG + 1 || page.length !== 24) throw new Error(`unexpected page: ${JSON.stringify({ summary, matched, cards: page.length })}`);
  console.log(`estimates: summary ${JSON.stringify(summary)}`);
  const { text: html } = await call(base, "GET", "/estimates?q=camry", { cookie });
  if (!html.includes("Search estimates...") || !html.includes("Toyota Camry")) throw new Error("/estimates?q=camry did not render the search");

  const rows = [
    await measureList(bench, "/estimates", ["/estimates"], cookie),
    await measureList(bench, "/estimates?q=camry", ["/estimates?q=camry"], cookie),
    await measureList(bench, "/estimates?status=completed", ["/estimates?status=completed"], cookie),
  ];
  const pdfUrl = `/api/assessments/${pdfId}/estimate.pdf`;
  const { bytes: pdfBytes } = await call(base, "GET", pdfUrl, { cookie });
  const pdf = await timed(() => call(base, "GET", pdfUrl, { cookie }), { runs: 30, warmup: 3 });

  console.log(`estimates: ${BIG} assessments in one account beside ${4 * perOther} in four others (${os.cpus().length} CPUs, load ${os.loadavg().map((l) => l.toFixed(2)).join(" ")})`);
  console.log("| request | 1 conn p50 | 1 conn p95 | 16 conns req/s | 16 conns p95 | CPU per request | target |");
  console.log("|---|---|---|---|---|---|---|");
  for (const r of rows) {
    const ok = r.p50one <= 50 && r.rate >= 60 && r.p95 <= 500;
    console.log(`| ${r.label} | ${ms(r.p50one)} | ${ms(r.p95one)} | ${r.rate.toFixed(0)} | ${ms(r.p95)} | ${r.cpu} | p50 ≤ 50 ms, ≥ 60/s, p95 ≤ 500 ms ${verdict(ok)} |`);
  }
  console.log(`| estimate PDF, ${PHOTOS} photos (${(pdfBytes / 1024).toFixed(0)} KiB) | ${ms(pdf.p50)} | ${ms(pdf.p95)} | | | | p50 ≤ 300 ms ${verdict(pdf.p50 <= 300)} |`);
} catch (error) {
  console.error(`estimates: ${error.stack ?? error.message}`);
  process.exitCode = 1;
} finally {
  await client.close().catch(() => {});
  await stopProcess(app);
  await stopProcess(engine);
  rmSync(dir, { recursive: true, force: true });
}
