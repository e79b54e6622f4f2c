import { Schema, Types } from "mongoose";
import type { PackageInput } from "~/schemas/package";
import { defineModel, type RecordOf } from "./define-model.server";
import { ownedList } from "./list-filter.server";
import { isObjectIdHex, ownerFilter, type OwnerScope } from "./owner-scope.server";
import { recordDeletion } from "./deletion.server";

const packageSchema = new Schema(
  {
    ownerId: { type: Schema.Types.ObjectId, required: true, immutable: true },
    name: { type: String, required: true, trim: true },
    description: { type: String, trim: true, allowNull: false },
    price: { type: Number, required: true, min: 0 },
    features: { type: [String], default: [] },
    isActive: { type: Boolean, default: true },
  },
  { timestamps: true },
);
// The list, newest first, paged by cursor (its _id decides ties).
packageSchema.index({ ownerId: 1, createdAt: -1, _id: -1 });
// A sync's read, in the order of changes (docs/decisions/0052).
packageSchema.index({ ownerId: 1, updatedAt: 1, _id: 1 });
// The search and the stat cards, decided on index entries before any package is read (and a search's
// matches put in the list's order there).
packageSchema.index({ ownerId: 1, name: 1, description: 1, isActive: 1, price: 1, createdAt: -1 });

export const ServicePackage = defineModel("Package", packageSchema, { retiredIndexes: ["ownerId_1_createdAt_-1"] });

export type PackageRecord = RecordOf<typeof packageSchema>;

export const PACKAGE_SEARCH_FIELDS = ["name", "description"] as const;

const list = ownedList<PackageRecord>(ServicePackage, PACKAGE_SEARCH_FIELDS);
/** One page of the scope's packages matching the search, newest first (all of them without a limit). */
export const findPackages = list.find;
/** How many of the scope's packages match the search. */
export const countPackages = list.count;

/** The dashboard's Active Packages: the scope's newest active packages. */
export async function findActivePackages({ scope, limit }: { scope: OwnerScope; limit: number }) {
  return ServicePackage.find({ ...ownerFilter(scope), isActive: true }).sort({ createdAt: -1, _id: -1 }).limit(limit).lean<PackageRecord[]>();
}

/** The stat cards over every package in scope: Total, Active, Average Price, Highest Price. */
export async function packageStats({ scope }: { scope: OwnerScope }) {
  const [row] = await ServicePackage.aggregate<{ total: number; inactive: number; averagePrice: number; highestPrice: number }>([
    // Aggregates are not cast by mongoose: the owner id must be an ObjectId here.
    { $match: "ownerId" in scope ? { ownerId: new Types.ObjectId(scope.ownerId) } : {} },
    {
      $group: {
        _id: null,
        total: { $sum: 1 },
        inactive: { $sum: { $cond: [{ $eq: ["$isActive", false] }, 1, 0] } },
        averagePrice: { $avg: "$price" },
        highestPrice: { $max: "$price" },
      },
    },
  ]);
  if (!row) return { total: 0, active: 0, averagePrice: 0, highestPrice: 0 };
  return { total: row.total, active: row.total - row.inactive, averagePrice: row.averagePrice ?? 0, highestPrice: row.highestPrice ?? 0 };
}

export async function findPackage({ scope, id }: { scope: OwnerScope; id: string }) {
  if (!isObjectIdHex(id)) return null;
  return ServicePackage.findOne({ _id: id, ...ownerFilter(scope) }).lean<PackageRecord>();
}

export async function insertPackage({ ownerId, input }: { ownerId: string; input: PackageInput }): Promise<PackageRecord> {
  const doc = await ServicePackage.create({ ...input, ownerId });
  return doc.toObject();
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
  const removed = await ServicePackage.findOneAndDelete({ _id: id, ...ownerFilter(scope) }).lean<PackageRecord>();
  await recordDeletion("package", removed);
  return removed;
}

/** Every package of an account (the account is being deleted). */
export async function removePackagesOf({ ownerId }: { ownerId: string }) {
  await ServicePackage.deleteMany({ ownerId });
}
