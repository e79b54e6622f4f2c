import { Schema, trusted, Types, type Model } from "mongoose";
import { Assessment } from "./assessment.server";
import { Contact } from "./contact.server";
import { defineModel } from "./define-model.server";
import { EmailTemplate } from "./email-template.server";
import { LearningRecord } from "./learning-record.server";
import { ServicePackage } from "./package.server";
import { PricingRule } from "./pricing-rule.server";
import type { Role } from "./user.server";
import { VendorPackage } from "./vendor-package.server";
import { deleteInBatches } from "./batch-delete.server";
import type { DeletedKind } from "~/schemas/deletions";
import { recordDeletions } from "./deletion.server";
import { CustomerDecision } from "./customer-decision.server";
import { EmailLog } from "./email-log.server";
import { EstimateLink } from "./estimate-link.server";
import { EstimateQuestion } from "./estimate-question.server";
import { WebhookEndpoint } from "./webhook.server";

/**
 * The account's data that Settings → System exports and imports: one entry per owner-scoped
 * collection. A new domain joins with one line here (the email templates and logs at merge).
 */
export interface ExportableCollection {
  /** The file in the archive (`<name>.ndjson`). */
  name: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  model: Model<any>;
  /** The field naming the owning account. */
  ownerField: "ownerId" | "vendorId";
  /** Which accounts own such documents (an import into another kind of account skips them). */
  roles: readonly Role[];
  /** The time the export reads them in (oldest first): `createdAt` unless the collection has none. */
  orderField?: "decidedAt" | "askedAt";
  /** Fields that never leave in an archive (secrets, tokens, this server's delivery state): docs/decisions/0064. */
  withheld?: readonly string[];
}

const ANY_ACCOUNT = ["dealer", "vendor", "admin"] as const;

export const EXPORTABLE: ExportableCollection[] = [
  { name: "contacts", model: Contact, ownerField: "ownerId", roles: ANY_ACCOUNT },
  { name: "packages", model: ServicePackage, ownerField: "ownerId", roles: ANY_ACCOUNT },
  { name: "assessments", model: Assessment, ownerField: "ownerId", roles: ANY_ACCOUNT },
  { name: "emailTemplates", model: EmailTemplate, ownerField: "ownerId", roles: ANY_ACCOUNT },
  // The customer conversation (docs/decisions/0064): links (imported revoked), the decisions made
  // through them (insert-only, with the PDF's hash), the questions and answers, the email record
  // (imported as a record: never queued again) and the webhook endpoints (without their secrets).
  { name: "emailLogs", model: EmailLog, ownerField: "ownerId", roles: ANY_ACCOUNT, withheld: ["requestHash", "inFlight", "leaseUntil", "workerId", "nextAttemptAt", "searchTokens", "searchText"] },
  { name: "estimateLinks", model: EstimateLink, ownerField: "ownerId", roles: ANY_ACCOUNT, withheld: ["tokenHash", "tokenSealed", "pdfKey"] },
  { name: "customerDecisions", model: CustomerDecision, ownerField: "ownerId", roles: ANY_ACCOUNT, orderField: "decidedAt" },
  { name: "estimateQuestions", model: EstimateQuestion, ownerField: "ownerId", roles: ANY_ACCOUNT, orderField: "askedAt", withheld: ["tokenSealed"] },
  { name: "webhookEndpoints", model: WebhookEndpoint, ownerField: "ownerId", roles: ANY_ACCOUNT, withheld: ["secretSealed", "previousSecretSealed", "previousSecretUntil"] },
  { name: "pricingRules", model: PricingRule, ownerField: "vendorId", roles: ["vendor"] },
  { name: "vendorPackages", model: VendorPackage, ownerField: "vendorId", roles: ["vendor"] },
  { name: "learningRecords", model: LearningRecord, ownerField: "vendorId", roles: ["vendor"] },
];

const EXPORT_PAGE = 200;

/**
 * The owner's documents, oldest first, a page at a time: each page is a keyset read of the owner's
 * {owner, createdAt} index (as a list's "newer" pages), so the database holds one page, never the
 * account. One query for the whole account, sorted by `_id`, made the embedded engine gather and sort
 * every document in its heap: the export of a dealer with 100,000 estimates starved it (issue 38).
 */
export async function* ownerDocuments(entry: ExportableCollection, ownerId: string) {
  const field = entry.orderField ?? "createdAt";
  let cursor: { at: Date; id: Types.ObjectId } | undefined;
  for (;;) {
    const after = cursor
      ? { [field]: trusted({ $gte: cursor.at }), $or: [{ [field]: trusted({ $gt: cursor.at }) }, { _id: trusted({ $gt: cursor.id }) }] }
      : {};
    const page = await entry.model
      .find({ [entry.ownerField]: ownerId, ...after })
      .select(Object.fromEntries((entry.withheld ?? []).map((f) => [f, 0])))
      .sort({ [field]: 1, _id: 1 })
      .limit(EXPORT_PAGE)
      .lean<({ _id: Types.ObjectId } & Record<string, unknown>)[]>();
    yield* page;
    if (page.length < EXPORT_PAGE) return;
    const last = page[page.length - 1];
    const at = last[field];
    if (!(at instanceof Date)) return;
    cursor = { at, id: last._id };
  }
}

