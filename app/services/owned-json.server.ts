import { ownerNames } from "~/models/owner-scope.server";
import { isAdmin, type Actor } from "./auth.server";

/** Owned records as JSON; an admin, who sees every account's, also gets each record's owner name. */
export async function presentOwned<R extends { ownerId: unknown }, J>(
  actor: Actor,
  records: R[],
  toJson: (record: R, owners?: Map<string, string>) => J,
) {
  const owners = isAdmin(actor) ? await ownerNames(records.map((r) => String(r.ownerId))) : undefined;
  return records.map((r) => toJson(r, owners));
}

/** The fields every owned record's JSON starts with: its id, its owner's id, and (for an admin) the owner's name. */
export function ownership(record: { _id: unknown; ownerId: unknown }, owners?: Map<string, string>) {
  const ownerId = String(record.ownerId);
  return {
    id: String(record._id),
    ownerId,
    ...(owners ? { owner: { id: ownerId, name: owners.get(ownerId) ?? "Deleted account" } } : {}),
  };
}
