// The embedded database on its own, with the official driver (the table of docs/decisions/0005):
// documents shaped like assessments (~1 KB), index {ownerId: 1, createdAt: -1}; "10k" = one account
// with 10,000, "50k" = five accounts with 10,000 each. q1 = a page (find by owner, newest first,
// limit 20), q2 = countDocuments by owner, q4 = findOne by _id, q5 = findOne by {_id, ownerId} (a
// tenancy lookup), q6 = sixteen q1 at once, q7 = updateOne by _id. Then durability: 100
// acknowledged inserts, SIGKILL, restart, count. Loopback only; about a minute.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import { freePort, ms, rssMiB, startEngine, stopProcess, timed, verdict } from "./lib.mjs";

const { MongoClient, ObjectId } = mongoose.mongo;
const PER_ACCOUNT = Number(process.env.PER_ACCOUNT ?? 10_000);
const dir = mkdtempSync(path.join(os.tmpdir(), "bench-db-engine-"));
const port = await freePort();
let engine = await startEngine({ dir, port });
let client = await new MongoClient(`mongodb://127.0.0.1:${port}/`).connect();

const DESCRIPTION =
  "Dent on the front left door with paint transfer, roughly 12 cm wide; the crease runs across the body line. " +
  "Scratches on the adjacent panel; no structural damage visible. Recommend paintless repair where possible, " +
  "otherwise fill, block and refinish the door with blending into the fender.";

function assessment(ownerId, i) {
  return {
    ownerId,
    title: `Assessment ${i} - rear bumper and quarter panel`,
    vehicleYear: 2010 + (i % 15),
    vehicleMake: ["Toyota", "Ford", "BMW", "Honda", "Tesla"][i % 5],
    vehicleModel: ["Camry", "F-150", "X5", "Civic", "Model 3"][i % 5],
    vin: `1HGCM82633A${String(100000 + i).slice(-6)}`,
    status: ["uploaded", "processing", "completed", "reviewed", "sent"][i % 5],
    severity: ["minor", "moderate", "major", "severe"][i % 4],
    estimatedCost: 250 + (i % 400) * 7.5,
    damageCategories: ["dent", "scratch", "paint_damage"].slice(0, 1 + (i % 3)),
    aiAnalysis: { confidence: 0.5 + (i % 50) / 100, description: DESCRIPTION },
    mediaUrls: [`/media/${new ObjectId().toHexString()}`, `/media/${new ObjectId().toHexString()}`],
    createdAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000),
    updatedAt: new Date(),
  };
}

async function seed(collection, owners) {
  const started = performance.now();
  for (const ownerId of owners) {
    for (let from = 0; from < PER_ACCOUNT; from += 1000) {
      await collection.insertMany(Array.from({ length: 1000 }, (_, k) => assessment(ownerId, from + k)));
    }
  }
  return (performance.now() - started) / 1000;
}

async function measure(label, owners) {
  const collection = client.db("bench").collection(`assessments_${label}`);
  await collection.createIndex({ ownerId: 1, createdAt: -1 });
  const seconds = await seed(collection, owners);
  const owner = owners[owners.length - 1];
  const one = await collection.findOne({ ownerId: owner });
  const q1 = () => collection.find({ ownerId: owner }).sort({ createdAt: -1 }).limit(20).toArray();
  const r1 = await timed(q1);
  const r2 = await timed(() => collection.countDocuments({ ownerId: owner }));
  const r4 = await timed(() => collection.findOne({ _id: one._id }));
  const r5 = await timed(() => collection.findOne({ _id: one._id, ownerId: owner }));
  const r6 = await timed(() => Promise.all(Array.from({ length: 16 }, q1)), { runs: 10, warmup: 2 });
  let updates = 0;
  const until = performance.now() + 2000;
  while (performance.now() < until) {
    await collection.updateOne({ _id: one._id }, { $set: { updatedAt: new Date() }, $inc: { revision: 1 } });
    updates += 1;
  }
  return { label, seconds, r1, r2, r4, r5, r6, updatesPerSecond: updates / 2 };
}

try {
  const rows = [];
  rows.push(await measure("10k", [new ObjectId()]));
  rows.push(await measure("50k", Array.from({ length: 5 }, () => new ObjectId())));
  const rss = rssMiB(engine.pid);

  // Durability: acknowledged writes survive the process being killed.
  const crash = client.db("bench").collection("crash");
  for (let i = 0; i < 100; i++) await crash.insertOne({ i });
  await client.close();
  await stopProcess(engine, "SIGKILL");
  engine = await startEngine({ dir, port });
  client = await new MongoClient(`mongodb://127.0.0.1:${port}/`).connect();
  const kept = await client.db("bench").collection("crash").countDocuments({});

  console.log("db-engine: embedded database (mongo-java-server H2 + our launcher), official driver, p50 of 30 runs");
  console.log("| dataset | seed | q1 page | q2 count | q4 by _id | q5 by {_id, ownerId} | q6 16 pages at once | q7 updates/s |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const r of rows) {
    console.log(
      `| ${r.label} | ${r.seconds.toFixed(1)} s | ${ms(r.r1.p50)} | ${ms(r.r2.p50)} | ${ms(r.r4.p50)} | ${ms(r.r5.p50)} | ${ms(r.r6.p50)} | ${r.updatesPerSecond.toFixed(0)} |`,
    );
  }
  console.log(`db-engine: 100 acknowledged inserts, SIGKILL, restart: ${kept} kept (target 100) ${verdict(kept === 100)}`);
  console.log(`db-engine: engine RSS after 60,000 documents and the queries: ${rss.toFixed(0)} MiB (target ≤ 700 MiB) ${verdict(rss <= 700)}`);
} catch (error) {
  console.error(`db-engine: ${error.stack ?? error.message}`);
  process.exitCode = 1;
} finally {
  await client.close().catch(() => {});
  await stopProcess(engine);
  rmSync(dir, { recursive: true, force: true });
}
