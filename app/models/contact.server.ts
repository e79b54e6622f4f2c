import { Schema, trusted } from "mongoose";
import type { ContactInput } from "~/schemas/contact";
import { defineModel, type RecordOf } from "./define-model.server";
import { ownedList, present } from "./list-filter.server";
import { backfillSearchIndex, backfillSearchIndexOfEveryAccount, searchIndexOf, searchIndexPlugin, type SearchedFields } from "./search-index.server";
import { isObjectIdHex, ownerFilter, type OwnerScope } from "./owner-scope.server";
import { recordDeletion } from "./deletion.server";
import { deleteInBatches } from "./batch-delete.server";

const contactSchema = new Schema(
  {
    ownerId: { type: Schema.Types.ObjectId, required: true, immutable: true },
    firstName: { type: String, required: true, trim: true },
    lastName: { type: String, required: true, trim: true },
    email: { type: String, required: true, trim: true },
    // Optional fields are absent when blank (never ""): "with company/phone" counts filled ones.
    phone: { type: String, trim: true, allowNull: false },
    companyName: { type: String, trim: true, allowNull: false },
    address: { type: String, trim: true, allowNull: false },
    notes: { type: String, allowNull: false },
  },
  { timestamps: true },
);
// The list: one owner's contacts, newest first.
contactSchema.index({ ownerId: 1, createdAt: -1 });
// A sync's read, in the order of changes (docs/decisions/0052).
contactSchema.index({ ownerId: 1, updatedAt: 1, _id: 1 });
// The search and the summary cards: every searched field and those the cards count, after the owner,
// so a search or a count is decided on index entries before any contact is read (MongoDB and the
// embedded engine alike); with the list's order last, a search's matches are put in order there
// too, and only the page's contacts are read.
contactSchema.index({ ownerId: 1, firstName: 1, lastName: 1, email: 1, companyName: 1, phone: 1, createdAt: -1 });
// The search (docs/decisions/0033): the owner, one of the words' tokens, newest first.
const SEARCHED: SearchedFields = { fields: ["firstName", "lastName", "email", "companyName", "phone"], phones: ["phone"] };
searchIndexPlugin(contactSchema, SEARCHED, { createdAt: -1, _id: -1 });

export const Contact = defineModel("Contact", contactSchema);

export type ContactRecord = RecordOf<typeof contactSchema>;

/** Gives the scope's contacts written without a search index theirs (see backfillSearchIndex). */
export const backfillContactSearch = (scope: OwnerScope) => backfillSearchIndex(Contact, scope, SEARCHED);
/** Every account's contacts written without a search index (the data migration). */
export const backfillContactSearchOfEveryAccount = () => backfillSearchIndexOfEveryAccount(Contact, SEARCHED);
const OPTIONAL_FIELDS = ["phone", "companyName", "address", "notes"] as const;

const list = ownedList<ContactRecord>(Contact, "tokens", (scope) => backfillContactSearch(scope));
/** One page of the scope's contacts matching the search, newest first (all of them without a limit). */
export const findContacts = list.find;
/** How many of the scope's contacts match the search. */
export const countContacts = list.count;

/** The summary cards over every contact in scope: all, those with a company, those with a phone. */
export async function contactStats({ scope }: { scope: OwnerScope }) {
  const owner = ownerFilter(scope);
  const [total, withCompany, withPhone] = await Promise.all([
    Contact.countDocuments(owner),
    Contact.countDocuments({ ...owner, ...present("companyName") }),
    Contact.countDocuments({ ...owner, ...present("phone") }),
  ]);
  return { total, withCompany, withPhone };
}

export async function findContact({ scope, id }: { scope: OwnerScope; id: string }) {
  if (!isObjectIdHex(id)) return null;
  return Contact.findOne({ _id: id, ...ownerFilter(scope) }).lean<ContactRecord>();
}

/** The contacts in scope with these ids, in one query (the contacts of a page of assessments). */
export async function findContactsByIds({ scope, ids }: { scope: OwnerScope; ids: string[] }) {
  const wanted = [...new Set(ids)].filter(isObjectIdHex);
  if (wanted.length === 0) return [];
  return Contact.find({ _id: trusted({ $in: wanted }), ...ownerFilter(scope) })
    .select({ ownerId: 1, firstName: 1, lastName: 1, email: 1 })
    .lean<Pick<ContactRecord, "_id" | "ownerId" | "firstName" | "lastName" | "email">[]>();
}

export async function insertContact({ ownerId, input }: { ownerId: string; input: ContactInput }): Promise<ContactRecord> {
  const doc = await Contact.create({ ...input, ownerId });
  return doc.toObject();
}

/** Replaces the editable fields (an optional field left out is removed); null when not in scope. */
export async function replaceContact({ scope, id, input }: { scope: OwnerScope; id: string; input: ContactInput }) {
  if (!isObjectIdHex(id)) return null;
  const $set: Record<string, unknown> = { firstName: input.firstName, lastName: input.lastName, email: input.email };
  const $unset: Record<string, 1> = {};
  for (const field of OPTIONAL_FIELDS) {
    if (input[field] === undefined) $unset[field] = 1;
    else $set[field] = input[field];
  }
  // Every searched field is written here: the search index follows from them alone.
  Object.assign($set, searchIndexOf($set, SEARCHED));
  return Contact.findOneAndUpdate(
    { _id: id, ...ownerFilter(scope) },
    Object.keys($unset).length > 0 ? { $set, $unset } : { $set },
    { returnDocument: "after", runValidators: true },
  ).lean<ContactRecord>();
}

export async function removeContact({ scope, id }: { scope: OwnerScope; id: string }) {
  if (!isObjectIdHex(id)) return null;
  const removed = await Contact.findOneAndDelete({ _id: id, ...ownerFilter(scope) }).lean<ContactRecord>();
  await recordDeletion("contact", removed);
  return removed;
}

/** Every contact of an account (the account is being deleted). */
export async function removeContactsOf({ ownerId }: { ownerId: string }) {
  await deleteInBatches(Contact, { ownerId });
}
