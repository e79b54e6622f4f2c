import { trusted } from "mongoose";
import { searchWords } from "~/schemas/list-query";

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
