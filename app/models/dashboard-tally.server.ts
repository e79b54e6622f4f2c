import mongoose, { type Query, type Schema, type Types } from "mongoose";
import { ASSESSMENT_STATUSES, type AssessmentStatus } from "~/schemas/assessment";
import { isAssessmentStatus } from "~/schemas/assessment-status";
import { fieldOf } from "~/utils/unknown-values";
import { log } from "~/utils/log.server";

// The dashboard's figures kept as per-account counters (docs/decisions/0031). Each assessment holds
// in `tally` what it adds to its owner's counters; after every write through the Assessment model
// (the plugin below) the document's contribution is recomputed and, when it moved, the tally is
// swapped (compare-and-set on revision and tally) and the difference added with one atomic $inc.
// So every write path counts the same way, and two writers (two instances) never count a change twice.

/** The collection of per-account counters (`_id`: the owner's id). */
export const FIGURES_COLLECTION = "dashboardfigures";

/** A final cost within this share of the AI's estimate counts as accurate (AI Accuracy). */
export const AI_ACCURACY_TOLERANCE = 0.15;

/** The fields a contribution is made from (plus what the compare-and-set needs). */
export const TALLY_FIELDS = {
  ownerId: 1,
  status: 1,
  estimatedCost: 1,
  aiEstimatedCost: 1,
  supersededBy: 1,
  customerDecision: 1,
  sentAt: 1,
  updatedAt: 1,
  revision: 1,
  tally: 1,
} as const;

export interface TalliedFields {
  _id: Types.ObjectId;
  ownerId: Types.ObjectId;
  status: AssessmentStatus;
  estimatedCost?: number | null;
  aiEstimatedCost?: number | null;
  supersededBy?: Types.ObjectId | null;
  customerDecision?: { decision: "approved" | "declined"; approvedTotalCents?: number | null } | null;
  /** When it was emailed (absent on estimates sent before it was kept: their last update). */
  sentAt?: Date | null;
  updatedAt?: Date;
  revision?: number;
  /** What the document adds to its owner's counters now; absent: nothing yet (never settled). */
  tally?: string;
}

/** What one assessment adds to its owner's figures. Costs in cents, so sums stay exact integers. */
export interface Contribution {
  total: number;
  status: Partial<Record<AssessmentStatus, number>>;
  value: number;
  revenue: number;
  compared: number;
  within: number;
  /** Sent Today: the server-local day (YYYY-MM-DD) a sent estimate was sent. */
  sent: Record<string, number>;
}

const cents = (dollars: number | null | undefined) => (typeof dollars === "number" ? Math.round(dollars * 100) : 0);
const present = (n: number | null | undefined): n is number => typeof n === "number";

/**
 * The server-local day of a moment, as Sent Today's midnight (startOfToday, the `TZ` time zone)
 * splits days: updated at or after today's midnight is today.
 */
