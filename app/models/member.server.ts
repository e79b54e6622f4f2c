import { createHash, randomBytes } from "node:crypto";
import mongoose, { Schema, trusted, type Types } from "mongoose";
import { MEMBER_ROLES, MEMBER_STATUSES, type MemberRole, type MemberStatus } from "~/schemas/members";
import { defineModel } from "./define-model.server";
import { credentialCache } from "./write-cache.server";

/**
 * The people of an account other than its owner (docs/decisions/0067). `ownerId` is the account:
 * what a member does is the account's (tenancy stays one owner id). Until the invite is accepted the
 * username is a placeholder (`invite:<id>`) so the unique key holds without a partial index (the
 * embedded engine has none); after it, the invite's hash is replaced the same way.
 */
const memberSchema = new Schema(
  {
    ownerId: { type: Schema.Types.ObjectId, required: true, index: true },
    email: { type: String, required: true, trim: true },
    accountRole: { type: String, enum: MEMBER_ROLES, required: true },
    status: { type: String, enum: MEMBER_STATUSES, required: true, default: "invited" },
    username: { type: String, trim: true, default: "" },
    usernameKey: { type: String, required: true, unique: true },
    passwordHash: { type: String, select: false },
    firstName: { type: String, trim: true, default: "" },
    lastName: { type: String, trim: true, default: "" },
    inviteHash: { type: String, required: true, unique: true },
    inviteExpiresAt: { type: Date, default: null },
    acceptedAt: { type: Date, default: null },
  },
  { timestamps: true },
);

memberSchema.plugin(credentialCache.forgetOnWrite);
export const Member = defineModel("Member", memberSchema);
export type MemberRecord = InstanceType<typeof Member>;

const hashInvite = (token: string) => createHash("sha256").update(token).digest("hex");
const isId = (id: string) => mongoose.isValidObjectId(id) && /^[a-f0-9]{24}$/i.test(id);

export async function insertInvite({ ownerId, email, role, expiresAt }: { ownerId: string; email: string; role: MemberRole; expiresAt: Date }) {
  const _id = new mongoose.Types.ObjectId();
  const token = randomBytes(32).toString("base64url");
  const record = await Member.create({
    _id,
    ownerId,
    email,
    accountRole: role,
    status: "invited",
    usernameKey: `invite:${_id.toHexString()}`,
    inviteHash: hashInvite(token),
    inviteExpiresAt: expiresAt,
  });
  return { token, record };
}

export async function listMembersOf({ ownerId }: { ownerId: string }) {
  return Member.find({ ownerId }).sort({ createdAt: 1 }).limit(500);
}

export async function countMembersOf({ ownerId }: { ownerId: string }) {
  return Member.countDocuments({ ownerId });
}

export async function findMember({ ownerId, id }: { ownerId: string; id: string }) {
  if (!isId(id)) return null;
  return Member.findOne({ _id: id, ownerId });
}

/** The pending invite a link names, unexpired; null for any other token. */
export async function findInvite(token: string) {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  return Member.findOne({ inviteHash: hashInvite(token), status: "invited", inviteExpiresAt: trusted({ $gt: new Date() }) });
}

/** Completes an invite: the member's own name, username and password; false when it was taken meanwhile. */
export async function acceptInviteRecord(
  id: Types.ObjectId,
  fields: { username: string; usernameKey: string; passwordHash: string; firstName: string; lastName: string },
) {
  const res = await Member.updateOne(
    { _id: id, status: "invited" },
    { $set: { ...fields, status: "active", acceptedAt: new Date(), inviteHash: `used:${String(id)}`, inviteExpiresAt: null } },
  );
  return res.modifiedCount === 1;
}

export async function setMemberFields({ ownerId, id }: { ownerId: string; id: string }, set: { accountRole?: MemberRole; status?: MemberStatus }) {
  if (!isId(id)) return null;
  return Member.findOneAndUpdate({ _id: id, ownerId }, { $set: set }, { new: true });
}

export async function deleteMember({ ownerId, id }: { ownerId: string; id: string }) {
  if (!isId(id)) return false;
  return (await Member.deleteOne({ _id: id, ownerId })).deletedCount === 1;
}

/** Every member of an account being deleted. */
export async function deleteMembersOf({ ownerId }: { ownerId: string }) {
  await Member.deleteMany({ ownerId });
}

/** An active member signing in, with the password hash. */
export async function findMemberForLogin(key: string) {
  return Member.findOne({ usernameKey: key }).select("+passwordHash");
}

export async function usernameKeyTaken(key: string) {
  return (await Member.exists({ usernameKey: key })) !== null;
}

/** The member a session or token names, through the credential cache (suspending or removing one is seen on every instance). */
export function findSignedInMember(id: string) {
  return credentialCache.get(`member:${id}`, async () => (isId(id) ? Member.findOne({ _id: id, status: "active" }) : null));
}
