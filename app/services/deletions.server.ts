import { countDeletions, findDeletions } from "~/models/deletion.server";
import { scopeFor } from "~/models/owner-scope.server";
import type { DeletionsQuery } from "~/schemas/deletions";
import { listTotal, pageAndNext } from "~/schemas/list-cursor";
import type { Actor } from "./actor";

/** The start of every sync that has none: the first deletion kept. */
const EPOCH = new Date(0);

/**
 * `GET /api/deletions`: the records deleted in the caller's scope (an admin's: every account's and the
 * platform's) at or after `updatedSince`, oldest first, paged as a sync (docs/decisions/0056).
 */
export async function listDeletionsPage(actor: Actor, { updatedSince, limit, cursor }: DeletionsQuery) {
  const scope = scopeFor(actor);
  const since = updatedSince ?? EPOCH;
  const read = await findDeletions({ scope, since, cursor, limit: limit && limit + 1 });
  const { page, next } = pageAndNext(read, limit, cursor, since);
  const total = await listTotal({ limit, cursor }, read, () => countDeletions({ scope, since }));
  return {
    items: page.map((d) => ({ kind: d.kind, id: String(d.recordId), deletedAt: d.updatedAt.toISOString() })),
    next,
    total,
  };
}
