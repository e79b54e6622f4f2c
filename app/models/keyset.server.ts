import { trusted, Types } from "mongoose";
import { CURSOR_INVALID, isSyncRead, type ListCursor } from "~/schemas/list-cursor";
import { Invalid } from "~/utils/domain-errors";

// The orders a list is read in (docs/decisions/0033, 0052), apart from any owner or search: models
// of every kind use them, the users' own among them (which the owner-scoped list helpers import).

/**
 * The records past a cursor in the list's order (createdAt, then _id): `createdAt` bounded on its own
 * (an index range after the owner's equality), the tie on `_id` decided by the `$or`. Newer ones are
 * read oldest first (`keysetSort`) and turned around by the caller (`inListOrder`). A sync
 * (`updatedSince`, or its "changed" cursor) reads by updatedAt, then _id, oldest change first
 * (docs/decisions/0052): from `since`, and past its cursor.
 */
export function keysetFilter(cursor: ListCursor | undefined, since?: Date) {
  if (isSyncRead(cursor, since)) return changedFilter(cursor, since);
  if (!cursor) return {};
  const id = new Types.ObjectId(cursor.id);
  const older = cursor.direction === "older";
  return {
    createdAt: trusted(older ? { $lte: cursor.at } : { $gte: cursor.at }),
    $or: [{ createdAt: trusted(older ? { $lt: cursor.at } : { $gt: cursor.at }) }, { _id: trusted(older ? { $lt: id } : { $gt: id }) }],
  };
}

function changedFilter(cursor: ListCursor | undefined, since: Date | undefined) {
  // A screen's Older/Newer cursor is a position in the order of creation, not of changes.
  if (cursor && cursor.direction !== "changed") throw new Invalid(CURSOR_INVALID, { fields: { cursor: CURSOR_INVALID } });
  // A cursor before `since` (one kept from an earlier sync) goes on from `since`.
  if (!cursor || (since && cursor.at < since)) return changedSince(since);
  const id = new Types.ObjectId(cursor.id);
  return {
    updatedAt: trusted({ $gte: cursor.at }),
    $or: [{ updatedAt: trusted({ $gt: cursor.at }) }, { _id: trusted({ $gt: id }) }],
  };
}

/** The records changed at or after `since` (a sync's count); no condition without it. */
export const changedSince = (since: Date | undefined) => (since ? { updatedAt: trusted({ $gte: since }) } : {});

export const keysetSort = (cursor: ListCursor | undefined, since?: Date): Record<string, 1 | -1> =>
  isSyncRead(cursor, since)
    ? ({ updatedAt: 1, _id: 1 } as const)
    : cursor?.direction === "newer"
      ? ({ createdAt: 1, _id: 1 } as const)
      : ({ createdAt: -1, _id: -1 } as const);

/** A page read oldest first (towards newer) back in the list's order, newest first. */
export const inListOrder = <T>(cursor: ListCursor | undefined, records: T[]) => (cursor?.direction === "newer" ? records.reverse() : records);
