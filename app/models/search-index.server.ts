import { trusted, type Model, type Schema } from "mongoose";
import { searchWords } from "~/schemas/list-query";
import { ownerFilter, type OwnerScope } from "./owner-scope.server";
import { everyAccountId } from "./user.server";
import { codeEndings, escapeRegex, searchQuery, searchText, searchTokens } from "~/utils/search-tokens";

/** Which fields a domain searches; `phones` are also found by their digits written together. */
export interface SearchedFields {
  fields: readonly string[];
  phones?: readonly string[];
  /** Codes (a VIN) are also found by their last characters. */
  codes?: readonly string[];
}

type Values = Record<string, unknown>;
const text = (record: Values, names: readonly string[]) =>
  names.map((name) => {
    const value = record[name];
    return typeof value === "string" ? value : undefined;
  });

/** `searchTokens` and `searchText` of a record (or of the fields a replace writes: all searched ones). */
export function searchIndexOf(record: Values, { fields, phones = [], codes = [] }: SearchedFields) {
  const values = text(record, fields.filter((f) => !phones.includes(f)));
  const phoneValues = text(record, phones);
  const tokens = new Set([...searchTokens(values, { phones: phoneValues }), ...text(record, codes).flatMap(codeEndings)]);
  return { searchTokens: [...tokens], searchText: searchText(values, { phones: phoneValues }) };
}

/**
 * Keeps a record's search index on write (docs/decisions/0033): created and saved documents and
 * imported ones (insertMany) get it here; a replace of the editable fields sets it with them
 * (searchIndexOf). The index: the owner, a token, the latest-version marker when there is one, and
 * the list's order, so a search walks one token's entries newest first.
 */
export function searchIndexPlugin(schema: Schema, searched: SearchedFields, indexKeys: Record<string, 1 | -1>) {
  schema.add({ searchTokens: { type: [String], default: undefined }, searchText: { type: String } });
  schema.index({ ownerId: 1, searchTokens: 1, ...indexKeys });
  schema.pre("save", function () {
    this.set(searchIndexOf(this.toObject(), searched));
  });
  schema.pre("insertMany", function (docs: Values | Values[]) {
    for (const doc of Array.isArray(docs) ? docs : [docs]) Object.assign(doc, searchIndexOf(doc, searched));
  });
}

/**
 * The search as a filter: every word (folded) must occur in the folded text, and begin a word there —
 * the words' tokens, the longest (rarest) as the index's equality, the others tested on its few
 * candidates. Words of punctuation alone have no token: the text alone decides (over the account).
 */
export function tokenSearchFilter(q: string | undefined) {
  const { words, tokens } = searchQuery(searchWords(q));
  if (words.length === 0) return {};
  const inText = words.map((word) => ({ searchText: trusted({ $regex: escapeRegex(word) }) }));
  const [first, ...others] = tokens;
  return {
    ...(first ? { searchTokens: first } : {}),
    $and: [...others.map((token) => ({ searchTokens: token })), ...inText],
  };
}

const BACKFILL_BATCH = 500;

/**
 * Records written before the index (or straight to the collection) get it: those of the scope without
 * tokens, found through the token index (`searchTokens: null` is its own range), each written only if
 * still without them, so two instances doing it at once, or an edit meanwhile, write the same or the newer.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function backfillSearchIndex(model: Model<any>, scope: OwnerScope, searched: SearchedFields) {
  let written = 0;
  for (;;) {
    const missing = await model
      .find({ ...ownerFilter(scope), searchTokens: null })
      .select(Object.fromEntries(searched.fields.map((f) => [f, 1])))
      .limit(BACKFILL_BATCH)
      .lean<Values[]>();
    if (missing.length === 0) return written;
    const result = await model.bulkWrite(
      missing.map((record) => ({
        updateOne: { filter: { _id: record._id, searchTokens: null }, update: { $set: searchIndexOf(record, searched) }, timestamps: false },
      })),
      { ordered: false },
    );
    written += result.modifiedCount;
    // Nothing written: another writer is at it (or the rest was written meanwhile); it finishes them.
    if (missing.length < BACKFILL_BATCH || result.modifiedCount === 0) return written;
  }
}

/**
 * Every account's records (the data migration, 0048): one account after another (the accounts from
 * their own small collection: a distinct of the owners reads the whole big one), each through the
 * index that leads with its owner. Without the owner no index applies, and each batch of the
 * backfill would read the collection from its start again.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function backfillSearchIndexOfEveryAccount(model: Model<any>, searched: SearchedFields) {
  let written = 0;
  for (const ownerId of await everyAccountId()) written += await backfillSearchIndex(model, { ownerId: String(ownerId) }, searched);
  return written;
}
