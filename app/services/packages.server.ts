import { scopeFor } from "~/models/owner-scope.server";
import {
  countPackages,
  findActivePackages,
  findPackage,
  findPackages,
  insertPackage,
  packageStats,
  removePackage,
  replacePackage,
  type PackageRecord,
} from "~/models/package.server";
import { lastPageAtMost, listTotal, pageAndNext, screenCursorsOf, type ListCursor } from "~/schemas/list-cursor";
import type { ListQuery } from "~/schemas/list-query";
import type { PackageInput } from "~/schemas/package";
import type { Actor } from "./actor";
import { ownedJson, presentOwned } from "./owned-json.server";
import { NotFound } from "~/utils/domain-errors";
import { authorize } from "./permissions.server";

/** A package as the API answers it and the screen renders it. */
export interface PackageJson {
  id: string;
  ownerId: string;
  /** Whose package it is: only in an admin's answers. */
  owner?: { id: string; name: string | null };
  name: string;
  description: string | null;
  price: number;
  features: string[];
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

const notFound = () => new NotFound("Package not found");

function toJson(record: PackageRecord, owners?: Map<string, string>): PackageJson {
  return ownedJson(record, owners, {
    name: record.name,
    description: record.description ?? null,
    price: record.price,
    features: record.features ?? [],
    isActive: record.isActive !== false,
  });
}

const present = (actor: Actor, records: PackageRecord[]) => presentOwned(actor, records, toJson);

/** `GET /api/packages`: the caller's packages (an admin's: everyone's), newest first; `q`, `limit`, `offset` or `cursor`: a page, and the next one's cursor when there is more. */
export async function listPackagesPage(actor: Actor, { q, limit, offset = 0, cursor, updatedSince: since }: Partial<ListQuery> = {}, { total = false } = {}) {
  const scope = scopeFor(actor);
  const read = await findPackages({ scope, q, skip: offset, limit: limit && limit + 1, cursor, since });
  const { page, next } = pageAndNext(read, limit, cursor, since);
  const count = total ? await listTotal({ limit, offset, cursor }, read, () => countPackages({ scope, q, since })) : undefined;
  return { items: await present(actor, page), next, records: page, total: count };
}

/** The dashboard's Active Packages panel: a few of the caller's active packages, newest first. */
export async function activePackages(actor: Actor, limit: number) {
  return present(actor, await findActivePackages({ scope: scopeFor(actor), limit }));
}

/**
 * The Packages screen: the stat cards over every package, how many the search matched, and one page
 * by cursor (the API list's own read) with its Older and Newer cursors; `offset` is an old bookmark's `?page=`.
 */
export async function packagesPage(actor: Actor, { q, cursor, offset = 0, pageSize }: { q?: string; cursor?: ListCursor; offset?: number; pageSize: number }) {
  const scope = scopeFor(actor);
  // Without a search every item matches: the total card is the count.
  const [stats, searched] = await Promise.all([packageStats({ scope }), q ? countPackages({ scope, q }) : undefined]);
  const matched = searched ?? stats.total;
  const from = lastPageAtMost(offset, matched, pageSize);
  const list = await listPackagesPage(actor, { q, limit: pageSize, offset: from, cursor });
  const cursors = await screenCursorsOf(list, cursor, from, (back) => findPackages({ scope, q, limit: 1, cursor: back }));
  return { packages: list.items, matched, ...cursors, stats };
}

/** One package in scope; 404 "Package not found" for another account's or a malformed id. */
export async function getPackage(actor: Actor, id: string) {
  const record = await findPackage({ scope: scopeFor(actor), id });
  if (!record) throw notFound();
  return (await present(actor, [record]))[0];
}

export async function createPackage(actor: Actor, input: PackageInput) {
  authorize(actor, "catalogue.write");
  const record = await insertPackage({ ownerId: actor.id, input });
  return (await present(actor, [record]))[0];
}

export async function updatePackage(actor: Actor, id: string, input: PackageInput) {
  authorize(actor, "catalogue.write");
  const record = await replacePackage({ scope: scopeFor(actor), id, input });
  if (!record) throw notFound();
  return (await present(actor, [record]))[0];
}

/** Deletes one package in scope and answers it as it was. */
export async function deletePackage(actor: Actor, id: string) {
  authorize(actor, "catalogue.write");
  const record = await removePackage({ scope: scopeFor(actor), id });
  if (!record) throw notFound();
  return (await present(actor, [record]))[0];
}
