import { trusted, Types, type Model } from "mongoose";
import { CURSOR_INVALID, isSyncRead, type ListCursor } from "~/schemas/list-cursor";
import { Invalid } from "~/utils/domain-errors";
import { searchWords } from "~/schemas/list-query";
import { escapeRegex } from "~/utils/search-tokens";
import { ownerFilter, type OwnerScope } from "./owner-scope.server";
import { tokenSearchFilter } from "./search-index.server";

export { escapeRegex };

/**
 * The list search as a filter: every word of `q` must occur, in any case, in one of `fields`
 * (`{$and: [{$or: [{field: /word/i}, …]}, …]}`); no condition without words. Built here, never from
 * request data, hence `trusted` past mongoose's sanitizeFilter.
 */
export function searchFilter(q: string | undefined, fields: readonly string[]) {
  const words = searchWords(q);
  if (words.length === 0) return {};
  return {
    $and: words.map((word) => ({
      $or: fields.map((field) => ({ [field]: trusted({ $regex: escapeRegex(word), $options: "i" }) })),
    })),
  };
}

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

/** `{field: {$exists: true}}` (e.g. the "with company" card), past sanitizeFilter like searchFilter. */
export const present = (field: string) => ({ [field]: trusted({ $exists: true }) });

/**
 * The list queries of an owned domain, newest first: the owner's equality first (the leading field
 * of its indexes, `{ownerId: 1, createdAt: -1}` for the order), then the search words.
 */
export function ownedList<T>(
  // Any model with ownerId and createdAt: the filter is built from plain fields, so its type is not needed.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  model: Model<any>,
  searchFields: readonly string[] | "tokens",
  /** Run before a search (the records' search index brought up to date: backfillSearchIndex). */
  beforeSearch: (scope: OwnerScope) => Promise<unknown> = async () => undefined,
) {
  // "tokens": the model keeps a search index (search-index.server.ts, docs/decisions/0033).
  const search = (q: string | undefined) => (searchFields === "tokens" ? tokenSearchFilter(q) : searchFilter(q, searchFields));
  const filter = (scope: OwnerScope, q: string | undefined) => ({ ...ownerFilter(scope), ...search(q) });
  return {
    /** One page of the scope's items matching the search (all of them without a limit). */
    async find({ scope, q, skip = 0, limit, cursor, since }: { scope: OwnerScope; q?: string; skip?: number; limit?: number; cursor?: ListCursor; since?: Date }) {
      if (q?.trim()) await beforeSearch(scope);
      const query = model.find({ ...filter(scope, q), ...keysetFilter(cursor, since) }).sort(keysetSort(cursor, since)).skip(skip);
      return inListOrder(cursor, await (limit === undefined ? query : query.limit(limit)).lean<T[]>());
    },
    /** How many of the scope's items match the search (changed since `since`). */
    async count({ scope, q, since }: { scope: OwnerScope; q?: string; since?: Date }) {
      if (q?.trim()) await beforeSearch(scope);
      return model.countDocuments({ ...filter(scope, q), ...changedSince(since) });
    },
  };
}
