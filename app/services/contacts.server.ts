import {
  contactStats,
  countContacts,
  findContact,
  findContacts,
  insertContact,
  removeContact,
  replaceContact,
  type ContactRecord,
} from "~/models/contact.server";
import { scopeFor } from "~/models/owner-scope.server";
import type { ContactInput } from "~/schemas/contact";
import type { ListQuery } from "~/schemas/list-query";
import { lastPageAtMost, listTotal, pageAndNext, screenCursorsOf, type ListCursor } from "~/schemas/list-cursor";
import { isAdmin, type Actor } from "./actor";
import { ownedJson, presentOwned } from "./owned-json.server";
import { NotFound } from "~/utils/domain-errors";
import { authorize } from "./permissions.server";

/** A contact as the API answers it and the screen renders it. */
export interface ContactJson {
  id: string;
  ownerId: string;
  /** Whose contact it is: only in an admin's answers. */
  owner?: { id: string; name: string | null };
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  companyName: string | null;
  address: string | null;
  notes: string | null;
  createdAt: string;
  updatedAt: string;
}

const notFound = () => new NotFound("Contact not found");

function toJson(record: ContactRecord, owners?: Map<string, string>): ContactJson {
  return ownedJson(record, owners, {
    firstName: record.firstName,
    lastName: record.lastName,
    email: record.email,
    phone: record.phone ?? null,
    companyName: record.companyName ?? null,
    address: record.address ?? null,
    notes: record.notes ?? null,
  });
}

/** Admins get every owner's name alongside; everyone else only their own documents anyway. */
const present = (actor: Actor, records: ContactRecord[]) => presentOwned(actor, records, toJson);

/** `GET /api/contacts`: the caller's contacts (an admin's: everyone's), newest first; `q`, `limit`, `offset`. */
export async function listContacts(actor: Actor, query: Partial<ListQuery> = {}) {
  return (await listContactsPage(actor, query)).items;
}

/** `GET /api/contacts`: a page, and the next one's cursor when there is more. */
export async function listContactsPage(actor: Actor, { q, limit, offset = 0, cursor, updatedSince: since }: Partial<ListQuery>, { total = false } = {}) {
  const scope = scopeFor(actor);
  const read = await findContacts({ scope, q, skip: offset, limit: limit && limit + 1, cursor, since });
  const { page, next } = pageAndNext(read, limit, cursor, since);
  const count = total ? await listTotal({ limit, offset, cursor }, read, () => countContacts({ scope, q, since })) : undefined;
  return { items: await present(actor, page), next, records: page, total: count };
}

/** A customer dropdown's choices: the newest contacts of `ownerId` (an admin's pick for that account; anyone else has only their own). */
export async function contactChoices(actor: Actor, ownerId: string, limit = 500) {
  const records = await findContacts({ scope: isAdmin(actor) ? { ownerId } : scopeFor(actor), limit });
  return records.map((r) => ({ id: String(r._id), firstName: r.firstName, lastName: r.lastName }));
}

/**
 * The Contacts screen: the summary cards over every contact, how many the search matched, and one
 * page by cursor (the API list's own read) with the cursors of the Older and Newer pages when there
 * are any. `offset` is an old bookmark's `?page=`.
 */
export async function contactsPage(actor: Actor, { q, cursor, offset = 0, pageSize }: { q?: string; cursor?: ListCursor; offset?: number; pageSize: number }) {
  const scope = scopeFor(actor);
  // Without a search every item matches: the total card is the count.
  const [stats, searched] = await Promise.all([contactStats({ scope }), q ? countContacts({ scope, q }) : undefined]);
  const matched = searched ?? stats.total;
  const from = lastPageAtMost(offset, matched, pageSize);
  const list = await listContactsPage(actor, { q, limit: pageSize, offset: from, cursor });
  const cursors = await screenCursorsOf(list, cursor, from, (back) => findContacts({ scope, q, limit: 1, cursor: back }));
  return { contacts: list.items, matched, ...cursors, stats };
}

/** One contact in scope; 404 "Contact not found" for another account's or a malformed id. */
export async function getContact(actor: Actor, id: string) {
  const record = await findContact({ scope: scopeFor(actor), id });
  if (!record) throw notFound();
  return (await present(actor, [record]))[0];
}

/** Creates a contact owned by the caller (never by an id from the request). */
export async function createContact(actor: Actor, input: ContactInput) {
  authorize(actor, "contacts.write");
  const record = await insertContact({ ownerId: actor.id, input });
  return (await present(actor, [record]))[0];
}

export async function updateContact(actor: Actor, id: string, input: ContactInput) {
  authorize(actor, "contacts.write");
  const record = await replaceContact({ scope: scopeFor(actor), id, input });
  if (!record) throw notFound();
  return (await present(actor, [record]))[0];
}

/** Deletes one contact in scope and answers it as it was. */
export async function deleteContact(actor: Actor, id: string) {
  authorize(actor, "contacts.delete");
  const record = await removeContact({ scope: scopeFor(actor), id });
  if (!record) throw notFound();
  return (await present(actor, [record]))[0];
}
