import { createHash, randomBytes } from "node:crypto";
import { defineModel } from "./define-model.server";
import { Schema, trusted } from "mongoose";
import { stringField } from "~/utils/unknown-values";

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
  await SessionRecord.create({ _id: key(id), userId: stringField(data, "userId") ?? null, data, expiresAt });
  return id;
}

/** The stored data; `T` is what the session layer keeps in it (services/session.server's SessionData). */
export async function readSessionRecord<T = Record<string, unknown>>(id: string): Promise<T | null> {
  // Runs on every signed-in request: one point lookup by `_id`, an expired session never matches.
  const record = await SessionRecord.findOne({ _id: key(id), expiresAt: trusted({ $gt: new Date() }) }).lean<{
    data: T;
  }>();
  return record?.data ?? null;
}

/** Whose session this was, expired or not (a lost session's typed work is for them alone); null when gone. */
export async function sessionOwner(id: string): Promise<string | null> {
  const record = await SessionRecord.findOne({ _id: key(id) }, { userId: 1 }).lean<{ userId?: unknown }>();
  return record?.userId ? String(record.userId) : null;
}

/** Updates the data; the expiry moves only when one is given (a flash must not extend a sign-in). */
export async function updateSessionRecord(id: string, data: Record<string, unknown>, expiresAt?: Date) {
  const set: Record<string, unknown> = { data, userId: stringField(data, "userId") ?? null };
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

/** Expired sessions are never read (readSessionRecord's filter); housekeeping deletes them (no TTL index: not on every engine). */
export async function deleteExpiredSessions() {
  await SessionRecord.deleteMany({ expiresAt: trusted({ $lte: new Date() }) });
}

/**
 * A new session timeout for every session of the user: each now ends `timeoutMs` after its sign-in
 * (`createdAt`); `keepId`'s session (the one making the change) counts from now, so choosing a
 * shorter timeout does not end it on the spot. A session whose new end has passed is ended.
 * The cookie's own expiry follows on the session's next write (commitSession reads `data.expiresAt`).
 */
export async function retimeUserSessions(userId: string, timeoutMs: number, keepId?: string) {
  const now = Date.now();
  const keep = keepId ? key(keepId) : undefined;
  let changed = 0;
  const cursor = SessionRecord.find({ userId, expiresAt: trusted({ $gt: new Date(now) }) })
    .select({ _id: 1, createdAt: 1 })
    .lean<{ _id: string; createdAt: Date }[]>()
    .cursor();
  for await (const record of cursor) {
    const end = record._id === keep ? now + timeoutMs : new Date(record.createdAt).getTime() + timeoutMs;
    if (end <= now) await SessionRecord.deleteOne({ _id: record._id });
    else await SessionRecord.updateOne({ _id: record._id }, { $set: { expiresAt: new Date(end), "data.expiresAt": end } });
    changed += 1;
  }
  return changed;
}

/** Copies the account's appearance into each of its sessions (the pages read it from there). */
export async function setUserSessionsAppearance(userId: string, appearance: { theme?: string; language?: string }) {
  const set: Record<string, string> = {};
  if (appearance.theme) set["data.theme"] = appearance.theme;
  if (appearance.language) set["data.language"] = appearance.language;
  if (Object.keys(set).length) await SessionRecord.updateMany({ userId }, { $set: set });
}
