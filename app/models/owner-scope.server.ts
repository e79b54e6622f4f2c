import { trusted } from "mongoose";
import { User } from "./user.server";

/**
 * Whose documents a query may touch: one account's, or — for an admin — every account's.
 * Every model function of an owned domain (contacts, packages, …) takes one; there is no
 * unscoped variant, so a forgotten tenancy check cannot compile.
 */
export type OwnerScope = { ownerId: string } | { allOwners: true };

/** Admins (acting as admin, not previewing another role) see everything; others their own. */
export function scopeFor(actor: { id: string; role: string }): OwnerScope {
  return actor.role === "admin" ? { allOwners: true } : { ownerId: actor.id };
}

export const ownerFilter = (scope: OwnerScope): { ownerId?: string } =>
  "ownerId" in scope ? { ownerId: scope.ownerId } : {};

/** A 24-hex-digit id (mongoose.isValidObjectId also accepts any 12-character string). */
export const isObjectIdHex = (id: unknown): id is string => typeof id === "string" && /^[a-f0-9]{24}$/i.test(id);

/** Display names of the owners of a page of documents (admins see whose each one is). */
export async function ownerNames(ownerIds: string[]) {
  const ids = [...new Set(ownerIds)].filter(isObjectIdHex);
  if (ids.length === 0) return new Map<string, string>();
  const users = await User.find({ _id: trusted({ $in: ids }) })
    .select({ username: 1, firstName: 1, lastName: 1, companyName: 1 })
    .lean<{ _id: unknown; username: string; firstName?: string; lastName?: string; companyName?: string }[]>();
  return new Map(
    users.map((u) => [
      String(u._id),
      u.companyName || [u.firstName, u.lastName].filter(Boolean).join(" ") || u.username,
    ]),
  );
}
