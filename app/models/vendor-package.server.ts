import { Schema, type Types } from "mongoose";
import type { VendorPackageInput } from "~/schemas/vendor-pricing";
import { defineModel } from "./define-model.server";
import { vendorOwned } from "./vendor-scope.server";

const vendorPackageSchema = new Schema(
  {
    vendorId: { type: Schema.Types.ObjectId, required: true, immutable: true },
    packageName: { type: String, required: true },
    description: { type: String },
    serviceTypes: { type: [String], default: [] },
    pricingModel: { type: String, required: true },
    basePrice: { type: Number, min: 0 },
    hourlyRate: { type: Number, min: 0 },
    // Damage type → amount; keys are the spec's damage types only.
    damageTypeRates: { type: Schema.Types.Mixed, default: {} },
    includesPickupDelivery: { type: Boolean, default: false },
    warrantyMonths: { type: Number, default: 0 },
    turnaroundDays: { type: Number, default: 0 },
    minimumOrder: { type: Number, min: 0 },
    discountTiers: { type: [{ _id: false, minimumAmount: Number, discountPercentage: Number }], default: [] },
    aiWeighting: { type: Number, default: 1 },
    isActive: { type: Boolean, default: true },
  },
  { timestamps: true, minimize: false },
);
vendorPackageSchema.index({ vendorId: 1, createdAt: -1 });

export const VendorPackage = defineModel("VendorPackage", vendorPackageSchema);

export interface VendorPackageRecord extends VendorPackageInput {
  _id: Types.ObjectId;
  vendorId: Types.ObjectId;
  createdAt: Date;
  updatedAt: Date;
}

export const vendorPackages = vendorOwned<VendorPackageRecord>(VendorPackage, "vendorPackage");
