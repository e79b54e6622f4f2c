// The write mix that measures the embedded engine's file against its data (issue 41 item 3, issue 38
// item 4; docs/decisions/0047): assessments shaped as the app stores them (bench/lib.mjs's
// benchAssessment) with the app's assessment indexes, written through the driver at `concurrency`
// connections: 40 % inserts, 20 % updates that grow a document (an audit entry, a line item and a
// longer description pushed), 20 % that shrink it back (its audit cut to one entry, its line items emptied, its description and analysis unset),
// 10 % small updates (title, updatedAt, a counter) and 10 % deletes. Each connection writes its own
// documents, so the last acknowledged state of every document is known: `expected` maps each live
// _id to the `w` (write number) of its last acknowledged write; a deleted one is not in it.
import { spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import { benchAssessment } from "../bench/lib.mjs";

const { ObjectId } = mongoose.mongo;

/** The app's assessment indexes (app/models/assessment.ts), the ones a write maintains. */
export const ASSESSMENT_INDEXES = [
  { ownerId: 1, supersededBy: 1, createdAt: -1 },
  { ownerId: 1, createdAt: -1 },
  { ownerId: 1, supersededBy: 1, status: 1, createdAt: -1 },
  { ownerId: 1, supersededBy: 1, status: 1, estimatedCost: 1, aiEstimatedCost: 1 },
  { ownerId: 1, supersededBy: 1, estimatedCost: 1 },
  { ownerId: 1, supersededBy: 1, status: 1, updatedAt: 1 },
  { ownerId: 1, supplementOf: 1 },
  { ownerId: 1, photoBands: 1 },
];

const OWNERS = Array.from({ length: 5 }, (_, i) => new ObjectId(`64b000000000000000000${i}0a`.slice(0, 24)));

/**
 * Runs `writes` writes on `collection` (after `seed` inserted documents, not counted), calling
 * `checkpoint(done)` with no write in flight (after the seed for 0) at each count in `checkpoints`. Answers { expected,
 * latencies } (latencies, also filled as it goes when passed: every write's milliseconds).
 */
export async function writeMix(collection, { writes, seed = 0, concurrency = 8, checkpoints = [], checkpoint = async () => {}, latencies = [] }) {
  await collection.createIndexes(ASSESSMENT_INDEXES.map((key) => ({ key })));
  const expected = new Map();
  const mine = Array.from({ length: concurrency }, () => []);
  let serial = 0;
  const fresh = (c, w) => {
    const doc = { _id: new ObjectId(), ...benchAssessment(OWNERS[serial % OWNERS.length], serial), w };
    serial += 1;
    mine[c].push(doc._id);
    return doc;
  };
  for (let from = 0; from < seed; from += 500) {
    const docs = [];
    for (let k = from; k < Math.min(seed, from + 500); k++) docs.push(fresh(k % concurrency, 0));
    await collection.insertMany(docs, { ordered: true });
    for (const doc of docs) expected.set(doc._id.toHexString(), 0);
  }
  const stops = [...checkpoints].sort((a, b) => a - b).filter((n) => n >= 0 && n < writes);
  let done = 0;
  for (const stop of [...stops, writes]) {
    const slice = stop - done;
    const base = done;
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async (_, c) => {
        for (let k; (k = next++) < slice; ) {
          const w = base + k + 1;
          const ids = mine[c];
          const kind = w % 10;
          const pick = ids.length ? ids[(w * 7919) % ids.length] : undefined;
          const started = performance.now();
          if (kind < 4 || !pick) {
            const doc = fresh(c, w);
            await collection.insertOne(doc);
            expected.set(doc._id.toHexString(), w);
          } else if (kind < 6) {
            const at = new Date();
            await collection.updateOne(
              { _id: pick },
              {
                $set: { w, updatedAt: at, description: `Re-assessed after write ${w}: `.padEnd(400, "detail ") },
                $push: {
                  audit: { at, by: OWNERS[0], byName: "Bench Dealer", action: "edited", to: "reviewed" },
                  lineItems: { description: `Blend adjacent panel ${w}`, category: "paint", quantity: 1, unitPrice: 120, total: 120 },
                },
              },
            );
            expected.set(pick.toHexString(), w);
          } else if (kind < 8) {
            await collection.updateOne(
              { _id: pick },
              {
                $set: { w, audit: [{ at: new Date(), by: OWNERS[0], byName: "Bench Dealer", action: "trimmed", to: "reviewed" }], lineItems: [] },
                $unset: { description: "", aiAnalysis: "" },
              },
            );
            expected.set(pick.toHexString(), w);
          } else if (kind < 9) {
            await collection.updateOne({ _id: pick }, { $set: { w, title: `Retitled ${w}`, updatedAt: new Date() }, $inc: { revision: 1 } });
            expected.set(pick.toHexString(), w);
          } else {
            ids.splice((w * 7919) % ids.length, 1);
            await collection.deleteOne({ _id: pick });
            expected.delete(pick.toHexString());
          }
          latencies.push(performance.now() - started);
        }
      }),
    );
    done = stop;
    if (stop < writes) await checkpoint(done);
  }
  return { expected, latencies };
}

/** The live documents' `w` against `expected`: answers the _ids whose acknowledged state is not there, and the extra ones. */
export async function lostWrites(collection, expected) {
  const found = new Map();
  for await (const doc of collection.find({}, { projection: { w: 1 } })) found.set(doc._id.toHexString(), doc.w);
  const lost = [...expected].filter(([id, w]) => found.get(id) !== w).map(([id]) => id);
  const extra = [...found.keys()].filter((id) => !expected.has(id));
  return { lost, extra, live: found.size };
}

/**
 * "The data it holds": the size of the file a full offline compaction writes from a copy of the
 * stopped engine's file (H2's MVStoreTool, compressed as the engine writes: every live page once,
 * nothing dead, no holes). Answers bytes.
 */
export async function compactedBytes(jar, dbDir) {
  const work = mkdtempSync(path.join(os.tmpdir(), "engine-compacted-"));
  try {
    const copy = path.join(work, "copy.mv.db");
    copyFileSync(path.join(dbDir, "damageiq.mv.db"), copy);
    await new Promise((resolve, reject) => {
      const tool = spawn("nice", ["-n19", "java", "-cp", jar, "org.h2.mvstore.MVStoreTool", "-compress", copy], { stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      tool.stderr.on("data", (d) => (stderr += d));
      tool.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`MVStoreTool -compress exited ${code}: ${stderr.slice(-500)}`))));
    });
    return statSync(copy).size;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Percentile p (0–100) of unsorted values. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
