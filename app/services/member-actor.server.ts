import { findSignedInMember } from "~/models/member.server";
import { findSignedInUser, type User } from "~/models/user.server";
import { isMemberRole } from "~/schemas/members";
import type { Actor } from "./actor";

/**
 * A member of an account acting (docs/decisions/0067): the person, with the account's id (which scopes
 * every query) and record. Null for a suspended or removed member — on every instance within
 * 3 × CACHE_POLL_MS, as the member record is read through the credential cache — or one whose account
 * is gone, or (`account` given, from a token) of another account.
 */
export async function memberActor(memberId: string, via: Actor["via"], account?: InstanceType<typeof User>): Promise<Actor | null> {
  const member = await findSignedInMember(memberId);
  if (!member || !isMemberRole(member.accountRole)) return null;
  const user = account ?? (await findSignedInUser(String(member.ownerId)));
  if (!user || String(user._id) !== String(member.ownerId)) return null;
  const name = [member.firstName, member.lastName].filter(Boolean).join(" ") || member.username;
  return { id: String(user._id), user, role: user.role, realRole: user.role, via, member: { id: String(member._id), name, role: member.accountRole } };
}
