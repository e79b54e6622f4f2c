import { Schema, trusted, Types } from "mongoose";
import {
  ASSESSMENT_STATUSES,
  type AssessmentCreateInput,
  type AssessmentStatus,
  type AssessmentUpdateInput,
} from "~/schemas/assessment";
import { DAMAGE_LOCATIONS, DAMAGE_TYPES, SEVERITIES, type DamageLocation, type DamageType, type Severity } from "~/schemas/damage";
import { perStatus } from "~/schemas/assessment-status";
import { dashboardTally } from "./dashboard-tally.server";
import { defineModel } from "./define-model.server";
import type { ListCursor } from "~/schemas/list-cursor";
import { changedSince, inListOrder, keysetFilter, keysetSort } from "./keyset.server";
import { backfillSearchIndex, backfillSearchIndexOfEveryAccount, searchIndexOf, searchIndexPlugin, tokenSearchFilter, type SearchedFields } from "./search-index.server";
import { isObjectIdHex, ownerFilter, type OwnerScope } from "./owner-scope.server";
import { writeCache } from "./write-cache.server";
import { recordDeletion } from "./deletion.server";
import { deleteInBatches } from "./batch-delete.server";

const damageSchema = new Schema(
  {
    damageType: { type: String, enum: DAMAGE_TYPES, required: true },
    location: { type: String, enum: DAMAGE_LOCATIONS, required: true },
    severity: { type: String, enum: SEVERITIES, required: true },
    description: { type: String, default: "" },
    confidence: { type: Number, min: 0, max: 1, required: true },
    mediaUrl: { type: String },
  },
  { _id: false },
);

const aiAnalysisSchema = new Schema(
  {
    confidence: { type: Number, min: 0, max: 1, required: true },
    description: { type: String, default: "" },
    provider: { type: String, enum: ["openai", "embedded", "none"], required: true },
    model: { type: String },
  },
  { _id: false },
);

const auditSchema = new Schema(
  {
    at: { type: Date, required: true },
    // Null: the system (the analysis worker).
    by: { type: Schema.Types.ObjectId, default: null },
    byName: { type: String, required: true },
    action: { type: String, required: true },
    from: { type: String, enum: ASSESSMENT_STATUSES },
    to: { type: String, enum: ASSESSMENT_STATUSES },
    note: { type: String },
    /** What an estimate edit changed, one "before → after" line each. */
    changes: { type: [String], default: undefined },
  },
  { _id: false },
);