export function localDay(at: Date) {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/**
 * The one definition of every dashboard figure, per assessment, encoded as a short string. Only the
 * latest version of an estimate counts (a superseded one adds nothing, docs/decisions/0018):
 * - total and per status: one;
 * - Total Value: its estimated cost (TBD adds nothing);
 * - Total Revenue: its cost when sent and not declined by the customer, or approved by the customer
 *   whatever its status (docs/decisions/0019); for an approval without some optional lines, the
 *   approved total (0063);
 * - AI Accuracy: reviewed or sent with both an AI and a final cost is compared; within when the final
 *   cost is within 15 % of the AI's (in hundredths, with a hair of slack, as the recount does);
 * - Sent Today: sent, on the day it was sent (`sentAt`; its last update for one sent before that was
 *   kept): a customer's decision or any later change of the record does not move it.
 */
export function tallyOf(doc: Omit<TalliedFields, "_id" | "ownerId" | "revision" | "tally">): string {
  if (doc.supersededBy) return "-";
  const value = cents(doc.estimatedCost);
  const decision = doc.customerDecision?.decision;
  // An approval that left optional lines out counts what it approved (docs/decisions/0063).
  const approved = decision === "approved" ? doc.customerDecision?.approvedTotalCents : undefined;
  const revenue = typeof approved === "number" ? approved : (doc.status === "sent" && decision !== "declined") || decision === "approved" ? value : 0;
  const compared = (doc.status === "reviewed" || doc.status === "sent") && present(doc.estimatedCost) && present(doc.aiEstimatedCost);
  const within =
    compared &&
    Math.abs(doc.estimatedCost! - doc.aiEstimatedCost!) * 100 <= doc.aiEstimatedCost! * AI_ACCURACY_TOLERANCE * 100 + 1e-6;
  const sentAt = doc.sentAt ?? doc.updatedAt;
  const day = doc.status === "sent" && sentAt ? localDay(new Date(sentAt)) : "";
  return [doc.status, value, revenue, compared ? 1 : 0, within ? 1 : 0, day].join("|");
}

/** A tally string read back as the figures it adds (absent or "-": nothing). */
export function contributionOf(tally: string | null | undefined): Contribution {
  const none: Contribution = { total: 0, status: {}, value: 0, revenue: 0, compared: 0, within: 0, sent: {} };
  if (!tally || tally === "-") return none;
  const [status, value, revenue, compared, within, day] = tally.split("|");
  if (!isAssessmentStatus(status)) return none;
  return {
    total: 1,
    status: { [status]: 1 },
    value: Number(value),
    revenue: Number(revenue),
    compared: Number(compared),
    within: Number(within),
    sent: day ? { [day]: 1 } : {},
  };
}

/** The counters' `$inc` that moves an owner's figures from `was` to `now` (empty: no change). */
export function incrementFor(was: string | null | undefined, now: string | null | undefined) {
  const before = contributionOf(was);
  const after = contributionOf(now);
  const inc: Record<string, number> = {};
  const add = (path: string, n: number) => {
    if (n !== 0) inc[path] = (inc[path] ?? 0) + n;
  };
  add("total", after.total - before.total);
  for (const status of ASSESSMENT_STATUSES) add(`status.${status}`, (after.status[status] ?? 0) - (before.status[status] ?? 0));
  add("value", after.value - before.value);
  add("revenue", after.revenue - before.revenue);
  add("compared", after.compared - before.compared);
  add("within", after.within - before.within);
  for (const day of Object.keys(after.sent)) add(`sent.${day}`, after.sent[day]);
  for (const day of Object.keys(before.sent)) add(`sent.${day}`, -before.sent[day]);
  return inc;
}

const figuresCollection = () => mongoose.connection.collection(FIGURES_COLLECTION);
const assessmentsCollection = () => mongoose.connection.collection<TalliedFields>("assessments");

/** Adds a difference to the owner's counters in one atomic write (`seq` tells a rebuild something moved). */
export async function applyIncrement(ownerId: Types.ObjectId, inc: Record<string, number>) {
  if (Object.keys(inc).length === 0) return;
  await figuresCollection().updateOne({ _id: ownerId }, { $inc: { ...inc, seq: 1 } }, { upsert: true });
}

/**
 * Brings one assessment's tally to its contribution and its owner's counters with it. The swap is
 * conditional on the revision and tally read (every model update moves the revision), so of two
 * settlers only one adds a given difference, and a stale reading never lands: the loser reads again.
 */
export async function settleAssessment(id: Types.ObjectId | string, known?: TalliedFields) {
  const _id = typeof id === "string" ? new mongoose.Types.ObjectId(id) : id;
  let doc = known;
  for (let attempt = 0; attempt < 20; attempt++) {
    doc ??= (await assessmentsCollection().findOne({ _id }, { projection: TALLY_FIELDS })) ?? undefined;
    if (!doc) return;
    const now = tallyOf(doc);
    if (doc.tally === now) return;
    const swapped = await assessmentsCollection().updateOne(
      { _id, revision: doc.revision ?? null, tally: doc.tally ?? null } as never,
      { $set: { tally: now } },
    );
    if (swapped.modifiedCount === 1) return applyIncrement(doc.ownerId, incrementFor(doc.tally, now));
    doc = undefined;
  }
  throw new Error(`The dashboard tally of assessment ${String(_id)} kept changing under 20 attempts`);
}

/** Settles each; a failure is logged, not thrown: the write itself succeeded, and the verify command finds the drift. */
async function settleAll(ids: (Types.ObjectId | string)[]) {
  for (const id of ids) {
    try {
      await settleAssessment(id);
    } catch (error) {
      log.error({ err: error }, `dashboard figures: assessment ${String(id)} not settled (run scripts/dashboard-aggregates.mjs --verify)`);
    }
  }
}

/** A deleted assessment takes back what its tally added. */
async function takeBack(docs: Pick<TalliedFields, "ownerId" | "tally">[]) {
  for (const doc of docs) {
    try {
      await applyIncrement(doc.ownerId, incrementFor(doc.tally, undefined));
    } catch (error) {
      log.error({ err: error }, "dashboard figures: a deleted assessment's tally not taken back");
    }
  }
}

type AnyQuery = Query<unknown, unknown>;
/** What a query's pre hook leaves for its post hook: the ids an update touches, the documents a delete takes, or the account deleted. */
type Pending = { ids: (Types.ObjectId | string)[] } | { gone: TalliedFields[] } | { owner: unknown };
const pending = new WeakMap<object, Pending>();

/** The ids an update will touch: the filter's own `_id` when it names one, else a look beforehand. */
async function idsOf(query: AnyQuery) {
  const filter = query.getFilter();
  const id = fieldOf(filter, "_id");
  if (id instanceof mongoose.Types.ObjectId || typeof id === "string") return [id];
  const found = await query.model.find(filter).select({ _id: 1 }).lean<{ _id: Types.ObjectId }[]>();
  return found.map((d) => d._id);
}

/**
 * Keeps the owner's counters with every write through the model: inserts, updates (settled after
 * the write), deletes (their tallies taken back); an account's deletion drops its counters.
 */
export function dashboardTally(schema: Schema) {
  schema.post("save", async function (doc: { _id: Types.ObjectId }) {
    await settleAll([doc._id]);
  });
  // mongoose types insertMany's result as the model; it is the inserted documents.
  schema.post("insertMany", async function (docs: unknown) {
    if (Array.isArray(docs)) await settleAll(docs.map((d: { _id: Types.ObjectId }) => d._id));
  });
  schema.post("findOneAndUpdate", async function (doc: { _id: Types.ObjectId } | null) {
    if (doc) await settleAll([doc._id]);
  });
  schema.pre(["updateOne", "updateMany"], { document: false, query: true }, async function (this: AnyQuery) {
    pending.set(this, { ids: await idsOf(this) });
  });
  schema.post(["updateOne", "updateMany"], { document: false, query: true }, async function (this: AnyQuery) {
    const before = pending.get(this);
    await settleAll(before && "ids" in before ? before.ids : []);
  });
  schema.post("findOneAndDelete", async function (doc: TalliedFields | null) {
    if (doc) await takeBack([doc]);
  });
  schema.pre(["deleteOne", "deleteMany"], { document: false, query: true }, async function (this: AnyQuery) {
    const filter = this.getFilter();
    // An account's deletion: its counters go with it.
    if (Object.keys(filter).length === 1 && "ownerId" in filter) return void pending.set(this, { owner: filter.ownerId });
    pending.set(this, { gone: await this.model.find(filter).select({ ownerId: 1, tally: 1 }).lean<TalliedFields[]>() });
  });
  schema.post(["deleteOne", "deleteMany"], { document: false, query: true }, async function (this: AnyQuery) {
    const before = pending.get(this);
    const filter = this.getFilter();
    if (Object.keys(filter).length === 1 && "ownerId" in filter) {
      await figuresCollection().deleteOne({ _id: new mongoose.Types.ObjectId(String(before && "owner" in before ? before.owner : undefined)) });
      return;
    }
    await takeBack(before && "gone" in before ? before.gone : []);
  });
}
