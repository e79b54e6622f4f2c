import { Schema, trusted, Types } from "mongoose";
import { defineModel } from "./define-model.server";
import { errorCode } from "~/utils/db-errors.server";
import { deleteInBatches } from "./batch-delete.server";

/**
 * One `Idempotency-Key` an account used on a creating POST (docs/decisions/0017): claimed by an
 * insert before the request runs (the unique index makes a concurrent twin fail), completed with the
 * answer it gave. Kept 24 hours; housekeeping deletes older ones by query (the embedded engine has
 * no TTL indexes).
 */
const idempotencyKeySchema = new Schema(
  {
    /** The calling account: a key never answers another account. */
    ownerId: { type: Schema.Types.ObjectId, required: true },
    key: { type: String, required: true },
    /** `METHOD /path`: a key belongs to one operation. */
    operation: { type: String, required: true },
    /** SHA-256 (hex) of the body as sent. */
    bodyHash: { type: String, required: true },
    state: { type: String, enum: ["pending", "done"], required: true },
    status: { type: Number },
    contentType: { type: String },
    answer: { type: String },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);
idempotencyKeySchema.index({ ownerId: 1, key: 1 }, { unique: true });
idempotencyKeySchema.index({ createdAt: 1 });

export const IdempotencyKey = defineModel("IdempotencyKey", idempotencyKeySchema);

export interface IdempotencyKeyRecord {
  _id: Types.ObjectId;
  ownerId: Types.ObjectId;
  key: string;
  operation: string;
  bodyHash: string;
  state: "pending" | "done";
  status?: number;
  contentType?: string;
  answer?: string;
  createdAt: Date;
}

export type NewClaim = Pick<IdempotencyKeyRecord, "key" | "operation" | "bodyHash" | "createdAt"> & { ownerId: string };

const isDuplicate = (error: unknown) => errorCode(error) === 11000;

/** Inserts a pending claim; null when the account already holds this key. */
export async function insertClaim(claim: NewClaim) {
  try {
    const created = await IdempotencyKey.create({ ...claim, ownerId: new Types.ObjectId(claim.ownerId), state: "pending" });
    return created.toObject() as IdempotencyKeyRecord;
  } catch (error) {
    if (isDuplicate(error)) return null;
    throw error;
  }
}

export async function findClaim({ ownerId, key }: { ownerId: string; key: string }) {
  return IdempotencyKey.findOne({ ownerId, key }).lean<IdempotencyKeyRecord>();
}

export async function completeClaim(id: Types.ObjectId, answer: { status: number; contentType: string; answer: string }) {
  await IdempotencyKey.updateOne({ _id: id, state: "pending" }, { $set: { state: "done", ...answer } });
}

/** Drops a claim whose request gave no answer to keep (a failure: the client may retry with the key). */
export async function releaseClaim(id: Types.ObjectId) {
  await IdempotencyKey.deleteOne({ _id: id, state: "pending" });
}

/** Drops this claim if it is still as seen (expired, or a pending one whose request died). */
export async function dropStaleClaim(id: Types.ObjectId, state: IdempotencyKeyRecord["state"]) {
  await IdempotencyKey.deleteOne({ _id: id, state });
}

/** Housekeeping: keys older than `before` no longer replay. */
export async function deleteExpiredClaims(before: Date) {
  const { deletedCount } = await IdempotencyKey.deleteMany({ createdAt: trusted({ $lt: before }) });
  return deletedCount;
}

/** An account's deletion: its stored answers hold its records. */
export async function removeIdempotencyKeysOf({ ownerId }: { ownerId: string }) {
  await deleteInBatches(IdempotencyKey, { ownerId });
}