const assessmentSchema = new Schema(
  {
    ownerId: { type: Schema.Types.ObjectId, required: true, immutable: true },
    title: { type: String, required: true, trim: true },
    // Optional fields are absent when blank (never ""), so the API answers null for them.
    vehicleYear: { type: Number },
    vehicleMake: { type: String, trim: true },
    vehicleModel: { type: String, trim: true },
    vin: { type: String, trim: true },
    contactId: { type: Schema.Types.ObjectId },
    notes: { type: String },
    vendorId: { type: Schema.Types.ObjectId },
    /** App media URLs (`/media/<uploadId>`) of the caller's uploads. */
    mediaUrls: { type: [String], default: [] },
    status: { type: String, enum: ASSESSMENT_STATUSES, default: "uploaded", required: true },
    severity: { type: String, enum: SEVERITIES },
    /** Dollars with 2 decimals; absent = TBD. */
    estimatedCost: { type: Number, min: 0 },
    /** The AI's figure, kept when a person edits the cost: the AI-accuracy stat compares the two. */
    aiEstimatedCost: { type: Number, min: 0 },
    /** Why the cost is TBD ("No vendor chosen", "No active pricing rule for dent (major)"). */
    costNote: { type: String },
    /** The pricing engine's quote lines. */
    lineItems: { type: [Schema.Types.Mixed], default: [] },
    damages: { type: [damageSchema], default: [] },
    /**
     * The estimate as a shop writes it once a person edited it (issue 27): lines, rates, the tax rates
     * it was priced at, deductible, language. Absent: read from `lineItems` (app/utils/estimate-sheet.ts).
     */
    estimateSheet: { type: Schema.Types.Mixed },
    damageCategories: { type: [String], default: [] },
    aiAnalysis: { type: aiAnalysisSchema },
    analysisError: { type: String },
    /**
     * The video frames the analysis looked at, each kept as an upload of the owner (its own media
     * URL, which a damage found on it names), with the video it comes from and its time in seconds.
     */
    videoFrames: { type: [new Schema({ mediaUrl: String, videoUrl: String, at: Number }, { _id: false })], default: [] },
    /**
     * Each photo's 64-bit dHash (hex, shown by the API) and print for the reused-photo check: a 24 × 24
     * colour thumbnail (base64) and the aspect ratio (docs/decisions/0030). Records analysed earlier
     * held a greyscale `thumb` instead, until the start-up migration recomputed them.
     */
    photoHashes: { type: [new Schema({ mediaUrl: String, hash: String, thumb: String, print: String, aspect: Number }, { _id: false })], default: [] },
    /** The prints' index keys (photo-prints.server.ts printBands): the check finds candidates through an index. */
    photoBands: { type: [String], default: [] },
    photoWarnings: {
      type: [new Schema({ mediaUrl: String, photoName: String, otherAssessmentId: Schema.Types.ObjectId, otherTitle: String }, { _id: false })],
      default: [],
    },
    audit: { type: [auditSchema], default: [] },
    sentAt: { type: Date },
    /** A supplement: the sent estimate it revises (that one stays as it was sent). */
    supplementOf: { type: Schema.Types.ObjectId },
    /** A supplement not yet linked to the version it replaces (insertSupplement's two writes; 0018). */
    linkPending: { type: Boolean },
    /** 1 for an original estimate, n + 1 for a supplement of version n. */
    version: { type: Number, min: 1 },
    /**
     * The supplement that replaced this version (set when it is created, removed when it is deleted).
     * Absent: the latest version, the one lists, counts and sums take (docs/decisions/0018).
     */
    supersededBy: { type: Schema.Types.ObjectId },
    /**
     * The customer's answer on the public estimate page, beside the status (which keeps the spec's
     * values): a copy of the insert-only record in customerdecisions (docs/decisions/0019).
     */
    customerDecision: {
      type: new Schema(
        {
          decision: { type: String, enum: ["approved", "declined"], required: true },
          decidedAt: { type: Date, required: true },
          decisionId: { type: Schema.Types.ObjectId, required: true },
          /** What the customer approved when it is less than the whole version (optional lines left out): its total, in cents. */
          approvedTotalCents: { type: Number },
        },
        { _id: false },
      ),
      default: undefined,
    },
    /**
     * How many times the assessment was written: every update moves it on by one in the same write
     * (the hook below). Its ETag, and the version an edit says it was read at (If-Match, the Edit
     * Estimate form): docs/decisions/0027. Absent on records from before it: revision 0.
     */
    revision: { type: Number, min: 0, default: 0 },
  },
  { timestamps: true },
);
assessmentSchema.pre(["updateOne", "updateMany", "findOneAndUpdate"], function () {
  const update = this.getUpdate();
  // Every update of ours is an operator document; a pipeline update would set the field itself.
  if (!update || Array.isArray(update)) return;
  const inc = update.$inc ?? {};
  this.setUpdate({ ...update, $inc: { ...inc, revision: 1 } });
});
// The list and the dashboard's recent five: one owner's latest versions, newest first.
assessmentSchema.index({ ownerId: 1, supersededBy: 1, createdAt: -1 });
assessmentSchema.index({ ownerId: 1, createdAt: -1 });
// The status filter and the per-status counts (workflow board, pending reviews): owner and status are
// equalities, so a page walks that status's entries in order and counts are read from the index alone.
assessmentSchema.index({ ownerId: 1, supersededBy: 1, status: 1, createdAt: -1 });
// The dashboard's revenue and AI accuracy: a `$match` on owner and status and a `$group` over the two
// costs, answered from this index's entries alone (a covered aggregate, MongoDB and the embedded engine
// alike), so no assessment is read.
assessmentSchema.index({ ownerId: 1, supersededBy: 1, status: 1, estimatedCost: 1, aiEstimatedCost: 1 });
// The search (docs/decisions/0033): the owner, one of the words' tokens, the latest versions, newest first.
const SEARCHED: SearchedFields = { fields: ["title", "vehicleMake", "vehicleModel", "vin"], codes: ["vin"] };
searchIndexPlugin(assessmentSchema, SEARCHED, { supersededBy: 1, createdAt: -1, _id: -1 });
// Total Value: the sum of an owner's latest estimated costs from index entries alone.
assessmentSchema.index({ ownerId: 1, supersededBy: 1, estimatedCost: 1 });
// Sent Today: a count on index entries (owner, latest and status equalities, then a range of sentAt,
// or of updatedAt for an estimate sent before sentAt was kept).
assessmentSchema.index({ ownerId: 1, supersededBy: 1, status: 1, sentAt: 1 });
assessmentSchema.index({ ownerId: 1, supersededBy: 1, status: 1, updatedAt: 1 });
// A sync's read: the latest versions in the order of changes (docs/decisions/0052).
assessmentSchema.index({ ownerId: 1, supersededBy: 1, updatedAt: 1, _id: 1 });
// The supplements of an estimate.
assessmentSchema.index({ ownerId: 1, supplementOf: 1 });
// Supplements whose link a crash may have cut: found at start without reading the rest (sparse).
assessmentSchema.index({ linkPending: 1 }, { sparse: true });
// The reused-photo check: the owner's assessments holding any band of a new photo's hash.
assessmentSchema.index({ ownerId: 1, photoBands: 1 });

