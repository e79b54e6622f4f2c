import { spawnSync } from "node:child_process";
import mongoose, { Types } from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { transitionAssessment } from "~/models/assessment.server";
import { buildFigures, dashboardFigures, recountFigures } from "~/models/dashboard-figures.server";
import { checkDashboardFigures } from "~/models/dashboard-figures-check.server";
import { FIGURES_COLLECTION } from "~/models/dashboard-tally.server";
import type { AssessmentStatus } from "~/schemas/assessment";
import { client, createTestUser, tokenFor } from "../../tests/accounts";
import { startApp, type RunningApp } from "../../tests/app-server";
import { useTestDb } from "../../tests/test-db";
import type { Actor } from "./actor";
import { approveAssessment, createAssessment, dashboardStats, deleteAssessment, rejectAssessment, updateAssessment } from "./assessments.server";
import { recordCustomerDecision } from "./customer-approval.server";
import { createEstimateLink } from "./estimate-links.server";
import { editEstimate } from "./estimates.server";

// The dashboard's counters (docs/decisions/0031) against a full recount, after a random workload
// written at once by this process (the services) and by a second app instance (its API).

let app: RunningApp;
const dealers: { id: string; actor: Actor; api: ReturnType<typeof client> }[] = [];
const ids: string[][] = [[], []];

/** A seeded generator, so a failure can be replayed. */
let seed = 43;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
const cost = () => (random() < 0.2 ? undefined : Math.round(random() * 200_000) / 100);
const STATUSES: AssessmentStatus[] = ["uploaded", "processing", "analyzing", "completed", "reviewed", "sent"];
const client0 = { ip: "127.0.0.1", userAgent: "test" };

beforeAll(async () => {
  await useTestDb();
  app = await startApp();
  for (let i = 0; i < 2; i++) {
    const { user, id } = await createTestUser({ role: "dealer" });
    const actor = { id, user, role: "dealer", realRole: "dealer", via: "session" } as Actor;
    dealers.push({ id, actor, api: client(app, { token: await tokenFor(id) }) });
  }
}, 60_000);
afterAll(async () => app?.stop());

/** One write through this process's services (or the model function the workers use). */
async function serviceWrite(d: number) {
  const { actor } = dealers[d];
  const id = pick(ids[d]) ?? "";
  const scope = { ownerId: actor.id };
  const roll = random();
  if (roll < 0.25 || ids[d].length < 5) ids[d].push((await createAssessment(actor, { title: `Car ${ids[d].length}`, mediaUrls: [] })).id);
  else if (roll < 0.45) {
    // The analysis worker and the delivery worker move statuses and set costs this way.
    const to = pick(STATUSES);
    const est = cost();
    await transitionAssessment({ scope, id, from: STATUSES, to, by: null, action: "moved", set: { ...(est === undefined ? {} : { estimatedCost: est, aiEstimatedCost: random() < 0.5 ? est : cost() }), ...(to === "sent" ? { sentAt: new Date() } : {}) } });
  } else if (roll < 0.55) await approveAssessment(actor, id);
  else if (roll < 0.6) await rejectAssessment(actor, id);
  else if (roll < 0.72) {
    // A sent estimate edited is a supplement (a new version replacing it).
    const edited = await editEstimate(actor, id, { damages: [{ damageType: "dent", location: "front", severity: "minor", amount: Math.round(random() * 90_000) / 100 + 1 }], reason: "Price check" } as never);
    if (edited.id !== id) ids[d].push(edited.id);
  } else if (roll < 0.85) {
    const { token } = await createEstimateLink(actor, id, { via: "api", origin: "http://localhost" });
    await recordCustomerDecision(
      token,
      random() < 0.5 ? { decision: "approved", fields: { signatureName: "Jane Doe", termsAccepted: true } } : { decision: "declined", fields: { reason: "Too much" } },
      client0,
    );
  } else if (roll < 0.93) await updateAssessment(actor, id, { title: `Renamed ${id.slice(-4)}` } as never);
  else await deleteAssessment(actor, id);
}

/** One write through the other instance's API. */
async function apiWrite(d: number) {
  const { api } = dealers[d];
  const id = pick(ids[d]) ?? "";
  const roll = random();
  if (roll < 0.3 || ids[d].length < 5) {
    const res = await api.post("/api/assessments", { title: `Api car ${ids[d].length}` });
    if (res.status === 201) ids[d].push((res.json as { id: string }).id);
  } else if (roll < 0.45) await api.post(`/api/assessments/${id}/approve`);
  else if (roll < 0.55) await api.post(`/api/assessments/${id}/reject`);
  else if (roll < 0.8)
    await api.put(`/api/assessments/${id}/estimate`, {
      damages: [{ damageType: "scratch", location: "rear", severity: "moderate", amount: Math.round(random() * 50_000) / 100 + 1 }],
      reason: "Shop price",
    });
  else if (roll < 0.9) await api.put(`/api/assessments/${id}`, { title: `Api renamed ${id.slice(-4)}` });
  else await api.del(`/api/assessments/${id}`);
}

