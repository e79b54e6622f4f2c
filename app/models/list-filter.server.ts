import { trusted, type Model } from "mongoose";
import type { ListCursor } from "~/schemas/list-cursor";
import { searchWords } from "~/schemas/list-query";
import { escapeRegex } from "~/utils/search-tokens";
import { ownerFilter, type OwnerScope } from "./owner-scope.server";
import { tokenSearchFilter } from "./search-index.server";
import { changedSince, inListOrder, keysetFilter, keysetSort } from "./keyset.server";

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