const figures = writeCache("assessments-changed");
assessmentSchema.plugin(figures.forgetOnWrite);
// Every write keeps the owner's dashboard counters (docs/decisions/0031).
assessmentSchema.plugin(dashboardTally);
export const Assessment = defineModel("Assessment", assessmentSchema, {
  // The search over the list's order and every searched field, replaced by the tokens' index (0033).
  retiredIndexes: ["ownerId_1_createdAt_-1__id_-1_title_1_vehicleMake_1_vehicleModel_1_vin_1_supersededBy_1"],
});

/**
 * A count or sum over the scope's assessments that a screen shows on every view (summary cards,
 * how many match a search): kept a few seconds, and dropped by any write to an assessment, so the
 * pages of one search, or a dialog opened over the list, do not recount 10,000 documents.
 */
export function assessmentFigure<T>(scope: OwnerScope, name: string, load: () => Promise<T>) {
  return figures.get(`${"ownerId" in scope ? scope.ownerId : "all"}|${name}`, load);
}

export interface FoundDamageRecord {
  damageType: DamageType;
  location: DamageLocation;
  severity: Severity;
  description: string;
  confidence: number;
  mediaUrl?: string;
}

/** A video frame an analysis kept: its own media URL, the video's, and its time in the video (seconds). */
export interface VideoFrameRecord {
  mediaUrl: string;
  videoUrl: string;
  at: number;
}

export interface AuditEntry {
  at: Date;
  by: Types.ObjectId | null;
  byName: string;
  action: string;
  from?: AssessmentStatus;
  to?: AssessmentStatus;
  note?: string;
  changes?: string[];
}

export interface AssessmentRecord {
  _id: Types.ObjectId;
  ownerId: Types.ObjectId;
  title: string;
  vehicleYear?: number;
  vehicleMake?: string;
  vehicleModel?: string;
  vin?: string;
  contactId?: Types.ObjectId;
  notes?: string;
  vendorId?: Types.ObjectId;
  mediaUrls: string[];
  status: AssessmentStatus;
  severity?: Severity;
  estimatedCost?: number;
  aiEstimatedCost?: number;
  costNote?: string;
  lineItems: Record<string, unknown>[];
  damages: FoundDamageRecord[];
  estimateSheet?: Record<string, unknown>;
  damageCategories: string[];
  aiAnalysis?: { confidence: number; description: string; provider: "openai" | "embedded" | "none"; model?: string };
  analysisError?: string;
  videoFrames: VideoFrameRecord[];
  photoHashes: { mediaUrl: string; hash: string; thumb?: string; print?: string; aspect?: number }[];
  photoBands: string[];
  /** `photoName`: the photo's file name as uploaded (absent on warnings from before it was kept). */
  photoWarnings: { mediaUrl: string; photoName?: string; otherAssessmentId: Types.ObjectId; otherTitle: string }[];
  audit: AuditEntry[];
  sentAt?: Date;
  supplementOf?: Types.ObjectId;
  linkPending?: boolean;
  version?: number;
  supersededBy?: Types.ObjectId;
  customerDecision?: { decision: "approved" | "declined"; decidedAt: Date; decisionId: Types.ObjectId; approvedTotalCents?: number };
  /** Absent on records from before revisions: 0 (revisionOf). */
  revision?: number;
  createdAt: Date;
  updatedAt: Date;
}

