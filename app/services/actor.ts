import type { AuditActor } from "~/models/assessment.server";
import type { Role, User } from "~/models/user.server";
import type { AccountRole, MemberRole } from "~/schemas/members";

/** A member of an account acting (docs/decisions/0067): who they are, and their role inside it. */
export interface ActingMember {
  id: string;
  name: string;
  role: MemberRole;
}

/**
 * Who is calling, and what every service asks of it. It imports no service, so any service can use
 * it without drawing a circle back through sign-in (docs/decisions/0024).
 */
export interface Actor {
  /** The account (its owner's id): every query is scoped to it, for its owner and its members alike. */
  id: string;
  /** The account's record (its settings, its name). */
  user: InstanceType<typeof User>;
  /** The role permissions are checked against (the previewed role while an admin previews). */
  role: Role;
  /** The account's real role. */
  realRole: Role;
  via: "session" | "token";
  /** Set when a member of the account acts rather than its owner. */
  member?: ActingMember;
}

export const isAdmin = (actor: Actor) => actor.role === "admin";

/** The caller's role inside its account: its owner unless a member acts. */
export const accountRoleOf = (actor: Pick<Actor, "member">): AccountRole => actor.member?.role ?? "owner";

/** The person acting: the member's id, else the account's own. */
export const personIdOf = (actor: Pick<Actor, "id" | "member">) => actor.member?.id ?? actor.id;

/** Who is acting, as the audit list names them: a member as themself (issue 44: "Edited by Maria Lopez"). */
export function auditActor(actor: Actor): AuditActor {
  if (actor.member) return { id: actor.member.id, name: actor.member.name };
  const { firstName, lastName, username } = actor.user;
  return { id: actor.id, name: [firstName, lastName].filter(Boolean).join(" ") || username };
}
