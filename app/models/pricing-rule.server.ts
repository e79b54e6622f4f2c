import { Schema, type Types } from "mongoose";
import type { PricingRuleInput } from "~/schemas/vendor-pricing";
import { defineModel } from "./define-model.server";
import { pairFilters, vendorOwned, type DamagePair } from "./vendor-scope.server";

const pricingRuleSchema = new Schema(
  {
    vendorId: { type: Schema.Types.ObjectId, required: true, immutable: true },
    damageType: { type: String, required: true },
    severity: { type: String, required: true },
    basePrice: { type: Number, required: true, min: 0 },
    laborRate: { type: Number, required: true, min: 0 },
    markupPercentage: { type: Number, default: 0, min: 0 },
    minimumCharge: { type: Number, default: 0, min: 0 },
    // Key → multiplier maps; keys are checked words (never operators), stored as sent.
    vehicleMakeModifier: { type: Schema.Types.Mixed, default: {} },
    locationModifier: { type: Schema.Types.Mixed, default: {} },
    seasonalModifier: { type: Schema.Types.Mixed, default: {} },
    notes: { type: String },
    isActive: { type: Boolean, default: true },
    refinishHours: { type: Number, min: 0 },
    refinishRate: { type: Number, min: 0 },
    materialsRate: { type: Number, min: 0 },
    partPrice: { type: Number, min: 0 },
  },
  { timestamps: true, minimize: false },
);
// The tab's list, and the engine's lookup of a vendor's active rules per (type, severity).
pricingRuleSchema.index({ vendorId: 1, createdAt: -1 });
pricingRuleSchema.index({ vendorId: 1, isActive: 1, damageType: 1, severity: 1 });

export const PricingRule = defineModel("PricingRule", pricingRuleSchema);

export interface PricingRuleRecord extends PricingRuleInput {
  _id: Types.ObjectId;
  vendorId: Types.ObjectId;
  createdAt: Date;
  updatedAt: Date;
}

export const pricingRules = vendorOwned<PricingRuleRecord>(PricingRule, "pricingRule");

/** Another active rule of the vendor for the same (type, severity), if any (one prices each pair). */
export async function findActiveRuleFor({
  vendorId,
  damageType,
  severity,
  exceptId,
}: {
  vendorId: string;
  damageType: string;
  severity: string;
  exceptId?: string;
}) {
  const rules = await PricingRule.find({ vendorId, isActive: true, damageType, severity })
    .select({ _id: 1 })
    .limit(2)
    .lean<{ _id: Types.ObjectId }[]>();
  return rules.find((r) => String(r._id) !== exceptId) ?? null;
}

/** The vendor's active rules for the (damage type, severity) pairs asked (what a quote needs). */
export async function findActiveRules({ vendorId, pairs }: { vendorId: string; pairs: DamagePair[] }) {
  if (pairs.length === 0) return [];
  return PricingRule.find({ vendorId, isActive: true, $or: pairFilters(pairs) }).lean<PricingRuleRecord[]>();
}

/**
 * The dashboard's Vendor Pricing panel: per vendor with active rules, the lowest and highest labour
 * rate and how many rules; the vendors with the most rules first.
 */
export async function labourRatesByVendor({ limit }: { limit: number }) {
  return PricingRule.aggregate<{ _id: Types.ObjectId; minRate: number; maxRate: number; rules: number }>([
    { $match: { isActive: true } },
    { $group: { _id: "$vendorId", minRate: { $min: "$laborRate" }, maxRate: { $max: "$laborRate" }, rules: { $sum: 1 } } },
    { $sort: { rules: -1, _id: 1 } },
    { $limit: limit },
  ]);
}
