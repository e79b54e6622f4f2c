import { Schema, Types } from "mongoose";
import { defineModel, type RecordOf } from "./define-model.server";
import { ownerFilter, type OwnerScope } from "./owner-scope.server";
import { errorCode } from "~/utils/db-errors.server";
import { deleteInBatches } from "./batch-delete.server";

// The customer's answer to one version of an estimate, kept as evidence (docs/decisions/0019):
// inserted once and never changed. The model refuses every update and single deletion; only an
// account's deletion removes its decisions (with everything else it owns).

export const CUSTOMER_DECISIONS = ["approved", "declined"] as const;
type CustomerDecisionKind = (typeof CUSTOMER_DECISIONS)[number];

const customerDecisionSchema = new Schema(
  {
    ownerId: { type: Schema.Types.ObjectId, required: true, immutable: true },
    /** The version decided on: one decision per version (unique). */
    assessmentId: { type: Schema.Types.ObjectId, required: true, immutable: true },
    rootId: { type: Schema.Types.ObjectId, required: true, immutable: true },
    version: { type: Number, required: true, immutable: true },
    linkId: { type: Schema.Types.ObjectId, required: true, immutable: true },
    decision: { type: String, enum: CUSTOMER_DECISIONS, required: true, immutable: true },
    /** Approve: the full name the customer typed as signature, and the terms tick. */
    signatureName: { type: String, immutable: true, allowNull: false },
    termsAccepted: { type: Boolean, immutable: true, allowNull: false },
    /** Decline: the optional reason. */
    reason: { type: String, immutable: true, allowNull: false },
    /** Database clock. */
    decidedAt: { type: Date, required: true, immutable: true },
    ip: { type: String, required: true, immutable: true },
    userAgent: { type: String, default: "", immutable: true },
    /** SHA-256 (hex) of the PDF the link served: the document the customer saw. */
    pdfSha256: { type: String, required: true, immutable: true },
    /** The amount of the version decided on (dollars; null = TBD), as it stood. */
    estimatedCost: { type: Number, default: null, immutable: true },
    /**
     * What was approved (integer cents): the required lines and the optional ones the customer chose,
     * with their tax (docs/decisions/0063). Absent on a decline, a TBD total and decisions recorded before.
     */
    approvedTotalCents: { type: Number, immutable: true, allowNull: false },
    /** The decision on each line of the version, as it stood; absent on decisions recorded before (the whole version). */
    lines: {
      type: [
        new Schema(
          {
            id: { type: String, required: true },
            label: { type: String, default: "" },
            damage: { type: Number, default: null },
            optional: { type: Boolean, default: false },
            decision: { type: String, enum: CUSTOMER_DECISIONS, required: true },
            amountCents: { type: Number, required: true },
          },
          { _id: false },
        ),
      ],
      default: undefined,
      immutable: true,
    },
  },
  { timestamps: false },
);
customerDecisionSchema.index({ assessmentId: 1 }, { unique: true });
// The dashboard's latest decisions of an account.
customerDecisionSchema.index({ ownerId: 1, decidedAt: -1 });

const insertOnly = () => {
  throw new Error("Customer decisions are insert-only");
};
for (const op of ["updateOne", "updateMany", "findOneAndUpdate", "replaceOne", "findOneAndReplace", "deleteOne", "findOneAndDelete"] as const) {
  customerDecisionSchema.pre(op, insertOnly);
}
customerDecisionSchema.pre("save", function () {
  if (!this.isNew) throw new Error("Customer decisions are insert-only");
});

export const CustomerDecision = defineModel("CustomerDecision", customerDecisionSchema);

/** One line's decision as kept (docs/decisions/0063). */
export interface LineDecisionRecord {
  id: string;
  label: string;
  damage: number | null;
  optional: boolean;
  decision: CustomerDecisionKind;
  amountCents: number;
}

export type CustomerDecisionRecord = Omit<RecordOf<typeof customerDecisionSchema>, "lines"> & { lines?: LineDecisionRecord[] };

/** Inserts the decision; null when the version already has one (the unique index decides a race). */
export async function insertDecision(fields: Omit<CustomerDecisionRecord, "_id"> & { _id?: Types.ObjectId }): Promise<CustomerDecisionRecord | null> {
  try {
    const doc = await CustomerDecision.create({ _id: new Types.ObjectId(), ...fields });
    // The lines as given (plain objects, the record's own type), not the document's array.
    return { ...doc.toObject(), lines: fields.lines };
  } catch (error) {
    if (errorCode(error) === 11000) return null;
    throw error;
  }
}

export function findDecisionOf({ assessmentId }: { assessmentId: Types.ObjectId }) {
  return CustomerDecision.findOne({ assessmentId }).lean<CustomerDecisionRecord>();
}

/** The decisions on an estimate's versions, in scope, newest first. */
export function findDecisionsOfEstimate({ scope, rootId }: { scope: OwnerScope; rootId: Types.ObjectId }) {
  return CustomerDecision.find({ ...ownerFilter(scope), rootId }).sort({ decidedAt: -1 }).limit(100).lean<CustomerDecisionRecord[]>();
}

/** The latest decisions in scope (the dashboard). */
export function findRecentDecisions({ scope, limit }: { scope: OwnerScope; limit: number }) {
  return CustomerDecision.find(ownerFilter(scope)).sort({ decidedAt: -1 }).limit(limit).lean<CustomerDecisionRecord[]>();
}

/** The account is being deleted: its evidence goes with it. */
export async function removeDecisionsOf({ ownerId }: { ownerId: string }) {
  await deleteInBatches(CustomerDecision, { ownerId });
}
