import { trusted, Types } from "mongoose";
import type { AssessmentStatus } from "~/schemas/assessment";
import { Assessment, auditEntry, type AssessmentRecord, type AuditActor } from "./assessment.server";
import { isObjectIdHex, ownerFilter, type OwnerScope } from "./owner-scope.server";

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
    { $match: aggregateOwner(scope) },
    { $group: { _id: null, total: { $sum: "$estimatedCost" } } },
  ]);
  return Math.round((row?.total ?? 0) * 100) / 100;
}

/** How many of the scope's assessments are sent and were last updated at or after `since`. */
export function countSentSince({ scope, since }: { scope: OwnerScope; since: Date }) {
  return Assessment.countDocuments({ ...ownerFilter(scope), status: "sent", updatedAt: trusted({ $gte: since }) });
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
 * Writes an edit of the estimate as it was read (its status and updatedAt are part of the filter):
 * a concurrent change (another edit, the analysis worker, a send) makes it find nothing, so no edit
 * is applied over a version its author never saw. Null: not in scope or changed meanwhile.
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
    { _id: current._id, ...ownerFilter(scope), status: current.status, updatedAt: current.updatedAt },
    {
      $set: { ...change.set, status: change.to },
      ...(change.unset.length > 0 ? { $unset: Object.fromEntries(change.unset.map((field) => [field, 1])) } : {}),
      $push: { audit: entry },
    },
    { returnDocument: "after", runValidators: true },
  ).lean<AssessmentRecord>();
}

/** A supplement of a sent estimate: a new assessment (status reviewed) with the sent one's facts and the edit. */
export async function insertSupplement({ sent, change, by }: { sent: AssessmentRecord; change: EstimateChange; by: AuditActor }) {
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
    version: (sent.version ?? 1) + 1,
    audit: [
      auditEntry(by, `supplement of version ${sent.version ?? 1}`, {
        to: change.to,
        ...(change.note ? { note: change.note } : {}),
        changes: change.changes,
      }),
    ],
  });
  return doc.toObject() as unknown as AssessmentRecord;
}

/** The supplements of an estimate (newest first): id, version and status. */
export async function findSupplements({ scope, id }: { scope: OwnerScope; id: string }) {
  if (!isObjectIdHex(id)) return [];
  return Assessment.find({ ...ownerFilter(scope), supplementOf: id })
    .select({ version: 1, status: 1 })
    .sort({ createdAt: -1, _id: -1 })
    .lean<Pick<AssessmentRecord, "_id" | "version" | "status">[]>();
}