/** The revision an assessment was read at (0 for a record from before revisions). */
export const revisionOf = (record: Pick<AssessmentRecord, "revision">) => record.revision ?? 0;

/** The filter that matches the assessment only while it is at one of `revisions` (absent counts as 0; none: never). */
export const atRevision = (revisions: number[]) => ({ revision: trusted({ $in: revisions.includes(0) ? [...revisions, null] : revisions }) });

/** Who made a change: a person (id and display name) or, as null, the system. */
export type AuditActor = { id: string; name: string } | null;

export function auditEntry(
  by: AuditActor,
  action: string,
  extra: { from?: AssessmentStatus; to?: AssessmentStatus; note?: string; changes?: string[] } = {},
) {
  return {
    at: new Date(),
    by: by ? new Types.ObjectId(by.id) : null,
    byName: by?.name ?? "System",
    action,
    ...extra,
  };
}

/** Gives the scope's assessments written without a search index theirs (see backfillSearchIndex). */
export const backfillAssessmentSearch = (scope: OwnerScope) => backfillSearchIndex(Assessment, scope, SEARCHED);
/** Every account's assessments written without a search index (the data migration). */
export const backfillAssessmentSearchOfEveryAccount = () => backfillSearchIndexOfEveryAccount(Assessment, SEARCHED);
const OPTIONAL_FIELDS = ["vehicleYear", "vehicleMake", "vehicleModel", "vin", "contactId", "notes", "vendorId"] as const;

export interface AssessmentListFilter {
  scope: OwnerScope;
  q?: string;
  status?: AssessmentStatus;
}

/**
 * The latest version of each estimate: an earlier one (replaced by a supplement) is reached from it,
 * never listed, counted or summed beside it. `null` matches a missing field: what every assessment
 * that never had a supplement holds.
 */
export const LATEST_VERSION = { supersededBy: null } as const;

/** Owner equality first, latest and status next (the leading keys of the indexes), then the search words. */
const listFilter = ({ scope, q, status }: AssessmentListFilter) => ({
  ...ownerFilter(scope),
  ...LATEST_VERSION,
  ...(status ? { status } : {}),
  ...tokenSearchFilter(q),
});

/** Before a search: records written without a search index get it (one indexed read when none is missing). */
const searchable = async ({ scope, q }: AssessmentListFilter) => {
  if (q?.trim()) await backfillAssessmentSearch(scope);
};

/**
 * One page of the scope's assessments matching the search and status, newest first (all without a
 * limit); `fields` reads only those (and `_id`), for a list that shows a few.
 */
export async function findAssessments({
  skip = 0,
  limit,
  fields,
  cursor,
  since,
  ...filter
}: AssessmentListFilter & { skip?: number; limit?: number; fields?: readonly (keyof AssessmentRecord)[]; cursor?: ListCursor; since?: Date }) {
  await searchable(filter);
  let query = Assessment.find({ ...listFilter(filter), ...keysetFilter(cursor, since) }).sort(keysetSort(cursor, since)).skip(skip);
  if (fields) query = query.select(Object.fromEntries(fields.map((field) => [field, 1])));
  return inListOrder(cursor, await (limit === undefined ? query : query.limit(limit)).lean<AssessmentRecord[]>());
}

/** How many of the scope's assessments match the search and status (changed since `since`). */
export async function countAssessments({ since, ...filter }: AssessmentListFilter & { since?: Date }) {
  await searchable(filter);
  return Assessment.countDocuments({ ...listFilter(filter), ...changedSince(since) });
}

/** The scope's assessments per status, each count read from the `{ownerId, status}` index. */
export async function countAssessmentsByStatus({ scope }: { scope: OwnerScope }) {
  const counts = await Promise.all(
    ASSESSMENT_STATUSES.map((status) => Assessment.countDocuments({ ...ownerFilter(scope), ...LATEST_VERSION, status })),
  );
  return perStatus((status) => counts[ASSESSMENT_STATUSES.indexOf(status)]);
}

