import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { credentialCache } from "./write-cache.server";
import { jsonWithout } from "~/utils/json-shape";
import { defineModel } from "./define-model.server";
import mongoose, { Schema, trusted } from "mongoose";
import { recordDeletion, recordDeletions } from "./deletion.server";
import { changedSince, keysetSort } from "./keyset.server";

const apiTokenSchema = new Schema(
  {
    ownerId: { type: Schema.Types.ObjectId, required: true, index: true },
    /** The account's member whose token this is (null: the owner's); it acts with that member's role. */
    memberId: { type: Schema.Types.ObjectId, default: null },
    name: { type: String, required: true, trim: true },
    tokenHash: { type: String, required: true, unique: true },
    // First characters, shown in the list so the owner can tell tokens apart.
    prefix: { type: String, required: true },
    lastUsedAt: { type: Date, default: null },
    // Null: valid until revoked.
    expiresAt: { type: Date, default: null },
  },
  {
    timestamps: true,
    toJSON: jsonWithout("tokenHash"),
  },
);

apiTokenSchema.plugin(credentialCache.forgetOnWrite, { bookkeeping: ["lastUsedAt"] });
export const ApiToken = defineModel("ApiToken", apiTokenSchema);

// Tokens carry 256 random bits, so a fast hash is enough (no KDF needed).
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

// `dq_<secret>_<record id>`: the record is fetched by `_id` (a point lookup on every Bearer
// request) and the hash of the whole token must match, compared in constant time. The secret comes
// first so that the prefix shown in the list tells tokens apart.
const TOKEN_PATTERN = /^dq_[A-Za-z0-9_-]{43}_([0-9a-f]{24})$/;

export async function createApiToken({
  ownerId,
  memberId = null,
  name,
  expiresAt = null,
}: {
  ownerId: string;
  memberId?: string | null;
  name: string;
  expiresAt?: Date | null;
}) {
  const _id = new mongoose.Types.ObjectId();
  const token = `dq_${randomBytes(32).toString("base64url")}_${_id.toHexString()}`;
  const record = await ApiToken.create({
    _id,
    ownerId,
    memberId,
    name,
    tokenHash: hashToken(token),
    prefix: token.slice(0, 10),
    expiresAt,
  });
  return { token, record };
}

/** One person's tokens (the owner's: `memberId` null), newest first; changed since `since`, oldest change first (a sync). */
export async function listApiTokens({ ownerId, memberId = null, since }: { ownerId: string; memberId?: string | null; since?: Date }) {
  return ApiToken.find({ ownerId, memberId, ...changedSince(since) }).sort(keysetSort(undefined, since));
}

export async function deleteApiToken({ ownerId, memberId = null, id }: { ownerId: string; memberId?: string | null; id: string }) {
  if (!mongoose.isValidObjectId(id)) return false;
  const res = await ApiToken.deleteOne({ _id: id, ownerId, memberId });
  if (res.deletedCount !== 1) return false;
  await recordDeletion("apiToken", { _id: id, ownerId });
  return true;
}

/** Deletes every token of an account being deleted (its deletions go with it). */
export async function deleteApiTokensOf({ ownerId }: { ownerId: string }) {
  await ApiToken.deleteMany({ ownerId });
}

/**
 * Revokes every token of a living account (a new password, two-factor turned on); answers how many.
 * Each is noted for a sync like a token deleted by hand; a token made while this runs is found by the
 * next round, so none outlives the revocation unnoted.
 */
export async function revokeApiTokensOf({ ownerId }: { ownerId: string }) {
  let revoked = 0;
  for (;;) {
    const ids = (await ApiToken.find({ ownerId }).select("_id").limit(500).lean()).map((t) => t._id);
    if (ids.length === 0) return revoked;
    const { deletedCount } = await ApiToken.deleteMany({ ownerId, _id: trusted({ $in: ids }) });
    revoked += deletedCount;
    await recordDeletions("apiToken", ids.map((_id) => ({ _id, ownerId })));
  }
}

/** Revokes every token of one member (suspended or removed); answers how many. */
export async function revokeMemberTokens({ ownerId, memberId }: { ownerId: string; memberId: string }) {
  const ids = (await ApiToken.find({ ownerId, memberId }).select("_id").limit(500).lean()).map((t) => t._id);
  if (ids.length === 0) return 0;
  const { deletedCount } = await ApiToken.deleteMany({ ownerId, memberId });
  await recordDeletions("apiToken", ids.map((_id) => ({ _id, ownerId })));
  return deletedCount;
}

/** Finds the token's owner id and records the use (at most once a minute, to spare writes). */
export async function redeemApiToken(token: string) {
  const id = TOKEN_PATTERN.exec(token)?.[1];
  if (!id) return null;
  const hash = hashToken(token);
  const redeemed = await credentialCache.get(`token:${hash}`, async () => {
    const record = await ApiToken.findOne({ _id: id, $or: [{ expiresAt: null }, { expiresAt: trusted({ $gt: new Date() }) }] });
    if (!record || !timingSafeEqual(Buffer.from(record.tokenHash), Buffer.from(hash))) return null;
    const minuteAgo = new Date(Date.now() - 60_000);
    if (!record.lastUsedAt || record.lastUsedAt < minuteAgo) {
      await ApiToken.updateOne({ _id: record._id }, { $set: { lastUsedAt: new Date() } });
    }
    return { ownerId: String(record.ownerId), memberId: record.memberId ? String(record.memberId) : null, expiresAt: record.expiresAt };
  });
  // A token remembered from before its expiry ends at the expiry all the same.
  if (!redeemed || (redeemed.expiresAt && redeemed.expiresAt <= new Date())) return null;
  return { ownerId: redeemed.ownerId, memberId: redeemed.memberId };
}
