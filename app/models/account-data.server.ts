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
}

const ANY_ACCOUNT = ["dealer", "vendor", "admin"] as const;

export const EXPORTABLE: ExportableCollection[] = [
  { name: "contacts", model: Contact, ownerField: "ownerId", roles: ANY_ACCOUNT },
  { name: "packages", model: ServicePackage, ownerField: "ownerId", roles: ANY_ACCOUNT },
  { name: "assessments", model: Assessment, ownerField: "ownerId", roles: ANY_ACCOUNT },
  // Email logs stay behind: they are this server's delivery record, and an imported pending one would be sent.
  { name: "emailTemplates", model: EmailTemplate, ownerField: "ownerId", roles: ANY_ACCOUNT },
  { name: "pricingRules", model: PricingRule, ownerField: "vendorId", roles: ["vendor"] },
  { name: "vendorPackages", model: VendorPackage, ownerField: "vendorId", roles: ["vendor"] },
  { name: "learningRecords", model: LearningRecord, ownerField: "vendorId", roles: ["vendor"] },
];

/** The owner's documents one at a time (a cursor: a collection is never held in memory whole). */
export function ownerCursor(entry: ExportableCollection, ownerId: string) {
  return entry.model.find({ [entry.ownerField]: ownerId }).sort({ _id: 1 }).lean().cursor({ batchSize: 200 });
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

export async function removeImportKeysOf({ ownerId }: { ownerId: string }) {
  await ImportKey.deleteMany({ ownerId });
}

/** Stores imported documents (each already validated and given a fresh id and the importer as owner). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function insertImported(entry: ExportableCollection, docs: any[]) {
  if (docs.length === 0) return 0;
  const inserted = await entry.model.insertMany(docs, { ordered: true, lean: true });
  return inserted.length;
}