/** Aggregates are not cast by mongoose: the owner id must be an ObjectId there. */
const aggregateOwner = (scope: OwnerScope) => ("ownerId" in scope ? { ownerId: new Types.ObjectId(scope.ownerId) } : {});

/** Whether a field holds a value (missing and null alike are not), as an aggregation expression. */
const has = (field: string) => ({ $ne: [{ $ifNull: [`$${field}`, null] }, null] });

/**
 * Over the scope's assessments in one status, in one pass over that status's entries of the
 * `{ownerId, status, estimatedCost, aiEstimatedCost}` index (no document is read): the sum of their estimated costs (TBD adds
 * nothing), how many have both an AI estimate and a final cost, and how many of those kept the final
 * cost within `tolerance` (0.15) of the AI's. Compared in hundredths with a hair of slack, so 115.00
 * against 100.00 counts as within 15 % despite binary fractions.
 */
export async function costFigures({ scope, status, tolerance }: { scope: OwnerScope; status: AssessmentStatus; tolerance: number }) {
  const bothCosts = { $and: [has("estimatedCost"), has("aiEstimatedCost")] };
  const withinTolerance = {
    $lte: [
      { $multiply: [{ $abs: { $subtract: ["$estimatedCost", "$aiEstimatedCost"] } }, 100] },
      { $add: [{ $multiply: ["$aiEstimatedCost", tolerance * 100] }, 1e-6] },
    ],
  };
  const [row] = await Assessment.aggregate<{ total: number; compared: number; within: number }>([
    { $match: { ...aggregateOwner(scope), ...LATEST_VERSION, status } },
    {
      $group: {
        _id: null,
        total: { $sum: "$estimatedCost" },
        compared: { $sum: { $cond: [bothCosts, 1, 0] } },
        within: { $sum: { $cond: [{ $and: [bothCosts, withinTolerance] }, 1, 0] } },
      },
    },
  ]);
  return { total: row?.total ?? 0, compared: row?.compared ?? 0, within: row?.within ?? 0 };
}

export async function findAssessment({ scope, id }: { scope: OwnerScope; id: string }) {
  if (!isObjectIdHex(id)) return null;
  return Assessment.findOne({ _id: id, ...ownerFilter(scope) }).lean<AssessmentRecord>();
}

export const newAssessmentId = () => new Types.ObjectId();

/** A new assessment of `ownerId` in status uploaded, with its "created" audit entry. */
export async function insertAssessment({
  _id,
  ownerId,
  input,
  mediaUrls,
  by,
}: {
  _id: Types.ObjectId;
  ownerId: string;
  input: Omit<AssessmentCreateInput, "mediaUrls">;
  mediaUrls: string[];
  by: AuditActor;
}) {
  const doc = await Assessment.create({
    ...input,
    _id,
    ownerId,
    mediaUrls,
    status: "uploaded",
    audit: [auditEntry(by, "created", { to: "uploaded" })],
  });
  return doc.toObject<AssessmentRecord>();
}

/** Replaces the editable fields (an optional one left out is removed) with an "updated" audit entry; null when not in scope. */
export async function replaceAssessmentFields({
  scope,
  id,
  input,
  by,
  revisions,
}: {
  scope: OwnerScope;
  id: string;
  input: AssessmentUpdateInput;
  by: AuditActor;
  /** Only while the assessment is at one of these (If-Match); absent: whatever its revision. */
  revisions?: number[];
}) {
  if (!isObjectIdHex(id)) return null;
  const $set: Record<string, unknown> = { title: input.title };
  const $unset: Record<string, 1> = {};
  for (const field of OPTIONAL_FIELDS) {
    if (input[field] === undefined) $unset[field] = 1;
    else $set[field] = input[field];
  }
  // Every searched field is written here: the search index follows from them alone.
  Object.assign($set, searchIndexOf($set, SEARCHED));
  return Assessment.findOneAndUpdate(
    { _id: id, ...ownerFilter(scope), ...(revisions ? atRevision(revisions) : {}) },
    { $set, ...(Object.keys($unset).length > 0 ? { $unset } : {}), $push: { audit: auditEntry(by, "updated") } },
    { returnDocument: "after", runValidators: true },
  ).lean<AssessmentRecord>();
}

