import { trusted, type Model } from "mongoose";
import { searchWords } from "~/schemas/list-query";
import { ownerFilter, type OwnerScope } from "./owner-scope.server";

/** The text with regular-expression metacharacters escaped, so a search matches it literally. */
export function escapeRegex(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

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
// Any model with ownerId and createdAt: the filter is built from plain fields, so its type is not needed.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function ownedList<T>(model: Model<any>, searchFields: readonly string[]) {
  const filter = (scope: OwnerScope, q: string | undefined) => ({ ...ownerFilter(scope), ...searchFilter(q, searchFields) });
  return {
    /** One page of the scope's items matching the search (all of them without a limit). */
    find({ scope, q, skip = 0, limit }: { scope: OwnerScope; q?: string; skip?: number; limit?: number }) {
      const query = model.find(filter(scope, q)).sort({ createdAt: -1, _id: -1 }).skip(skip);
      return (limit === undefined ? query : query.limit(limit)).lean<T[]>();
    },
    /** How many of the scope's items match the search. */
    count({ scope, q }: { scope: OwnerScope; q?: string }) {
      return model.countDocuments(filter(scope, q));
    },
  };
}
