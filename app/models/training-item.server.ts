import { Schema, trusted, type Types } from "mongoose";
import type { TrainingFilter, TrainingItemInput } from "~/schemas/training";
import type { ListCursor } from "~/schemas/list-cursor";
import { defineModel, type RecordOf } from "./define-model.server";
import { changedSince, inListOrder, keysetFilter, keysetSort } from "./keyset.server";
import { isObjectIdHex } from "./owner-scope.server";
import { pairFilters, type DamagePair } from "./vendor-scope.server";
import { recordDeletion } from "./deletion.server";

/**
 * AI training items: curated photos of damage with their repair figures. They belong to the
 * platform, not to an account (admins curate them; the matcher and the pricing engine read the
 * verified ones for every account), so they carry who created them rather than an owner.
 */
const trainingItemSchema = new Schema(
  {
    createdBy: { type: Schema.Types.ObjectId, required: true, immutable: true },
    imageUrl: { type: String, required: true },
    damageType: { type: String, required: true },
    severity: { type: String, required: true },
    description: { type: String, required: true },
    estimatedCost: { type: Number, required: true, min: 0 },
    laborHours: { type: Number, min: 0, allowNull: false },
    partsCost: { type: Number, min: 0, allowNull: false },
    paintWork: { type: Boolean, default: false },
    vehicleMake: { type: String, allowNull: false },
    vehicleModel: { type: String, allowNull: false },
    vehicleYear: { type: Number, allowNull: false },
    location: { type: String, allowNull: false },
    tags: { type: [String], default: [] },
    notes: { type: String, allowNull: false },
    isVerified: { type: Boolean, default: false },
    verifiedAt: { type: Date, allowNull: false },
    /** The image's features for the embedded matcher: set when verified, never for pending items. */
    features: {
      type: new Schema({ hash: { type: String, allowNull: false }, colour: [Number], edges: [Number] }, { _id: false }),
      default: undefined,
      allowNull: false,
    },
  },
  { timestamps: true },
);
// The screen's list, newest first, paged by cursor (its _id decides ties; the items are the
// platform's, so no owner leads it); the pricing engine's verified figures per (type, severity),
// answered from the index alone (a covered query: every field it filters on and returns is a key).
trainingItemSchema.index({ createdAt: -1, _id: -1 });
// A sync's read, in the order of changes (docs/decisions/0052).
trainingItemSchema.index({ updatedAt: 1, _id: 1 });
trainingItemSchema.index({ isVerified: 1, damageType: 1, severity: 1, laborHours: 1, partsCost: 1 });
// The embedded matcher's cache check: the newest change among the verified items.
trainingItemSchema.index({ isVerified: 1, updatedAt: -1 });

export const TrainingItem = defineModel("TrainingItem", trainingItemSchema, { retiredIndexes: ["createdAt_-1"] });

export type TrainingItemRecord = RecordOf<typeof trainingItemSchema>;

const filterOf = (filter: TrainingFilter) => ({
  ...(filter.damageType ? { damageType: filter.damageType } : {}),
  ...(filter.severity ? { severity: filter.severity } : {}),
  ...(filter.isVerified === undefined ? {} : { isVerified: filter.isVerified }),
});

/** A page of the items the filter matches, newest first: from `skip`, or past a cursor (docs/decisions/0033). */
export async function findTrainingItems({ filter, skip = 0, limit, cursor, since }: { filter: TrainingFilter; skip?: number; limit?: number; cursor?: ListCursor; since?: Date }) {
  const query = TrainingItem.find({ ...filterOf(filter), ...keysetFilter(cursor, since) }).select({ features: 0 }).sort(keysetSort(cursor, since)).skip(skip);
  return inListOrder(cursor, await (limit === undefined ? query : query.limit(limit)).lean<TrainingItemRecord[]>());
}

export async function countTrainingItems({ filter, since }: { filter: TrainingFilter; since?: Date }) {
  return TrainingItem.countDocuments({ ...filterOf(filter), ...changedSince(since) });
}

export async function findTrainingItem({ id }: { id: string }) {
  if (!isObjectIdHex(id)) return null;
  return TrainingItem.findById(id).select({ features: 0 }).lean<TrainingItemRecord>();
}