/**
 * Gives an assessment without a customer this one (sending it to a contact from Compose): the
 * condition "no contact yet" is in the filter, so a customer chosen meanwhile is never replaced.
 */
export async function assignContactIfNone({ ownerId, id, contactId, by, name }: { ownerId: string; id: string; contactId: string; by: AuditActor; name: string }) {
  if (!isObjectIdHex(id)) return null;
  return Assessment.findOneAndUpdate(
    { _id: id, ownerId, contactId: null },
    { $set: { contactId }, $push: { audit: auditEntry(by, "customer assigned", { changes: [`Customer: none → ${name}`] }) } },
    { returnDocument: "after" },
  ).lean<AssessmentRecord>();
}

/**
 * Makes `contactId` the customer of an assessment whose customer is still `from` (the one the sender
 * saw): the condition is in the filter, so a change made meanwhile is never overwritten; the audit
 * entry says who, when, and from whom to whom, in the same write. Null: not there, or changed meanwhile.
 */
export async function changeCustomer({ ownerId, id, from, contactId, by, change }: { ownerId: string; id: string; from: string; contactId: string; by: AuditActor; change: string }) {
  if (!isObjectIdHex(id)) return null;
  return Assessment.findOneAndUpdate(
    { _id: id, ownerId, contactId: from },
    { $set: { contactId }, $push: { audit: auditEntry(by, "customer changed", { note: "Made the recipient of the estimate email its customer", changes: [change] }) } },
    { returnDocument: "after" },
  ).lean<AssessmentRecord>();
}

/**
 * Moves an assessment from one of `from` to `to` atomically: the status condition is part of the
 * update's filter, so two callers racing (a person approving while the worker re-analyses) cannot
 * both win, and the audit entry (who, when, from, to) is pushed in the same write. `set`/`unset`
 * change other fields with it (the analysis result, `sentAt`…). Null: not in scope, or not in a
 * `from` status. The analysis worker passes `{ allOwners: true }`.
 * With several `from` statuses each is tried in turn, one atomic update apiece, so the entry records
 * the status the assessment actually left (a `$in` filter could not tell which it matched).
 */
export async function transitionAssessment({
  scope,
  id,
  from,
  to,
  by,
  action,
  note,
  set = {},
  unset = [],
}: {
  scope: OwnerScope;
  id: string;
  from: readonly AssessmentStatus[];
  to: AssessmentStatus;
  by: AuditActor;
  action: string;
  note?: string;
  set?: Record<string, unknown>;
  unset?: readonly string[];
}) {
  if (!isObjectIdHex(id)) return null;
  for (const status of from) {
    const record = await Assessment.findOneAndUpdate(
      { _id: id, ...ownerFilter(scope), status },
      {
        $set: { ...set, status: to },
        ...(unset.length > 0 ? { $unset: Object.fromEntries(unset.map((field) => [field, 1])) } : {}),
        $push: { audit: auditEntry(by, action, { from: status, to, ...(note ? { note } : {}) }) },
      },
      { returnDocument: "after", runValidators: true },
    ).lean<AssessmentRecord>();
    if (record) return record;
  }
  return null;
}

/** The owner's assessments created before `before` with a photo hash sharing one of `bands` (candidates for a reused photo), newest first. */
export async function findAssessmentsSharingPhotoBands({
  ownerId,
  bands,
  exceptId,
  before,
  limit,
}: {
  ownerId: string;
  bands: string[];
  exceptId: string;
  before: Date;
  limit: number;
}) {
  if (bands.length === 0) return [];
  return Assessment.find({ ownerId, photoBands: trusted({ $in: bands }), _id: trusted({ $ne: exceptId }), createdAt: trusted({ $lt: before }) })
    .select({ title: 1, photoHashes: 1, supersededBy: 1 })
    .sort({ createdAt: -1 })
    .limit(limit)
    .lean<Pick<AssessmentRecord, "_id" | "title" | "photoHashes" | "supersededBy">[]>();
}

