import mongoose, { Schema, trusted, Types } from "mongoose";
import { ASSESSMENT_STATUSES, type AssessmentStatus } from "~/schemas/assessment";
import { perStatus } from "~/schemas/assessment-status";
import { dbNow, dbNowMs } from "~/utils/db-clock.server";
import { costFigures, countAssessmentsByStatus, sumRevenue } from "./assessment.server";
import {
  AI_ACCURACY_TOLERANCE,
  contributionOf,
  FIGURES_COLLECTION,
  localDay,
  tallyOf,
} from "./dashboard-tally.server";
import { ownersAssessments, settleInBatches } from "./dashboard-build.server";
import { defineModel } from "./define-model.server";
import { countSentSince, sumEstimatedCosts } from "./estimate.server";
import type { OwnerScope } from "./owner-scope.server";
import { everyAccountId } from "./user.server";
import { log } from "~/utils/log.server";

// Reading, building and checking the per-account dashboard counters that dashboard-tally keeps
// (docs/decisions/0031).

/** One account's counters (`_id`: its id), or, as `_id: "all"`, the mark that every account was built once. */
const figureSchema = new Schema(
  {
    _id: { type: Schema.Types.Mixed },
    total: Number,
    status: Schema.Types.Mixed,
    value: Number,
    revenue: Number,
    compared: Number,
    within: Number,
    /** Sent estimates per server-local day of their last update. */
    sent: Schema.Types.Mixed,
    /** Moved by every change: a rebuild writes its sums only if nothing moved while it counted. */
    seq: Number,
    /** Built from a full count (until then the figures are recounted on each read). */
    ready: Boolean,
    /** Until when one process is building them (another instance leaves them alone meanwhile). */
    lease: Date,
    /** A build could not tell exactly what it added: the tallies are summed again before they are ready. */
    unsure: Boolean,
  },
  { collection: FIGURES_COLLECTION, versionKey: false, strict: false },
);
const DashboardFigure = defineModel("DashboardFigure", figureSchema);
/** The stored counters, as the driver reads and writes them (outside the model: `$inc` on dotted paths). */
interface FigureDocument extends Counters {
  _id: Types.ObjectId | "all";
  seq?: number;
  ready?: boolean;
  lease?: Date;
  unsure?: boolean;
}
const figures = () => mongoose.connection.collection<FigureDocument>(FIGURES_COLLECTION);

export interface DashboardFigures {
  total: number;
  byStatus: Record<AssessmentStatus, number>;
  /** Dollars, rounded to cents. */
  totalValue: number;
  totalRevenue: number;
  /** AI Accuracy: reviewed and sent estimates with both costs, and those within tolerance. */
  compared: number;
  within: number;
  sentToday: number;
}

interface Counters {
  total?: number;
  status?: Partial<Record<AssessmentStatus, number>>;
  value?: number;
  revenue?: number;
  compared?: number;
  within?: number;
  sent?: Record<string, number>;
}

const byStatusOf = (c: Counters) => perStatus((s) => c.status?.[s] ?? 0);

const asFigures = (docs: Counters[], today: string): DashboardFigures => {
  const sum = (pick: (c: Counters) => number | undefined) => docs.reduce((n, c) => n + (pick(c) ?? 0), 0);
  return {
    total: sum((c) => c.total),
    byStatus: perStatus((s) => sum((c) => c.status?.[s])),
    totalValue: sum((c) => c.value) / 100,
    totalRevenue: sum((c) => c.revenue) / 100,
    compared: sum((c) => c.compared),
    within: sum((c) => c.within),
    sentToday: sum((c) => c.sent?.[today]),
  };
};

/** The figures counted over the assessments themselves (today's queries): while counters are being built, and to check them. */
export async function recountFigures(scope: OwnerScope, now = new Date()): Promise<DashboardFigures> {
  const since = new Date(now);
  since.setHours(0, 0, 0, 0);
  const costs = (status: AssessmentStatus) => costFigures({ scope, status, tolerance: AI_ACCURACY_TOLERANCE });
  const [byStatus, reviewed, sent, totalValue, totalRevenue, sentToday] = await Promise.all([
    countAssessmentsByStatus({ scope }),
    costs("reviewed"),
    costs("sent"),
    sumEstimatedCosts({ scope }),
    sumRevenue({ scope }),
    countSentSince({ scope, since }),
  ]);
  return {
    total: Object.values(byStatus).reduce((sum, n) => sum + n, 0),
    byStatus,
    totalValue,
    totalRevenue,
    compared: reviewed.compared + sent.compared,
    within: reviewed.within + sent.within,
    sentToday,
  };
}

