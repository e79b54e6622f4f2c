import { revokeMemberTokens } from "~/models/api-token.server";
import {
  acceptInviteRecord,
  countMembersOf,
  deleteMember,
  findInvite,
  findMember,
  insertInvite,
  listMembersOf,
  setMemberFields,
  usernameKeyTaken,
  type MemberRecord,
} from "~/models/member.server";
import { deleteUserSessions } from "~/models/session.server";
import { findUserById, User, usernameKey } from "~/models/user.server";
import { accountRoleLabel, INVITE_DAYS, MAX_MEMBERS, type MemberRole, type MemberStatus, type acceptInviteSchema, type inviteSchema, type memberUpdateSchema } from "~/schemas/members";
import { Conflict, Forbidden, Invalid, NotFound } from "~/utils/domain-errors";
import type { z } from "zod";
import type { Actor } from "./actor";
import { hashPassword } from "./auth.server";
import { sendMemberInvite } from "./outbox.server";
import { authorize } from "./permissions.server";
import { publicOrigin } from "./storage/names.server";

/**
 * The people of an account (issue 44, docs/decisions/0067): its owner invites them by email, changes
 * their role, suspends and removes them. A suspended or removed member's sessions and API tokens end
 * at once, on every instance within 3 × CACHE_POLL_MS (the member record and the tokens are read
 * through the credential cache; sessions are read from the database on every request).
 */

export interface MemberJson {
  id: string;
  email: string;
  role: "manager" | "estimator" | "viewer";
  status: "invited" | "active" | "suspended";
  username: string | null;
  firstName: string | null;
  lastName: string | null;
  inviteExpiresAt: string | null;
  acceptedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

const memberNotFound = () => new NotFound("Member not found");

/** The account's owner, of a dealer or vendor account: an administrator's account has no members (a member would act as an admin). */
function authorizeMembers(actor: Actor) {
  authorize(actor, "members.manage");
  if (actor.realRole === "admin") throw new Forbidden("An administrator's account has no members");
}

function toJson(m: MemberRecord): MemberJson {
  const status = m.status === "active" || m.status === "suspended" ? m.status : "invited";
  const role = m.accountRole === "manager" || m.accountRole === "estimator" ? m.accountRole : "viewer";
  return {
    id: String(m._id),
    email: m.email,
    role,
    status,
    username: status === "invited" ? null : m.username || null,
    firstName: m.firstName || null,
    lastName: m.lastName || null,
    inviteExpiresAt: status === "invited" && m.inviteExpiresAt ? m.inviteExpiresAt.toISOString() : null,
    acceptedAt: m.acceptedAt ? m.acceptedAt.toISOString() : null,
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
  };
}

const accountName = (user: Actor["user"]) => user.companyName || [user.firstName, user.lastName].filter(Boolean).join(" ") || user.username;

export async function listMembers(actor: Actor) {
  authorizeMembers(actor);
  return (await listMembersOf({ ownerId: actor.id })).map(toJson);
}

/** Invites a person (an email with a link that expires); answers the member and, for the owner to pass on by hand, the link. */
export async function inviteMember(actor: Actor, input: z.infer<typeof inviteSchema>, request?: Request) {
  authorizeMembers(actor);
  if ((await countMembersOf({ ownerId: actor.id })) >= MAX_MEMBERS) throw new Conflict(`An account can have at most ${MAX_MEMBERS} members`);
  const expiresAt = new Date(Date.now() + INVITE_DAYS * 86_400_000);
  const { token, record } = await insertInvite({ ownerId: actor.id, email: input.email, role: input.role, expiresAt });
  const inviteUrl = `${publicOrigin(request)}/invite/${token}`;
  await sendMemberInvite({
    ownerId: actor.id,
    inviteId: String(record._id),
    email: input.email,
    accountName: accountName(actor.user),
    role: accountRoleLabel(input.role).toLowerCase(),
    url: inviteUrl,
    expiresAt,
  });
  return { member: toJson(record), inviteUrl };
}

/** Ends every session and API token of a member (suspended, removed). */
async function endMemberAccess(ownerId: string, memberId: string) {
  await Promise.all([deleteUserSessions(memberId), revokeMemberTokens({ ownerId, memberId })]);
}

export async function updateMember(actor: Actor, id: string, input: z.infer<typeof memberUpdateSchema>) {
  authorizeMembers(actor);
  const current = await findMember({ ownerId: actor.id, id });
  if (!current) throw memberNotFound();
  const set: { accountRole?: MemberRole; status?: MemberStatus } = {};
  if (input.role) set.accountRole = input.role;
  if (input.suspended !== undefined) {
    if (current.status === "invited") throw new Conflict("An invite that was not accepted cannot be suspended; remove it instead");
    set.status = input.suspended ? "suspended" : "active";
  }
  const updated = await setMemberFields({ ownerId: actor.id, id }, set);
  if (!updated) throw memberNotFound();
  if (updated.status === "suspended") await endMemberAccess(actor.id, id);
  return toJson(updated);
}

export async function removeMember(actor: Actor, id: string) {
  authorizeMembers(actor);
  if (!(await deleteMember({ ownerId: actor.id, id }))) throw memberNotFound();
  await endMemberAccess(actor.id, id);
}

/** The invite page: whose account and which role a link is for; NotFound when it expired or was used. */
export async function invitePreview(token: string) {
  const invite = await findInvite(token);
  const owner = invite ? await findUserById(String(invite.ownerId)) : null;
  if (!invite || !owner || owner.deletedAt) throw new NotFound("This invite link has expired or was already used");
  return { accountName: accountName(owner), email: invite.email, role: accountRoleLabel(toJson(invite).role) };
}

/** The invitee chooses a username and password; they sign in with them from then on. */
export async function acceptInvite(token: string, input: z.infer<typeof acceptInviteSchema>) {
  const invite = await findInvite(token);
  if (!invite) throw new NotFound("This invite link has expired or was already used");
  const key = usernameKey(input.username);
  if ((await User.exists({ usernameKey: key })) || (await usernameKeyTaken(key))) {
    throw new Invalid("Username already exists", { fields: { username: "Username already exists" } });
  }
  const ok = await acceptInviteRecord(invite._id, {
    username: input.username,
    usernameKey: key,
    passwordHash: await hashPassword(input.password),
    firstName: input.firstName,
    lastName: input.lastName,
  });
  if (!ok) throw new NotFound("This invite link has expired or was already used");
  return { username: input.username };
}