export async function insertTrainingItem({ createdBy, input }: { createdBy: string; input: TrainingItemInput }): Promise<TrainingItemRecord> {
  // Created pending: verifying computes the image's features (the service verifies next when asked).
  const doc = await TrainingItem.create({ ...input, isVerified: false, createdBy });
  const { features: _features, ...record } = doc.toObject();
  return record;
}

const OPTIONAL = ["laborHours", "partsCost", "vehicleMake", "vehicleModel", "vehicleYear", "location", "notes"] as const;

/** Replaces the editable fields; verification is its own step (and never goes back). */
export async function replaceTrainingItem({ id, input }: { id: string; input: TrainingItemInput }) {
  if (!isObjectIdHex(id)) return null;
  const { isVerified: _verify, ...fields } = input;
  const $set: Record<string, unknown> = {};
  const $unset: Record<string, 1> = {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) $set[k] = v;
  for (const k of OPTIONAL) if (fields[k] === undefined) $unset[k] = 1;
  return TrainingItem.findOneAndUpdate({ _id: id }, { $set, ...(Object.keys($unset).length ? { $unset } : {}) }, {
    returnDocument: "after",
    runValidators: true,
  })
    .select({ features: 0 })
    .lean<TrainingItemRecord>();
}

/** Marks an item verified with its image's features; the first verification's date is kept. */
export async function markTrainingItemVerified({ id, features }: { id: string; features: TrainingItemRecord["features"] }) {
  if (!isObjectIdHex(id)) return null;
  await TrainingItem.updateOne({ _id: id, isVerified: false }, { $set: { verifiedAt: new Date() } });
  return TrainingItem.findOneAndUpdate({ _id: id }, { $set: { isVerified: true, features } }, { returnDocument: "after" })
    .select({ features: 0 })
    .lean<TrainingItemRecord>();
}

export async function removeTrainingItem({ id }: { id: string }) {
  if (!isObjectIdHex(id)) return null;
  const removed = await TrainingItem.findOneAndDelete({ _id: id }).select({ features: 0 }).lean<TrainingItemRecord>();
  // The platform's, not an account's: only an admin reads its deletion.
  await recordDeletion("trainingItem", removed && { _id: removed._id });
  return removed;
}

/** Whether any training item shows this image (an image may serve more than one item). */
export async function imageInUse({ imageUrl }: { imageUrl: string }) {
  return (await TrainingItem.exists({ imageUrl })) !== null;
}

/** The summary cards: all, verified, pending. */
export async function trainingStats() {
  const [total, verified] = await Promise.all([TrainingItem.countDocuments({}), TrainingItem.countDocuments({ isVerified: true })]);
  return { total, verified, pending: total - verified };
}

/** The verified figures the pricing engine takes the medians of, for the (type, severity) pairs asked. */
export async function verifiedFigures({ pairs }: { pairs: DamagePair[] }) {
  if (pairs.length === 0) return [];
  return TrainingItem.find({ isVerified: true, $or: pairFilters(pairs) })
    .select({ _id: 0, damageType: 1, severity: 1, laborHours: 1, partsCost: 1 })
    .lean<{ damageType: string; severity: string; laborHours?: number; partsCost?: number }[]>();
}

/** What the embedded matcher compares photos with: a verified item's labels and its image's features. */
export interface VerifiedExample {
  _id: Types.ObjectId;
  damageType: string;
  severity: string;
  location?: string;
  features: { hash: string; colour: number[]; edges: number[] };
}

/** The verified items with features (labels and features only), newest change first, at most `limit`. */
export async function verifiedExamples({ limit }: { limit: number }) {
  return TrainingItem.find({ isVerified: true, features: trusted({ $exists: true }) })
    .select({ damageType: 1, severity: 1, location: 1, features: 1 })
    .sort({ updatedAt: -1, _id: -1 })
    .limit(limit)
    .lean<VerifiedExample[]>();
}

/**
 * Changes whenever the verified set does: a verification, an edit or a deletion changes the count
 * or the newest `updatedAt` (edits and verifications touch it; a deletion lowers the count).
 */
export async function verifiedExamplesVersion() {
  const [count, newest] = await Promise.all([
    TrainingItem.countDocuments({ isVerified: true }),
    TrainingItem.findOne({ isVerified: true }).sort({ updatedAt: -1 }).select({ _id: 0, updatedAt: 1 }).lean<{ updatedAt?: Date }>(),
  ]);
  return `${count}:${newest?.updatedAt?.getTime() ?? 0}`;
}
