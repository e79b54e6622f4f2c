import type { Role, User } from "~/models/user.server";

/**
 * Who is calling, and what every service asks of it. It imports no service, so any service can use
 * it without drawing a circle back through sign-in (docs/decisions/0024).
 */
export interface Actor {
  id: string;
  user: InstanceType<typeof User>;
  /** The role permissions are checked against (the previewed role while an admin previews). */
  role: Role;
  /** The account's real role. */
  realRole: Role;
  via: "session" | "token";
}

export const isAdmin = (actor: Actor) => actor.role === "admin";