/** Which of `ids` the owner has in the collection (the importer's own documents only: another account's are never looked at). */
export async function ownedIds(entry: ExportableCollection, ownerId: string, ids: string[]) {
  if (ids.length === 0) return new Set<string>();
  const found = await entry.model
    .find({ _id: trusted({ $in: ids.map((id) => new Types.ObjectId(id)) }), [entry.ownerField]: new Types.ObjectId(ownerId) })
    .select({ _id: 1 })
    .lean<{ _id: Types.ObjectId }[]>();
  return new Set(found.map((d) => String(d._id)));
}

/**
 * Where an earlier import of the owner stored the archive's records (`sourceId` → the id it got):
 * ids in an archive are never used as ids, so importing the same archive again is recognised here.
 */
const importKeySchema = new Schema(
  {
    ownerId: { type: Schema.Types.ObjectId, required: true },
    collectionName: { type: String, required: true },
    sourceId: { type: String, required: true },
    targetId: { type: Schema.Types.ObjectId, required: true },
    /** The import (docs/decisions/0059) that planned this id: written before the record, so a resumed import reuses it. */
    runId: { type: String },
  },
  { timestamps: true },
);
importKeySchema.index({ ownerId: 1, collectionName: 1, sourceId: 1 }, { unique: true });
export const ImportKey = defineModel("ImportKey", importKeySchema);

export async function findImportKeys(ownerId: string, collectionName: string, sourceIds: string[]) {
  if (sourceIds.length === 0) return new Map<string, { targetId: string; runId: string | null }>();
  const keys = await ImportKey.find({ ownerId, collectionName, sourceId: trusted({ $in: sourceIds }) })
    .select({ sourceId: 1, targetId: 1, runId: 1 })
    .lean<{ sourceId: string; targetId: Types.ObjectId; runId?: string }[]>();
  return new Map(keys.map((k) => [k.sourceId, { targetId: String(k.targetId), runId: k.runId ?? null }]));
}

/**
 * Records (or moves, after the earlier copy was deleted) where each source record now lives, with
 * the import that put it there: written before the records themselves (docs/decisions/0059).
 */
export async function saveImportKeys(ownerId: string, collectionName: string, pairs: { sourceId: string; targetId: string }[], runId: string) {
  if (pairs.length === 0) return;
  await ImportKey.bulkWrite(
    pairs.map(({ sourceId, targetId }) => ({
      updateOne: {
        filter: { ownerId: new Types.ObjectId(ownerId), collectionName, sourceId },
        update: { $set: { targetId: new Types.ObjectId(targetId), runId } },
        upsert: true,
      },
    })),
    { ordered: false },
  );
}

/** The deletions a sync is told of, by archive collection (docs/decisions/0056). */
const SYNCED_KINDS: Partial<Record<string, DeletedKind>> = {
  contacts: "contact",
  packages: "package",
  assessments: "assessment",
  emailTemplates: "emailTemplate",
  webhookEndpoints: "webhookEndpoint",
  pricingRules: "pricingRule",
  vendorPackages: "vendorPackage",
};

/**
 * Removes what one import (`runId`) stored in the owner's account: the records its keys point to
 * (keys are written before the records, so a key may point to nothing) and the keys. Counts per collection.
 */
export async function removeImportedByRun({ ownerId, runId }: { ownerId: string; runId: string }) {
  const removed: Record<string, number> = {};
  const owner = new Types.ObjectId(ownerId);
  for (const entry of EXPORTABLE) {
    for (;;) {
      const keys = await ImportKey.find({ ownerId: owner, collectionName: entry.name, runId }).select({ targetId: 1 }).limit(1000).lean<{ _id: Types.ObjectId; targetId: Types.ObjectId }[]>();
      if (keys.length === 0) break;
      const filter = { _id: trusted({ $in: keys.map((k) => k.targetId) }), [entry.ownerField]: owner };
      const found = await entry.model.find(filter).select({ _id: 1 }).lean<{ _id: Types.ObjectId }[]>();
      const deleted = await entry.model.deleteMany(filter);
      removed[entry.name] = (removed[entry.name] ?? 0) + deleted.deletedCount;
      // A sync (GET /api/deletions) learns they are gone, as of any other deletion.
      const kind = SYNCED_KINDS[entry.name];
      if (kind) await recordDeletions(kind, found.map((r) => ({ _id: r._id, ownerId: owner })));
      await ImportKey.deleteMany({ _id: trusted({ $in: keys.map((k) => k._id) }) });
    }
  }
  return removed;
}

export async function removeImportKeysOf({ ownerId }: { ownerId: string }) {
  await deleteInBatches(ImportKey, { ownerId });
}

/** Stores imported documents (each already validated and given a fresh id and the importer as owner). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function insertImported(entry: ExportableCollection, docs: any[]) {
  if (docs.length === 0) return 0;
  const inserted = await entry.model.insertMany(docs, { ordered: true, lean: true });
  return inserted.length;
}
