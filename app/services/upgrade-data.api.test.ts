import { spawnSync } from "node:child_process";
import mongoose, { Types } from "mongoose";
import { beforeAll, expect, it } from "vitest";
import { createTestUser } from "../../tests/accounts";
import { useTestDb } from "../../tests/test-db";
import { countAssessments } from "~/models/assessment.server";
import { countContacts } from "~/models/contact.server";
import { recountFigures } from "~/models/dashboard-figures.server";
import { FIGURES_COLLECTION } from "~/models/dashboard-tally.server";

// scripts/upgrade-data.mjs: data written straight into the collections (an older release's, a
// restore's, a bench's seed) made searchable and counted before anyone opens it.

beforeAll(async () => {
  await useTestDb();
});

it("indexes every account's records for search and builds their dashboard counters, equal to a recount", async () => {
  // The collections' indexes built first, on empty collections (the script builds what is missing):
  // an index built over the data below reads it whole, which is not the upgrade's cost.
  const first = spawnSync(process.execPath, ["scripts/upgrade-data.mjs"], { encoding: "utf8", env: process.env, timeout: 180_000 });
  expect(first.status, first.stdout + first.stderr).toBe(0);
  const owners = await Promise.all([0, 1].map(async () => new Types.ObjectId((await createTestUser({ role: "dealer" })).id)));
  const now = new Date();
  for (const [i, ownerId] of owners.entries()) {
    await mongoose.connection.collection("contacts").insertMany(
      Array.from({ length: 30 }, (_, k) => ({ ownerId, firstName: "Maria", lastName: `Lopez${i}x${k}`, email: `m${i}${k}@example.com`, createdAt: now, updatedAt: now })),
    );
    await mongoose.connection.collection("assessments").insertMany(
      Array.from({ length: 1200 }, (_, k) => ({
        ownerId, title: `Camry door ${i}-${k}`, status: k % 3 ? "sent" : "completed", estimatedCost: 100 + k, aiEstimatedCost: 100,
        mediaUrls: [], createdAt: now, updatedAt: now,
      })),
    );
  }
  // Read raw: the app's own reads would backfill and build on first use.
  const unindexed = (collection: string, ownerId: Types.ObjectId) => mongoose.connection.collection(collection).countDocuments({ ownerId, searchTokens: null });
  expect(await unindexed("assessments", owners[0])).toBe(1200);
  expect(await mongoose.connection.collection(FIGURES_COLLECTION).countDocuments({ _id: { $in: owners } as never })).toBe(0);

  // The whole reads of each collection (embedded engine only): the upgrade goes account by account
  // through indexes, so its cost follows the data it changes, not the history it passes (issue 38).
  const scans = async () =>
    ((await mongoose.connection.db!.admin().command({ serverStatus: 1 })).embeddedEngine?.collectionScans ?? null) as Record<string, number> | null;
  const scansBefore = await scans();
  const run = spawnSync(process.execPath, ["scripts/upgrade-data.mjs"], { encoding: "utf8", env: process.env, timeout: 180_000 });
  expect(run.status, run.stdout + run.stderr).toBe(0);
  expect(run.stdout).toContain("counters equal a full recount");
  const scansAfter = await scans();
  if (scansBefore && scansAfter) {
    for (const collection of ["assessments", "contacts", "emaillogs"]) expect(scansAfter[collection] ?? 0, collection).toBe(scansBefore[collection] ?? 0);
  }

  for (const ownerId of owners) {
    const owner = { ownerId: ownerId.toHexString() };
    expect(await unindexed("assessments", ownerId)).toBe(0);
    expect(await unindexed("contacts", ownerId)).toBe(0);
    expect(await countAssessments({ scope: owner, q: "camry" })).toBe(1200);
    expect(await countContacts({ scope: owner, q: "maria" })).toBe(30);
    const counters = await mongoose.connection.collection(FIGURES_COLLECTION).findOne({ _id: ownerId as never });
    expect(counters?.ready).toBe(true);
    expect(counters?.total).toBe(1200);
    expect((await recountFigures(owner)).total).toBe(1200);
  }
}, 240_000);
