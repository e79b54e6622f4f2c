import { Schema, type Types } from "mongoose";
import type { ContactInput } from "~/schemas/contact";
import { matchesSearch, searchWords } from "~/schemas/list-query";
import { defineModel } from "./define-model.server";
import { isObjectIdHex, ownerFilter, type OwnerScope } from "./owner-scope.server";

const contactSchema = new Schema(
  {
    ownerId: { type: Schema.Types.ObjectId, required: true, immutable: true },
    firstName: { type: String, required: true, trim: true },
    lastName: { type: String, required: true, trim: true },
    email: { type: String, required: true, trim: true },
    // Optional fields are absent when blank (never ""): "with company/phone" counts filled ones.
    phone: { type: String, trim: true },
    companyName: { type: String, trim: true },
    address: { type: String, trim: true },
    notes: { type: String },
  },
  { timestamps: true },
);
// The list: one owner's contacts, newest first.
contactSchema.index({ ownerId: 1, createdAt: -1 });

export const Contact = defineModel("Contact", contactSchema);

export interface ContactRecord {
  _id: Types.ObjectId;
  ownerId: Types.ObjectId;
  firstName: string;
  lastName: string;
  email: string;
  phone?: string;
  companyName?: string;
  address?: string;
  notes?: string;
  createdAt: Date;
  updatedAt: Date;
}

/** What the search box looks through. */
export const CONTACT_SEARCH_FIELDS = ["firstName", "lastName", "email", "companyName", "phone"] as const;
const OPTIONAL_FIELDS = ["phone", "companyName", "address", "notes"] as const;

/**
 * Every contact in scope, newest first, in one query. Lists are searched and paged by the
 * caller (see searchContacts): on the embedded database (FerretDB/SQLite) any filter but `_id`
 * scans the whole collection, so one query per page is what keeps a page fast, and the summary
 * cards need every contact anyway. Sized for contact books (thousands per account).
 */
export async function findContacts({ scope }: { scope: OwnerScope }) {
  return Contact.find(ownerFilter(scope)).sort({ createdAt: -1, _id: -1 }).lean<ContactRecord[]>();
}

/** The search box: every word in first name, last name, email, company or phone (any case). */
export function searchContacts(records: ContactRecord[], q: string | undefined) {
  const words = searchWords(q);
  if (words.length === 0) return records;
  return records.filter((r) => matchesSearch(words, CONTACT_SEARCH_FIELDS.map((f) => r[f])));
}

type StatsRow = Pick<ContactRecord, "companyName" | "phone">;

/** The summary cards over a set of contacts: all, those with a company, those with a phone. */
export function statsOf(rows: StatsRow[]) {
  return {
    total: rows.length,
    withCompany: rows.filter((r) => r.companyName).length,
    withPhone: rows.filter((r) => r.phone).length,
  };
}

export async function findContact({ scope, id }: { scope: OwnerScope; id: string }) {
  if (!isObjectIdHex(id)) return null;
  return Contact.findOne({ _id: id, ...ownerFilter(scope) }).lean<ContactRecord>();
}

export async function insertContact({ ownerId, input }: { ownerId: string; input: ContactInput }) {
  const doc = await Contact.create({ ...input, ownerId });
  return doc.toObject() as unknown as ContactRecord;
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
  return Contact.findOneAndUpdate(
    { _id: id, ...ownerFilter(scope) },
    Object.keys($unset).length > 0 ? { $set, $unset } : { $set },
    { returnDocument: "after", runValidators: true },
  ).lean<ContactRecord>();
}

export async function removeContact({ scope, id }: { scope: OwnerScope; id: string }) {
  if (!isObjectIdHex(id)) return null;
  return Contact.findOneAndDelete({ _id: id, ...ownerFilter(scope) }).lean<ContactRecord>();
}
