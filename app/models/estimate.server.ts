import { trusted, Types } from "mongoose";
import type { AssessmentStatus } from "~/schemas/assessment";
import { Assessment, atRevision, auditEntry, LATEST_VERSION, revisionOf, type AssessmentRecord, type AuditActor } from "./assessment.server";
import { isObjectIdHex, ownerFilter, type OwnerScope } from "./owner-scope.server";
import { everyAccountId } from "./user.server";

// The estimate side of assessments: the Estimates screen's summary, an edit as one conditional
// write, supplements of sent estimates.

/** Aggregates are not cast by mongoose: the owner id must be an ObjectId there. */
const aggregateOwner = (scope: OwnerScope) => ("ownerId" in scope ? { ownerId: new Types.ObjectId(scope.ownerId) } : {});

/**
 * The sum of the scope's estimated costs in dollars (TBD adds nothing), computed by the database: the
 * `{ownerId, estimatedCost}` index holds both fields, so the group runs on index entries (MongoDB's
 * covered plan, and the embedded engine's) without reading the assessments.
 */
export async function sumEstimatedCosts({ scope }: { scope: OwnerScope }) {
  const [row] = await Assessment.aggregate<{ total: number }>([
    { $match: { ...aggregateOwner(scope), ...LATEST_VERSION } },
    { $group: { _id: null, total: { $sum: "$estimatedCost" } } },
  ]);
  return Math.round((row?.total ?? 0) * 100) / 100;
}

/** How many of the scope's assessments are sent and were sent at or after `since` (as tallyOf says). */
export async function countSentSince({ scope, since }: { scope: OwnerScope; since: Date }) {
  const sent = { ...ownerFilter(scope), ...LATEST_VERSION, status: "sent" as const };
  // Two counts on index entries rather than one `$or`, which the embedded engine answers by a scan.
  const [kept, before] = await Promise.all([
    Assessment.countDocuments({ ...sent, sentAt: trusted({ $gte: since }) }),
    Assessment.countDocuments({ ...sent, sentAt: null, updatedAt: trusted({ $gte: since }) }),
  ]);
  return kept + before;
}

export interface EstimateChange {
  set: Record<string, unknown>;
  unset: string[];
  /** The status after the edit (the same one when it does not move). */
  to: AssessmentStatus;
  note?: string;
  changes: string[];
}

/**
 * Writes an edit of the estimate as it was read (its revision is part of the filter): a concurrent
 * change (another edit, the analysis worker, a send, another instance) makes it find nothing, so no
 * edit is applied over a version its author never saw. Null: not in scope or changed meanwhile.
 */
export async function writeEstimateEdit({
  scope,
  current,
  change,
  by,
}: {
  scope: OwnerScope;
  current: AssessmentRecord;
  change: EstimateChange;
  by: AuditActor;
}) {
  const moved = change.to !== current.status;
  const entry = auditEntry(by, "estimate edited", {
    ...(moved ? { from: current.status, to: change.to } : {}),
    ...(change.note ? { note: change.note } : {}),
    changes: change.changes,
  });
  return Assessment.findOneAndUpdate(
    { _id: current._id, ...ownerFilter(scope), status: current.status, ...atRevision([revisionOf(current)]) },
    {
      $set: { ...change.set, status: change.to },
      ...(change.unset.length > 0 ? { $unset: Object.fromEntries(change.unset.map((field) => [field, 1])) } : {}),
      $push: { audit: entry },
    },
    { returnDocument: "after", runValidators: true },
  ).lean<AssessmentRecord>();
}

/**
 * A supplement of a sent estimate: a new assessment (status reviewed) with the sent one's facts and
 * the edit, which then replaces it (`supersededBy`). Inserted first (`linkPending`), marked after:
 * a crash between the two leaves both listed until the start-up repair links them
 * (linkPendingSupplements), never a version hidden with nothing in its place. Null when another
 * supplement replaced it first (the new one is removed).
 */
export async function insertSupplement({
  sent,
  change,
  by,
  readAt,
}: {
  sent: AssessmentRecord;
  change: EstimateChange;
  by: AuditActor;
  /** The sent version must still be at the revision the editor read (If-Match); absent: any. */
  readAt?: number;
}) {
  const copied = {
    title: sent.title,
    vehicleYear: sent.vehicleYear,
    vehicleMake: sent.vehicleMake,
    vehicleModel: sent.vehicleModel,
    vin: sent.vin,
    contactId: sent.contactId,
    notes: sent.notes,
    vendorId: sent.vendorId,
    mediaUrls: sent.mediaUrls,
    videoFrames: sent.videoFrames,
    severity: sent.severity,
    estimatedCost: sent.estimatedCost,
    aiEstimatedCost: sent.aiEstimatedCost,
    costNote: sent.costNote,
    aiAnalysis: sent.aiAnalysis,
  };
  const fields = Object.fromEntries(
    Object.entries({ ...copied, ...change.set }).filter(([key, value]) => value !== undefined && !change.unset.includes(key)),
  );
  const doc = await Assessment.create({
    ...fields,
    ownerId: sent.ownerId,
    status: change.to,
    supplementOf: sent._id,
    linkPending: true,
    version: (sent.version ?? 1) + 1,
    audit: [
      auditEntry(by, `supplement of version ${sent.version ?? 1}`, {
        to: change.to,
        ...(change.note ? { note: change.note } : {}),
        changes: change.changes,
      }),
    ],
  });
  // The sent version stays as it was sent, its updatedAt too: it leaves the lists (its supplement
  // arrives in a sync and names it among its earlier versions).
  const { modifiedCount } = await Assessment.updateOne(
    { _id: sent._id, ...LATEST_VERSION, ...(readAt === undefined ? {} : atRevision([readAt])) },
    { $set: { supersededBy: doc._id } },
    { timestamps: false },
  );
  if (modifiedCount !== 1) {
    await Assessment.deleteOne({ _id: doc._id });
    return null;
  }
  // Read back as it now is: the flag gone, its revision moved on by this write.
  return Assessment.findOneAndUpdate({ _id: doc._id }, { $unset: { linkPending: 1 } }, { returnDocument: "after", timestamps: false }).lean<AssessmentRecord>();
}