const PROJECTION = (today: string) => ({ total: 1, status: 1, value: 1, revenue: 1, compared: 1, within: 1, ready: 1, [`sent.${today}`]: 1 });

/**
 * The dashboard's figures for a scope from its counters: one document per account (an admin's
 * scope: a sum over the accounts). Counters not built yet (an account from before them) are built
 * in the background, leased so one process does it, and the figures recounted meanwhile.
 */
export async function dashboardFigures(scope: OwnerScope, now = new Date()): Promise<DashboardFigures> {
  const today = localDay(now);
  if ("ownerId" in scope) {
    const doc = await DashboardFigure.findOne({ _id: new Types.ObjectId(scope.ownerId) })
      .select(PROJECTION(today))
      .lean<Counters & { ready?: boolean }>();
    if (doc?.ready) return asFigures([doc], today);
    startBuild(scope.ownerId, () => buildOwner(new Types.ObjectId(scope.ownerId)));
  } else {
    const [all, unbuilt] = await Promise.all([
      DashboardFigure.findOne({ _id: "all", ready: true }).select({ _id: 1 }).lean(),
      DashboardFigure.countDocuments({ ready: trusted({ $ne: true }) }),
    ]);
    if (all && unbuilt === 0) {
      const docs = await DashboardFigure.find({ _id: trusted({ $ne: "all" }) }).select(PROJECTION(today)).lean<Counters[]>();
      return asFigures(docs, today);
    }
    startBuild("all", buildAll);
  }
  return recountFigures(scope, now);
}

/** What one process is building now (so a burst of first reads starts one build). */
const building = new Map<string, Promise<unknown>>();
function startBuild(key: string, build: () => Promise<unknown>) {
  if (building.has(key)) return;
  const run = build()
    .catch((error: unknown) => log.error({ err: error }, `dashboard figures: building ${key} failed (the next read tries again)`))
    .finally(() => building.delete(key));
  building.set(key, run);
}

const LEASE_MS = 60_000;

/**
 * Takes the build of `_id` for LEASE_MS unless it is built or another process holds it (on the
 * database's clock, as every instance reads it).
 */
async function lease(_id: FigureDocument["_id"]) {
  await figures().updateOne({ _id }, { $setOnInsert: { seq: 0 } }, { upsert: true });
  const now = dbNow();
  const taken = await figures().findOneAndUpdate(
    { _id, ready: { $ne: true }, $or: [{ lease: { $exists: false } }, { lease: { $lt: now } }] },
    { $set: { lease: new Date(now.getTime() + LEASE_MS) } },
  );
  return taken !== null;
}

/** Keeps a build's lease while it runs (an account of 50,000 assessments takes minutes), so no other process starts the same build. */
const renewLease = (_id: FigureDocument["_id"]) =>
  figures().updateOne({ _id, ready: { $ne: true } }, { $set: { lease: new Date(dbNowMs() + LEASE_MS) } });

async function buildOwner(ownerId: Types.ObjectId) {
  if (await lease(ownerId)) await buildFigures(ownerId);
}

async function buildAll() {
  if (!(await lease("all"))) return;
  // Every account from its own small collection (a distinct over assessments reads all of them).
  const owners = new Set<string>((await everyAccountId()).map(String));
  for (const doc of await figures().find({ ready: { $ne: true }, _id: { $ne: "all" } }, { projection: { _id: 1 } }).toArray()) owners.add(String(doc._id));
  for (const owner of owners) {
    const id = new Types.ObjectId(owner);
    if (!(await figures().findOne({ _id: id, ready: true }))) await buildFigures(id);
  }
  await figures().updateOne({ _id: "all" }, { $set: { ready: true }, $unset: { lease: 1 } });
}

const add = (into: Required<Counters>, tally: string | undefined) => {
  const c = contributionOf(tally);
  into.total += c.total;
  for (const s of ASSESSMENT_STATUSES) {
    const n = c.status[s];
    if (n !== undefined) into.status[s] = (into.status[s] ?? 0) + n;
  }
  into.value += c.value;
  into.revenue += c.revenue;
  into.compared += c.compared;
  into.within += c.within;
  for (const [day, n] of Object.entries(c.sent)) into.sent[day] = (into.sent[day] ?? 0) + n;
};
const empty = (): Required<Counters> => ({ total: 0, status: {}, value: 0, revenue: 0, compared: 0, within: 0, sent: {} });

