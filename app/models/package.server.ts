import { Schema, type Types } from "mongoose";
import type { PackageInput } from "~/schemas/package";
import { defineModel } from "./define-model.server";
import { isObjectIdHex, ownerFilter, textSearch, type OwnerScope } from "./owner-scope.server";

const packageSchema = new Schema(
  {
    ownerId: { type: Schema.Types.ObjectId, required: true, immutable: true },
    name: { type: String, required: true, trim: true },
    description: { type: String, trim: true },
    price: { type: Number, required: true, min: 0 },
    features: { type: [String], default: [] },
    isActive: { type: Boolean, default: true },
  },
  { timestamps: true },
);
packageSchema.index({ ownerId: 1, createdAt: -1 });

export const ServicePackage = defineModel("Package", packageSchema);

export interface PackageRecord {
  _id: Types.ObjectId;
  ownerId: Types.ObjectId;
  name: string;
  description?: string;
  price: number;
  features: string[];
  isActive: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export const PACKAGE_SEARCH_FIELDS = ["name", "description"] as const;

const listFilter = (scope: OwnerScope, q?: string) => ({
  ...ownerFilter(scope),
  ...textSearch(q, PACKAGE_SEARCH_FIELDS),
});

export async function findPackages({
  scope,
  q,
  limit,
  offset,
}: {
  scope: OwnerScope;
  q?: string;
  limit?: number;
  offset?: number;
}) {
  const query = ServicePackage.find(listFilter(scope, q)).sort({ createdAt: -1, _id: -1 });
  if (offset) query.skip(offset);
  if (limit) query.limit(limit);
  return query.lean<PackageRecord[]>();
}

export async function countPackages({ scope, q }: { scope: OwnerScope; q?: string }) {
  return ServicePackage.countDocuments(listFilter(scope, q));
}

/** The stat cards: Total, Active, Average Price, Highest Price over every package in scope. */
export async function packageStats({ scope }: { scope: OwnerScope }) {
  // Prices only; $group accumulators differ between MongoDB and FerretDB, a projection does not.
  const rows = await ServicePackage.find(ownerFilter(scope))
    .select({ price: 1, isActive: 1, _id: 0 })
    .lean<{ price: number; isActive: boolean }[]>();
  const total = rows.length;
  const sum = rows.reduce((s, r) => s + (r.price ?? 0), 0);
  return {
    total,
    active: rows.filter((r) => r.isActive).length,
    averagePrice: total === 0 ? 0 : sum / total,
    highestPrice: rows.reduce((max, r) => Math.max(max, r.price ?? 0), 0),
  };
}

export async function findPackage({ scope, id }: { scope: OwnerScope; id: string }) {
  if (!isObjectIdHex(id)) return null;
  return ServicePackage.findOne({ _id: id, ...ownerFilter(scope) }).lean<PackageRecord>();
}

export async function insertPackage({ ownerId, input }: { ownerId: string; input: PackageInput }) {
  const doc = await ServicePackage.create({ ...input, ownerId });
  return doc.toObject() as unknown as PackageRecord;
}

/** Replaces the editable fields (a left-out description is removed); null when not in scope. */
export async function replacePackage({ scope, id, input }: { scope: OwnerScope; id: string; input: PackageInput }) {
  if (!isObjectIdHex(id)) return null;
  const $set = { name: input.name, price: input.price, features: input.features, isActive: input.isActive };
  const update =
    input.description === undefined
      ? { $set, $unset: { description: 1 } }
      : { $set: { ...$set, description: input.description } };
  return ServicePackage.findOneAndUpdate({ _id: id, ...ownerFilter(scope) }, update, {
    returnDocument: "after",
    runValidators: true,
  }).lean<PackageRecord>();
}

export async function removePackage({ scope, id }: { scope: OwnerScope; id: string }) {
  if (!isObjectIdHex(id)) return null;
  return ServicePackage.findOneAndDelete({ _id: id, ...ownerFilter(scope) }).lean<PackageRecord>();
}