/**
 * A window of the account's assessments before `before` (newest first): those in it whose photo
 * prints predate colour-aware matching (no `print`), and where the next window ends (null: this was the
 * last). A window is `size` entries of the owner's createdAt index, so each read of this one-time
 * migration is bounded whatever the account's history (issue 38: a filter no index led with read the
 * whole collection under the engine's lock).
 */
export async function findOldPhotoPrintsInWindow({ ownerId, before, size }: { ownerId: Types.ObjectId; before: Date | null; size: number }) {
  const [edge] = await Assessment.find({ ownerId, ...(before ? { createdAt: trusted({ $lt: before }) } : {}) })
    .select({ _id: 0, createdAt: 1 })
    .sort({ createdAt: -1 })
    .skip(size - 1)
    .limit(1)
    .lean<{ createdAt: Date }[]>();
  const from = edge?.createdAt ?? null;
  const range = { ...(before ? { $lt: before } : {}), ...(from ? { $gte: from } : {}) };
  const records = await Assessment.find({
    ownerId,
    ...(before || from ? { createdAt: trusted(range) } : {}),
    "photoHashes.0": trusted({ $exists: true }),
    "photoHashes.print": trusted({ $exists: false }),
  })
    .select({ ownerId: 1, photoHashes: 1, videoFrames: 1 })
    .lean<Pick<AssessmentRecord, "_id" | "ownerId" | "photoHashes" | "videoFrames">[]>();
  return { records, next: from };
}

/** Replaces an assessment's photo prints and their index keys (a migration: updatedAt stays). */
export async function setPhotoPrints(id: Types.ObjectId, photoHashes: AssessmentRecord["photoHashes"], photoBands: string[]) {
  await Assessment.updateOne({ _id: id }, { $set: { photoHashes, photoBands } }, { timestamps: false });
}

/**
 * Puts the customer's decision on the version, only if it is still the current one (no
 * `supersededBy`) and undecided: one conditional write, so a decision and a supplement's mark of
 * the same document are ordered by the database (docs/decisions/0035). False: superseded or decided.
 * Its updatedAt moves, so a sync sees the decision (Sent Today reads sentAt, docs/decisions/0056).
 */
export async function claimCustomerDecision({
  ownerId,
  record,
  decision,
}: {
  ownerId: Types.ObjectId;
  record: Pick<AssessmentRecord, "_id" | "status" | "sentAt" | "updatedAt">;
  decision: NonNullable<AssessmentRecord["customerDecision"]>;
}) {
  const { modifiedCount } = await Assessment.updateOne(
    { _id: record._id, ownerId, ...LATEST_VERSION, customerDecision: null },
    { $set: { customerDecision: decision, ...keptSentDay(record) } },
  );
  return modifiedCount === 1;
}

/** Undoes a claim whose decision record could not be written (the claim names its decision). */
export async function releaseCustomerDecision({ ownerId, id, decisionId }: { ownerId: Types.ObjectId; id: Types.ObjectId; decisionId: Types.ObjectId }) {
  await Assessment.updateOne({ _id: id, ownerId, "customerDecision.decisionId": decisionId }, { $unset: { customerDecision: 1 } });
}

/** The current version of the estimate a version belongs to (following `supersededBy`; a chain is short). */
export async function findCurrentVersion({ ownerId, record }: { ownerId: Types.ObjectId; record: Pick<AssessmentRecord, "_id" | "supersededBy"> }) {
  let current: Pick<AssessmentRecord, "_id" | "supersededBy"> | null = record;
  for (let hops = 0; current?.supersededBy && hops < 50; hops++) {
    current = await Assessment.findOne({ _id: current.supersededBy, ownerId }).select({ _id: 1, supersededBy: 1 }).lean<Pick<AssessmentRecord, "_id" | "supersededBy">>();
  }
  return current && !current.supersededBy ? current : null;
}

/**
 * Total Revenue (dashboard): the estimated costs of the scope's latest versions that are sent and not
 * declined by the customer, or approved by the customer whatever their status (an estimate only saved
 * to the mail drop can be approved too). TBD adds nothing.
 */
