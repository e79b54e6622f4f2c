import { Schema, trusted, Types } from "mongoose";
import { defineModel, type RecordOf } from "./define-model.server";
import { isObjectIdHex, ownerFilter, type OwnerScope } from "./owner-scope.server";
import { deleteInBatches } from "./batch-delete.server";
import { ESTIMATE_LANGUAGES } from "~/schemas/estimate-sheet";

// The customer's links to one version of an estimate (docs/decisions/0019). The token itself is never
// stored: only its SHA-256, so a copy of the database opens no estimate.

const estimateLinkSchema = new Schema(
  {
    ownerId: { type: Schema.Types.ObjectId, required: true, immutable: true },
    /** The version (assessment document) the link shows, and nothing else. */
    assessmentId: { type: Schema.Types.ObjectId, required: true, immutable: true },
    /** The first version of the estimate: the chain whose later versions supersede this link. */
    rootId: { type: Schema.Types.ObjectId, required: true, immutable: true },
    version: { type: Number, required: true, min: 1, immutable: true },
    tokenHash: { type: String, required: true, immutable: true },
    /**
     * An emailed link's token sealed with the server's secret (secret-box): only so that an older
     * version's page can point the customer to the link they were sent for the newer one.
     */
    tokenSealed: { type: String, immutable: true, allowNull: false },
    /** Database clock. */
    createdAt: { type: Date, required: true, immutable: true },
    expiresAt: { type: Date, required: true, immutable: true },
    via: { type: String, enum: ["email", "api"], required: true },
    createdBy: { type: Schema.Types.ObjectId, default: null },
    emailLogId: { type: Schema.Types.ObjectId, allowNull: false },
    /** Whom an emailed link was sent to: the page, the decision's notice and webhooks name this person. */
    recipient: {
      type: new Schema({ contactId: Schema.Types.ObjectId, firstName: String, lastName: String, email: String }, { _id: false }),
      default: undefined,
      immutable: true,
    },
    /** The PDF served by the link, stored when it was created: what the customer sees is what was hashed. */
    pdfKey: { type: String, required: true },
    pdfSha256: { type: String, required: true },
    pdfBytes: { type: Number, required: true },
    /** The terms the PDF prints (variables filled in): the page shows them above the approval. Links made before 2026-11-29 have none. */
    terms: { type: String, immutable: true, allowNull: false },
    /** The language the PDF is printed in: the page shows its dates and amounts the same way. Older links have none. */
    language: { type: String, enum: ESTIMATE_LANGUAGES, immutable: true, allowNull: false },
    revokedAt: { type: Date, allowNull: false },
    /** A later version of the estimate got a link of its own. */
    supersededAt: { type: Date, allowNull: false },
    firstViewedAt: { type: Date, allowNull: false },
    lastViewedAt: { type: Date, allowNull: false },
    views: { type: Number, default: 0 },
  },
  { timestamps: false },
);
estimateLinkSchema.index({ tokenHash: 1 }, { unique: true });
// The links of an estimate (all its versions), newest first; supersession walks the same entries.
estimateLinkSchema.index({ ownerId: 1, rootId: 1, createdAt: -1 });
// The newest link of one version (an older version's page points to it).
estimateLinkSchema.index({ assessmentId: 1, createdAt: -1 });

export const EstimateLink = defineModel("EstimateLink", estimateLinkSchema);

export type EstimateLinkRecord = RecordOf<typeof estimateLinkSchema>;

export interface LinkRecipient {
  contactId: Types.ObjectId;
  firstName: string;
  lastName: string;
  email: string;
}

export async function insertEstimateLink(fields: Omit<EstimateLinkRecord, "views" | "revokedAt" | "supersededAt" | "firstViewedAt" | "lastViewedAt">): Promise<EstimateLinkRecord> {
  const doc = await EstimateLink.create(fields);
  return doc.toObject();
}

/** Marks the links of the estimate's earlier versions superseded (a later version was sent). */
export async function supersedeEarlierLinks({ ownerId, rootId, version, at }: { ownerId: Types.ObjectId; rootId: Types.ObjectId; version: number; at: Date }) {
  await EstimateLink.updateMany(
    { ownerId, rootId, version: trusted({ $lt: version }), supersededAt: null },
    { $set: { supersededAt: at } },
  );
}

/** The newest live emailed link of one version (the one an older version's page points to); null if none was sent. */
export function findSentLinkOf({ ownerId, assessmentId, now }: { ownerId: Types.ObjectId; assessmentId: Types.ObjectId; now: Date }) {
  return EstimateLink.findOne({
    ownerId,
    assessmentId,
    via: "email",
    tokenSealed: trusted({ $exists: true }),
    revokedAt: null,
    supersededAt: null,
    expiresAt: trusted({ $gt: now }),
  })
    .sort({ createdAt: -1 })
    .lean<EstimateLinkRecord>();
}

export function findLinkByTokenHash(tokenHash: string) {
  return EstimateLink.findOne({ tokenHash }).lean<EstimateLinkRecord>();
}

/** The links of an estimate (every version of it), newest first. */
export function findLinksOfEstimate({ scope, rootId }: { scope: OwnerScope; rootId: Types.ObjectId }) {
  return EstimateLink.find({ ...ownerFilter(scope), rootId }).sort({ createdAt: -1 }).limit(200).lean<EstimateLinkRecord[]>();
}

/** Revokes one link of the estimate in scope; null when it is not there. Revoking twice keeps the first time. */
export async function revokeLink({ scope, rootId, id, at }: { scope: OwnerScope; rootId: Types.ObjectId; id: string; at: Date }) {
  if (!isObjectIdHex(id)) return null;
  const filter = { _id: id, ...ownerFilter(scope), rootId };
  await EstimateLink.updateOne({ ...filter, revokedAt: null }, { $set: { revokedAt: at } });
  return EstimateLink.findOne(filter).lean<EstimateLinkRecord>();
}

/** Records an opening of the link in one write: the first time once ($min keeps the earliest), the last every time. */
export async function recordLinkView({ id, at }: { id: Types.ObjectId; at: Date }) {
  await EstimateLink.updateOne({ _id: id }, { $min: { firstViewedAt: at }, $set: { lastViewedAt: at }, $inc: { views: 1 } });
}

export async function removeEstimateLinksOf({ ownerId }: { ownerId: string }) {
  await deleteInBatches(EstimateLink, { ownerId });
}

/** The stored PDFs of an account's links (the account is being deleted). */
export function linkPdfKeysOf({ ownerId }: { ownerId: string }) {
  return EstimateLink.find({ ownerId }).select({ pdfKey: 1 }).lean<{ pdfKey: string }[]>();
}

export const newLinkId = () => new Types.ObjectId();
