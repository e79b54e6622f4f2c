import mongoose, { Types } from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AssessmentStatus } from "~/schemas/assessment";
import { client, createTestUser, tokenFor } from "../../tests/accounts";
import { startApp, type RunningApp } from "../../tests/app-server";
import { useTestDb } from "../../tests/test-db";
import { buildFigures, dashboardFigures, recountFigures } from "./dashboard-figures.server";
import { checkDashboardFigures } from "./dashboard-figures-check.server";
import { FIGURES_COLLECTION } from "./dashboard-tally.server";

// The first build of an account's dashboard counters (docs/decisions/0031, "Existing data"): an
// account seeded straight into the collection (as a bench seed or a restore leaves it) is built to
// the recount's figures while another instance edits, deletes and creates its assessments, and the
// build's writes grow with its batches, not with its assessments.

let app: RunningApp;

/** A seeded generator, so a failure can be replayed. */
let seed = 4301;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const STATUSES: AssessmentStatus[] = ["uploaded", "processing", "analyzing", "completed", "reviewed", "sent"];

/**
 * `count` assessments written with the driver (no tally, no counters), in every status, some with
 * costs, some sent today, some customer decisions, revisions from 0 to 5, and one in eight a
 * superseded version of the next (counted once per estimate).
 */
async function seedStraight(ownerId: Types.ObjectId, count: number) {
  const now = new Date();
  const docs = Array.from({ length: count }, (_, i) => {
    const status = STATUSES[i % STATUSES.length];
    const ai = random() < 0.2 ? undefined : Math.round(random() * 300_000) / 100;
    const final = ai === undefined || random() < 0.1 ? undefined : Math.round(ai * (0.8 + random() * 0.5) * 100) / 100;
    const at = new Date(now.getTime() - Math.floor(random() * 90) * 86_400_000);
    const decision = random() < 0.15 ? (random() < 0.5 ? "approved" : "declined") : undefined;
    return {
      _id: new Types.ObjectId(),
      ownerId,
      title: `Seeded ${i}`,
      status,
      mediaUrls: [],
      lineItems: [],
      damages: [],
      damageCategories: [],
      audit: [],
      ...(final === undefined ? {} : { estimatedCost: final }),
      ...(ai === undefined ? {} : { aiEstimatedCost: ai }),
      ...(decision ? { customerDecision: { decision, decidedAt: at, decisionId: new Types.ObjectId() } } : {}),
      ...(i % 4 === 0 ? {} : { revision: Math.floor(random() * 6) }),
      createdAt: at,
      updatedAt: status === "sent" && random() < 0.3 ? now : at,
    };
  });
  docs.forEach((doc, i) => {
    if (i % 8 === 0 && docs[i + 1]) Object.assign(doc, { supersededBy: docs[i + 1]._id });
  });
  for (let from = 0; from < docs.length; from += 1000) await mongoose.connection.collection("assessments").insertMany(docs.slice(from, from + 1000));
  return docs.map((doc) => String(doc._id));
}

const counters = (ownerId: Types.ObjectId) => mongoose.connection.collection(FIGURES_COLLECTION).findOne({ _id: ownerId });

beforeAll(async () => {
  await useTestDb();
  app = await startApp();
}, 60_000);
afterAll(async () => app?.stop());

describe("the counters' first build", () => {
  it("builds an account seeded straight into the collection to the recount's figures while another instance edits, deletes and creates its assessments", async () => {
    const { id } = await createTestUser({ role: "dealer" });
    const ownerId = new Types.ObjectId(id);
    const ids = await seedStraight(ownerId, 4000);
    const api = client(app, { token: await tokenFor(id) });
    const before = await recountFigures({ ownerId: id });
    expect(before.total).toBeGreaterThan(3000);

    let building = true;
    let writes = 0;
    const pick = () => ids[Math.floor(random() * ids.length)];
    /** The other instance's writes, on seeded assessments (and new ones), for as long as the build runs and a little after. */
    const writer = async () => {
      for (let after = 0; building || after < 20; after += building ? 0 : 1) {
        const roll = random();
        const target = pick();
        const res =
          roll < 0.15
            ? await api.post("/api/assessments", { title: `New ${writes}` })
            : roll < 0.35
              ? await api.post(`/api/assessments/${target}/approve`)
              : roll < 0.5
                ? await api.post(`/api/assessments/${target}/reject`)
                : roll < 0.7
                  ? await api.put(`/api/assessments/${target}/estimate`, {
                      damages: [{ damageType: "scratch", location: "rear", severity: "moderate", amount: Math.round(random() * 50_000) / 100 + 1 }],
                      reason: "Shop price",
                    })
                  : roll < 0.85
                    ? await api.put(`/api/assessments/${target}`, { title: `Renamed ${writes}` })
                    : await api.del(`/api/assessments/${target}`);
        if (res.status < 300) writes++;
        if (roll < 0.15 && res.status === 201) ids.push((res.json as { id: string }).id);
      }
    };
    const writers = [writer(), writer(), writer()];
    await buildFigures(ownerId);
    building = false;
    await Promise.all(writers);

    expect(writes).toBeGreaterThan(30);
    expect((await counters(ownerId))?.ready).toBe(true);
    const recount = await recountFigures({ ownerId: id });
    expect(recount).not.toEqual(before);
    expect(await dashboardFigures({ ownerId: id })).toEqual(recount);
    expect((await checkDashboardFigures({ log: () => {} })).filter((d) => d.ownerId === id)).toEqual([]);
  }, 300_000);

  it("costs a few writes per batch of a thousand assessments, not writes per assessment", async () => {
    const { id } = await createTestUser({ role: "dealer" });
    const ownerId = new Types.ObjectId(id);
    await seedStraight(ownerId, 3000);
    const writes: string[] = [];
    const WRITES = new Set(["updateOne", "updateMany", "bulkWrite", "insertOne", "insertMany", "findOneAndUpdate", "replaceOne", "deleteOne", "deleteMany"]);
    mongoose.set("debug", (collection: string, method: string) => {
      if (WRITES.has(method)) writes.push(`${collection}.${method}`);
    });
    try {
      await buildFigures(ownerId);
    } finally {
      mongoose.set("debug", false);
    }
    // The counters created, then three batches (per batch the tallies' bulk write, the counters' $inc and
    // the lease renewed), then ready: one by one it was a swap and an $inc per assessment, some 6,000.
    expect(writes.length, writes.slice(0, 20).join(", ")).toBeLessThanOrEqual(3 * 3 + 2);
    expect((await counters(ownerId))?.ready).toBe(true);
    expect(await dashboardFigures({ ownerId: id })).toEqual(await recountFigures({ ownerId: id }));
  }, 120_000);
});