/**
 * The start-up repair of insertSupplement's crash window: supplements still `linkPending` (found
 * through their sparse index, never by reading the rest) mark the version they replace, as
 * linkSupplements does, and lose the flag.
 */
export async function linkPendingSupplements() {
  let changed = 0;
  for (;;) {
    const page = await Assessment.find({ linkPending: true })
      .select({ _id: 1, ownerId: 1, supplementOf: 1 })
      .limit(100)
      .lean<{ _id: Types.ObjectId; ownerId: Types.ObjectId; supplementOf: Types.ObjectId }[]>();
    for (const supplement of page) {
      const { modifiedCount } = await Assessment.updateOne(
        { _id: supplement.supplementOf, ownerId: supplement.ownerId, ...LATEST_VERSION },
        { $set: { supersededBy: supplement._id } },
        { timestamps: false },
      );
      changed += modifiedCount;
      await Assessment.updateOne({ _id: supplement._id }, { $unset: { linkPending: 1 } }, { timestamps: false });
    }
    if (page.length < 100) return changed;
  }
}

/** The earlier versions an estimate replaced, newest first (a chain of supplements is short). */
export async function findEarlierVersions({ scope, record, limit = 50 }: { scope: OwnerScope; record: Pick<AssessmentRecord, "supplementOf">; limit?: number }) {
  const versions: Pick<AssessmentRecord, "_id" | "version" | "status">[] = [];
  let previous = record.supplementOf;
  while (previous && versions.length < limit) {
    const found = await Assessment.findOne({ _id: previous, ...ownerFilter(scope) })
      .select({ version: 1, status: 1, supplementOf: 1 })
      .lean<Pick<AssessmentRecord, "_id" | "version" | "status" | "supplementOf">>();
    if (!found) break;
    versions.push({ _id: found._id, version: found.version, status: found.status });
    previous = found.supplementOf;
  }
  return versions;
}

/** Below every id: the first bound of a walk over an id-valued key (a missing key sorts before it). */
const LOWEST_ID = new Types.ObjectId("000000000000000000000000");

/**
 * Every supplement's sent version marked replaced by it (data from before `supersededBy`, an
 * import): once per database (a data migration) and per import. Account by account, through the
 * index that leads with the owner and then `supplementOf`, so the database reads only supplements
 * (issue 38: a filter no index led with read the whole collection under the engine's lock). A version
 * is marked by the first of its supplements in id order; one already marked is left as it is.
 */
export async function linkSupplements({ batch = 500, ownerId }: { batch?: number; ownerId?: string } = {}) {
  const owners = ownerId ? [ownerId] : await everyAccountId();
  let changed = 0;
  for (const owner of owners) {
    let after = LOWEST_ID;
    for (let first = true; ; first = false) {
      const page = await Assessment.find({ ownerId: owner, supplementOf: trusted({ [first ? "$gte" : "$gt"]: after }) })
        .select({ _id: 1, supplementOf: 1 })
        .sort({ supplementOf: 1, _id: 1 })
        .limit(batch)
        .lean<{ _id: Types.ObjectId; supplementOf: Types.ObjectId }[]>();
      for (const [i, supplement] of page.entries()) {
        // Only the first supplement of a version can mark it (the update requires the mark unset).
        if (i > 0 && page[i - 1].supplementOf.equals(supplement.supplementOf)) continue;
        const { modifiedCount } = await Assessment.updateOne(
          { _id: supplement.supplementOf, ownerId: owner, ...LATEST_VERSION },
          { $set: { supersededBy: supplement._id } },
          { timestamps: false },
        );
        changed += modifiedCount;
      }
      if (page.length < batch) break;
      // The next page starts after this page's last version (its later supplements cannot mark it).
      after = page[page.length - 1].supplementOf;
    }
  }
  return changed;
}

/** The supplements of an estimate (newest first): id, version and status. */
export async function findSupplements({ scope, id }: { scope: OwnerScope; id: string }) {
  if (!isObjectIdHex(id)) return [];
  return Assessment.find({ ...ownerFilter(scope), supplementOf: id })
    .select({ version: 1, status: 1 })
    .sort({ createdAt: -1, _id: -1 })
    .lean<Pick<AssessmentRecord, "_id" | "version" | "status">[]>();
}
