import { createHash, randomBytes } from "node:crypto";
import { defineModel } from "./define-model.server";
import { Schema, trusted } from "mongoose";

/** Server-side session records; the cookie carries only the (signed) random id. */
const sessionSchema = new Schema(
  {
    _id: { type: String },
    userId: { type: Schema.Types.ObjectId, index: true },
    data: { type: Schema.Types.Mixed, default: {} },
    expiresAt: { type: Date, required: true, index: true },
  },
  { timestamps: true, minimize: false },
);

export const SessionRecord = defineModel("Session", sessionSchema);

// Stored under a hash of the id: a database leak yields no usable cookies.
const key = (id: string) => createHash("sha256").update(id).digest("base64url");

export async function createSessionRecord(data: Record<string, unknown>, expiresAt: Date) {
  const id = randomBytes(32).toString("base64url");
  await SessionRecord.create({ _id: key(id), userId: (data.userId as string | undefined) ?? null, data, expiresAt });
  return id;
}

export async function readSessionRecord(id: string) {
  // By `_id` alone, the expiry checked here: the embedded database answers only that as a point
  // lookup (docs/decisions/0001), and this runs on every signed-in request.
  const record = await SessionRecord.findById(key(id)).lean<{ data: Record<string, unknown>; expiresAt: Date }>();
  if (!record || !(record.expiresAt > new Date())) return null;
  return record.data;
}

/** Updates the data; the expiry moves only when one is given (a flash must not extend a sign-in). */
export async function updateSessionRecord(id: string, data: Record<string, unknown>, expiresAt?: Date) {
  const set: Record<string, unknown> = { data, userId: (data.userId as string | undefined) ?? null };
  if (expiresAt) set.expiresAt = expiresAt;
  // No upsert: a session ended elsewhere (logout, password change) stays ended.
  await SessionRecord.updateOne({ _id: key(id) }, { $set: set });
}

export async function deleteSessionRecord(id: string) {
  await SessionRecord.deleteOne({ _id: key(id) });
}

export async function deleteUserSessions(userId: string) {
  await SessionRecord.deleteMany({ userId });
}

/** Expired sessions are never read (readSessionRecord checks); housekeeping deletes them (no TTL index on FerretDB). */
export async function deleteExpiredSessions() {
  await SessionRecord.deleteMany({ expiresAt: trusted({ $lte: new Date() }) });
}
