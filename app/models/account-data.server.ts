import { trusted, type Model, type Types } from "mongoose";
import { Assessment } from "./assessment.server";
import { Contact } from "./contact.server";
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
  /**
   * Fields holding ids of documents of an exported collection (dotted through arrays of
   * sub-documents): re-keyed with the documents on import so references stay consistent.
   */
  refs?: Record<string, string>;
}

const ANY_ACCOUNT = ["dealer", "vendor", "admin"] as const;

export const EXPORTABLE: ExportableCollection[] = [
  { name: "contacts", model: Contact, ownerField: "ownerId", roles: ANY_ACCOUNT },
  { name: "packages", model: ServicePackage, ownerField: "ownerId", roles: ANY_ACCOUNT },
  {
    name: "assessments",
    model: Assessment,
    ownerField: "ownerId",
    roles: ANY_ACCOUNT,
    refs: { contactId: "contacts", supplementOf: "assessments", supersededBy: "assessments", "photoWarnings.otherAssessmentId": "assessments" },
  },
  // Email logs stay behind: they are this server's delivery record, and an imported pending one would be sent.
  { name: "emailTemplates", model: EmailTemplate, ownerField: "ownerId", roles: ANY_ACCOUNT },
  { name: "pricingRules", model: PricingRule, ownerField: "vendorId", roles: ["vendor"] },
  { name: "vendorPackages", model: VendorPackage, ownerField: "vendorId", roles: ["vendor"] },
  { name: "learningRecords", model: LearningRecord, ownerField: "vendorId", roles: ["vendor"], refs: { assessmentId: "assessments" } },
];

/** The owner's documents one at a time (a cursor: a collection is never held in memory whole). */
export function ownerCursor(entry: ExportableCollection, ownerId: string) {
  return entry.model.find({ [entry.ownerField]: ownerId }).sort({ _id: 1 }).lean().cursor({ batchSize: 200 });
}

export function countOwned(entry: ExportableCollection, ownerId: string) {
  return entry.model.countDocuments({ [entry.ownerField]: ownerId });
}

/** Which of `ids` exist already (in any account: an id is never stored twice). */
export async function existingIds(entry: ExportableCollection, ids: Types.ObjectId[]) {
  if (ids.length === 0) return new Set<string>();
  const found = await entry.model.find({ _id: trusted({ $in: ids }) }).select({ _id: 1 }).lean<{ _id: Types.ObjectId }[]>();
  return new Set(found.map((d) => String(d._id)));
}

/** Stores imported documents as they are (timestamps included: they are the originals'). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function insertImported(entry: ExportableCollection, docs: any[]) {
  if (docs.length === 0) return 0;
  const inserted = await entry.model.insertMany(docs, { ordered: false, lean: true });
  return inserted.length;
}
