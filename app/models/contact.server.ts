import { Schema, trusted, type Types } from "mongoose";
import type { ContactInput } from "~/schemas/contact";
import { defineModel } from "./define-model.server";
import { isObjectIdHex, ownerFilter, textSearch, type OwnerScope } from "./owner-scope.server";

const contactSchema = new Schema(
  {
    ownerId: { type: Schema.Types.ObjectId, required: true, immutable: true },
    firstName: { type: String, required: true, trim: true },
    lastName: { type: String, required: true, trim: true },
    email: { type: String, required: true, trim: true },
    // Optional fields are absent (never "") so "with company"/"with phone" are $exists counts.
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

const listFilter = (scope: OwnerScope, q?: string) => ({
  ...ownerFilter(scope),
  ...textSearch(q, CONTACT_SEARCH_FIELDS),
});

export async function findContacts({
  scope,
  q,
  limit,
  offset,
}: {
  scope: OwnerScope;
  q?: string;
  limit?: number;
  offset?: number;
}) {
  const query = Contact.find(listFilter(scope, q)).sort({ createdAt: -1, _id: -1 });
  if (offset) query.skip(offset);
  if (limit) query.limit(limit);
  return query.lean<ContactRecord[]>();
}

export async function countContacts({ scope, q }: { scope: OwnerScope; q?: string }) {
  return Contact.countDocuments(listFilter(scope, q));
}

/** The summary cards: all contacts in scope, those with a company, those with a phone. */
export async function contactStats({ scope }: { scope: OwnerScope }) {
  const base = ownerFilter(scope);
  const [total, withCompany, withPhone] = await Promise.all([
    Contact.countDocuments(base),
    Contact.countDocuments({ ...base, companyName: trusted({ $exists: true }) }),
    Contact.countDocuments({ ...base, phone: trusted({ $exists: true }) }),
  ]);
  return { total, withCompany, withPhone };
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