/** `count` writes, `lanes` at a time; a refused one (deleted meanwhile, a status that does not allow it) is part of the workload. */
async function workload(count: number, lanes: number, write: (d: number) => Promise<unknown>) {
  let left = count;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (left-- > 0) await write(left % 2).catch(() => {});
    }),
  );
}

const scopeOf = (d: number) => ({ ownerId: dealers[d].id });

describe("the dashboard's counters", () => {
  it("equal a full recount after 1,000 random writes from two instances at once, one account's built while they run", async () => {
    await buildFigures(new Types.ObjectId(dealers[0].id));
    await Promise.all([
      workload(500, 10, serviceWrite),
      workload(500, 10, apiWrite),
      // The second account's counters are built from its assessments while both instances write.
      new Promise((r) => setTimeout(r, 3_000)).then(() => buildFigures(new Types.ObjectId(dealers[1].id))),
    ]);
    for (const d of [0, 1]) {
      const recount = await recountFigures(scopeOf(d));
      expect(recount.total).toBeGreaterThan(20);
      expect(await dashboardFigures(scopeOf(d))).toEqual(recount);
    }
    // The figures a dealer sees, on either instance, are the recount's.
    const recount = await recountFigures(scopeOf(0));
    const stats = await dashboardStats(dealers[0].actor);
    expect(stats).toMatchObject({ totalAssessments: recount.total, pendingReviews: recount.byStatus.completed, totalRevenue: recount.totalRevenue });
    const answer = (await dealers[0].api.get("/api/dashboard/stats")).json as typeof stats;
    expect(answer).toMatchObject({ totalAssessments: recount.total, pendingReviews: recount.byStatus.completed, totalRevenue: recount.totalRevenue });
    // An admin's figures: the sum over every account's counters (built once in the background).
    const everyone = await recountFigures({ allOwners: true });
    await expect.poll(() => dashboardFigures({ allOwners: true }), { timeout: 20_000 }).toEqual(everyone);
    expect(await checkDashboardFigures({ log: () => {} })).toEqual([]);
  }, 300_000);

  it("an account's assessments from before the counters are counted: recounted at first, built in the background", async () => {
    const { id } = await createTestUser({ role: "dealer" });
    const ownerId = new Types.ObjectId(id);
    const now = new Date();
    // Written as an older version of the app wrote them: no tally, no counters.
    await mongoose.connection.collection("assessments").insertMany([
      { ownerId, title: "Old one", status: "sent", estimatedCost: 120.5, aiEstimatedCost: 100, mediaUrls: [], createdAt: now, updatedAt: now },
      { ownerId, title: "Old two", status: "completed", estimatedCost: 80, mediaUrls: [], createdAt: now, updatedAt: now },
    ]);
    const expected = { total: 2, totalValue: 200.5, totalRevenue: 120.5, compared: 1, within: 0, sentToday: 1 };
    expect(await dashboardFigures({ ownerId: id })).toMatchObject(expected);
    await expect.poll(async () => (await mongoose.connection.collection(FIGURES_COLLECTION).findOne({ _id: ownerId }))?.ready, { timeout: 10_000 }).toBe(true);
    expect(await dashboardFigures({ ownerId: id })).toMatchObject(expected);
  }, 60_000);

  it("the command finds a tampered counter (exit 1, naming it) and --rebuild repairs it", async () => {
    const ownerId = new Types.ObjectId(dealers[0].id);
    await createAssessment(dealers[0].actor, { title: "Counted", mediaUrls: [] });
    await mongoose.connection.collection(FIGURES_COLLECTION).updateOne({ _id: ownerId }, { $inc: { "status.completed": 3, revenue: -500 } });
    const run = (mode: string) => spawnSync(process.execPath, ["scripts/dashboard-aggregates.mjs", mode], { encoding: "utf8", env: process.env, timeout: 120_000 });
    const verify = run("--verify");
    expect(verify.status, verify.stdout + verify.stderr).toBe(1);
    expect(verify.stdout, verify.stderr).toContain(`${dealers[0].id} status.completed: stored`);
    expect(verify.stdout).toContain(`${dealers[0].id} revenue: stored`);
    const rebuild = run("--rebuild");
    expect(rebuild.status, rebuild.stdout + rebuild.stderr).toBe(0);
    expect(await dashboardFigures(scopeOf(0))).toEqual(await recountFigures(scopeOf(0)));
    expect(run("--verify").status).toBe(0);
  }, 240_000);
});
