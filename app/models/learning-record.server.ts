import { Schema, type Types } from "mongoose";
import type { LearningRecordInput } from "~/schemas/vendor-pricing";
import { defineModel } from "./define-model.server";
import { pairFilters, vendorOwned, type DamagePair } from "./vendor-scope.server";

/**
 * An AI pricing learning record: what an estimate said and what the job finally cost. Created
 * pending (by the estimate-edit flow or an admin); only validated records move a vendor's prices.
 */
const learningRecordSchema = new Schema(
  {
    vendorId: { type: Schema.Types.ObjectId, required: true, immutable: true },
    damageType: { type: String, required: true },
    severity: { type: String, required: true },
    originalEstimate: { type: Number, required: true, min: 0 },
    finalCost: { type: Number, required: true, min: 0 },
    adminAdjustment: { type: Number, required: true },
    adjustmentReason: { type: String },
    vehicleMake: { type: String },
    learningWeight: { type: Number, default: 1, min: 0 },
    isValidated: { type: Boolean, default: false },
    validatedAt: { type: Date },
    /** The assessment the record came from (the estimate-edit flow), when there is one. */
    assessmentId: { type: Schema.Types.ObjectId },
  },
  { timestamps: true },
);
learningRecordSchema.index({ vendorId: 1, createdAt: -1 });
// A quote's validated figures per (type, severity), answered from the index alone (a covered query).
learningRecordSchema.index({ vendorId: 1, isValidated: 1, damageType: 1, severity: 1, originalEstimate: 1, finalCost: 1, learningWeight: 1 });

export const LearningRecord = defineModel("LearningRecord", learningRecordSchema);

export interface LearningRecordRecord extends LearningRecordInput {
  _id: Types.ObjectId;
  vendorId: Types.ObjectId;
  adminAdjustment: number;
  isValidated: boolean;
  validatedAt?: Date;
  createdAt: Date;
  updatedAt: Date;
}

export const learningRecords = vendorOwned<LearningRecordRecord>(LearningRecord);

/** The vendor's validated records for the (damage type, severity) pairs asked (what a quote needs). */
export async function findValidatedRecords({ vendorId, pairs }: { vendorId: string; pairs: DamagePair[] }) {
  if (pairs.length === 0) return [];
  return LearningRecord.find({ vendorId, isValidated: true, $or: pairFilters(pairs) })
    .select({ _id: 0, damageType: 1, severity: 1, originalEstimate: 1, finalCost: 1, learningWeight: 1 })
    .lean<Pick<LearningRecordRecord, "damageType" | "severity" | "originalEstimate" | "finalCost" | "learningWeight">[]>();
}
