import { Schema, type Types } from "mongoose";
import { matchesSearch, searchWords } from "~/schemas/list-query";
import type { PackageInput } from "~/schemas/package";
import { defineModel } from "./define-model.server";
import { isObjectIdHex, ownerFilter, type OwnerScope } from "./owner-scope.server";

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

/** Every package in scope, newest first, in one query (searched and paged by the caller, as contacts). */
export async function findPackages({ scope }: { scope: OwnerScope }) {
  return ServicePackage.find(ownerFilter(scope)).sort({ createdAt: -1, _id: -1 }).lean<PackageRecord[]>();
}

/** The search box: every word in the name or the description (any case). */
export function searchPackages(records: PackageRecord[], q: string | undefined) {
  const words = searchWords(q);
  if (words.length === 0) return records;
  return records.filter((r) => matchesSearch(words, PACKAGE_SEARCH_FIELDS.map((f) => r[f])));
}

type StatsRow = Pick<PackageRecord, "price" | "isActive">;

/** The stat cards over a set of packages: Total, Active, Average Price, Highest Price. */
export function statsOf(rows: StatsRow[]) {
  const total = rows.length;
  const sum = rows.reduce((s, r) => s + (r.price ?? 0), 0);
  return {
    total,
    active: rows.filter((r) => r.isActive !== false).length,
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