export async function sumRevenue({ scope }: { scope: OwnerScope }) {
  const [row] = await Assessment.aggregate<{ approvedCents: number; whole: number }>([
    {
      $match: {
        ...aggregateOwner(scope),
        ...LATEST_VERSION,
        $or: [{ status: "sent", "customerDecision.decision": { $ne: "declined" } }, { "customerDecision.decision": "approved" }],
      },
    },
    // An approval that left optional lines out counts what it approved (docs/decisions/0063).
    {
      $group: {
        _id: null,
        approvedCents: { $sum: "$customerDecision.approvedTotalCents" },
        whole: { $sum: { $cond: [{ $eq: [{ $ifNull: ["$customerDecision.approvedTotalCents", null] }, null] }, "$estimatedCost", 0] } },
      },
    },
  ]);
  return (Math.round((row?.whole ?? 0) * 100) + (row?.approvedCents ?? 0)) / 100;
}

/** The titles of the scope's assessments among `ids`, by id. */
export async function assessmentTitles({ scope, ids }: { scope: OwnerScope; ids: Types.ObjectId[] }) {
  if (ids.length === 0) return new Map<string, string>();
  const found = await Assessment.find({ ...ownerFilter(scope), _id: trusted({ $in: ids }) })
    .select({ title: 1 })
    .lean<{ _id: Types.ObjectId; title: string }[]>();
  return new Map(found.map((a) => [String(a._id), a.title]));
}

/**
 * The version a deleted one had replaced is the latest again: back in the lists, a change a sync sees.
 */
async function restoreReplaced(removed: AssessmentRecord) {
  const replaced = await Assessment.find({ ownerId: removed.ownerId, supersededBy: removed._id }).select({ status: 1, sentAt: 1, updatedAt: 1 }).lean<Pick<AssessmentRecord, "_id" | "status" | "sentAt" | "updatedAt">[]>();
  for (const doc of replaced) {
    const kept = keptSentDay(doc);
    await Assessment.updateOne({ _id: doc._id, supersededBy: removed._id }, { $unset: { supersededBy: 1 }, ...(kept.sentAt ? { $set: kept } : {}) });
  }
}

/**
 * An estimate sent before `sentAt` was kept is counted in Sent Today on the day of its last update:
 * a write that moves updatedAt (a decision, a restore) gives it that day as its sentAt first.
 */
const keptSentDay = (record: Pick<AssessmentRecord, "status" | "sentAt" | "updatedAt">): { sentAt?: Date } =>
  record.status === "sent" && !record.sentAt ? { sentAt: record.updatedAt } : {};

/** Deletes one version; the version it had replaced is the latest again. */
export async function removeAssessment({ scope, id }: { scope: OwnerScope; id: string }) {
  if (!isObjectIdHex(id)) return null;
  const removed = await Assessment.findOneAndDelete({ _id: id, ...ownerFilter(scope) }).lean<AssessmentRecord>();
  await recordDeletion("assessment", removed);
  if (removed) await restoreReplaced(removed);
  return removed;
}

/** Which of `urls` another assessment of the owner still shows, as a medium or a video frame (media are their uploader's alone). */
export async function mediaUrlsInUse({ ownerId, urls, exceptId }: { ownerId: string; urls: string[]; exceptId: string }) {
  if (urls.length === 0) return new Set<string>();
  const others = await Assessment.find({
    ownerId,
    _id: trusted({ $ne: new Types.ObjectId(exceptId) }),
    $or: [{ mediaUrls: trusted({ $in: urls }) }, { "videoFrames.mediaUrl": trusted({ $in: urls }) }],
  })
    .select({ mediaUrls: 1, videoFrames: 1 })
    .lean<{ mediaUrls: string[]; videoFrames?: VideoFrameRecord[] }[]>();
  const wanted = new Set(urls);
  return new Set(others.flatMap((o) => [...o.mediaUrls, ...(o.videoFrames ?? []).map((f) => f.mediaUrl)].filter((url) => wanted.has(url))));
}

/** Every assessment of an account (the account is being deleted; its uploads go with deleteUploadsOf). */
export async function removeAssessmentsOf({ ownerId }: { ownerId: string }) {
  await deleteInBatches(Assessment, { ownerId });
  // The account's dashboard counters go with this last, empty delete (the tally's hook).
  await Assessment.deleteMany({ ownerId });
}