/**
 * Builds an account's counters the first time: every tally the counters hold came with its `$inc`, and
 * an assessment without a tally was never counted, so settling those (a batch at a time) is the whole
 * build, beside live writes, by any number of processes at once. A batch that could not tell exactly
 * what it added (`unsure`, kept on the counters so a later build knows) has the tallies summed again.
 */
export async function buildFigures(ownerId: Types.ObjectId) {
  await figures().updateOne({ _id: ownerId }, { $setOnInsert: { seq: 0 } }, { upsert: true });
  const { exact, done } = await settleInBatches(ownerId, async () => (await renewLease(ownerId)).matchedCount === 1);
  if (!exact) await figures().updateOne({ _id: ownerId }, { $set: { unsure: true } });
  if (!done) return;
  const { matchedCount } = await figures().updateOne({ _id: ownerId, unsure: { $ne: true } }, { $set: { ready: true }, $unset: { lease: 1 } });
  if (matchedCount === 0) await rebuildOwner(ownerId);
}

/**
 * Repairs an account's counters (after a crash between a tally's swap and its `$inc`, or a counter
 * changed by hand): the dirty assessments settled, then the tallies summed and written over the
 * counters, only if no change moved them meanwhile (`seq`), else counted again (an account written
 * to without pause may need the command run again).
 */
export async function rebuildOwner(ownerId: Types.ObjectId) {
  await figures().updateOne({ _id: ownerId }, { $setOnInsert: { seq: 0 } }, { upsert: true });
  for (let attempt = 0; attempt < 10; attempt++) {
    await settleInBatches(ownerId);
    const seq = (await figures().findOne({ _id: ownerId }, { projection: { seq: 1 } }))?.seq;
    const sums = empty();
    let dirty = false;
    for await (const doc of ownersAssessments(ownerId)) {
      if (doc.tally !== tallyOf(doc)) dirty = true;
      add(sums, doc.tally);
    }
    if (dirty) continue;
    const { matchedCount } = await figures().updateOne(
      { _id: ownerId, seq },
      { $set: { ...sums, status: byStatusOf(sums), ready: true }, $inc: { seq: 1 }, $unset: { lease: 1, unsure: 1 } },
    );
    if (matchedCount === 1) return;
  }
  throw new Error(`The dashboard figures of ${String(ownerId)} kept changing while they were rebuilt: run the command again`);
}

export interface FigureDifference {
  ownerId: string;
  field: string;
  stored: number;
  counted: number;
}

/** The account's counters against a recount of its assessments (from their fields, not their tallies): what differs. */
export async function verifyOwner(ownerId: Types.ObjectId): Promise<FigureDifference[]> {
  const counted = empty();
  for await (const doc of ownersAssessments(ownerId)) add(counted, tallyOf(doc));
  const stored: Counters = (await figures().findOne({ _id: ownerId })) ?? {};
  const differences: FigureDifference[] = [];
  const compare = (field: string, a: number | undefined, b: number | undefined) => {
    if ((a ?? 0) !== (b ?? 0)) differences.push({ ownerId: String(ownerId), field, stored: a ?? 0, counted: b ?? 0 });
  };
  for (const field of ["total", "value", "revenue", "compared", "within"] as const) compare(field, stored[field], counted[field]);
  for (const s of ASSESSMENT_STATUSES) compare(`status.${s}`, stored.status?.[s], counted.status[s]);
  for (const day of new Set([...Object.keys(stored.sent ?? {}), ...Object.keys(counted.sent)])) compare(`sent.${day}`, stored.sent?.[day], counted.sent[day]);
  return differences;
}

/** Every account that has assessments or counters. */
export async function ownersWithFigures() {
  // Every account from its own small collection (a distinct over assessments reads all of them).
  const owners = new Set<string>((await everyAccountId()).map(String));
  for (const doc of await figures().find({ _id: { $ne: "all" } }, { projection: { _id: 1 } }).toArray()) owners.add(String(doc._id));
  return [...owners].map((id) => new Types.ObjectId(id));
}

/** Marks every account built (after a rebuild of all of them). */
export async function markAllBuilt() {
  await figures().updateOne({ _id: "all" }, { $set: { ready: true }, $unset: { lease: 1 } }, { upsert: true });
}

