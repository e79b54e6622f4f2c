import { Schema, trusted, type Types } from "mongoose";
import type { EmailTemplateInput } from "~/schemas/email";
import { defineModel, type RecordOf } from "./define-model.server";
import { ownedList } from "./list-filter.server";
import { isObjectIdHex, ownerFilter, type OwnerScope } from "./owner-scope.server";
import { recordDeletion } from "./deletion.server";

const emailTemplateSchema = new Schema(
  {
    ownerId: { type: Schema.Types.ObjectId, required: true, immutable: true },
    name: { type: String, required: true, trim: true },
    subject: { type: String, required: true },
    htmlContent: { type: String, required: true },
    isDefault: { type: Boolean, default: false },
  },
  { timestamps: true },
);
// The list, newest first, paged by cursor (its _id decides ties); the search over name and subject; the account's default.
emailTemplateSchema.index({ ownerId: 1, createdAt: -1, _id: -1 });
// A sync's read, in the order of changes (docs/decisions/0052).
emailTemplateSchema.index({ ownerId: 1, updatedAt: 1, _id: 1 });
emailTemplateSchema.index({ ownerId: 1, name: 1, subject: 1, createdAt: -1 });
emailTemplateSchema.index({ ownerId: 1, isDefault: 1 });

export const EmailTemplate = defineModel("EmailTemplate", emailTemplateSchema, { retiredIndexes: ["ownerId_1_createdAt_-1"] });

export type EmailTemplateRecord = RecordOf<typeof emailTemplateSchema>;

export const TEMPLATE_SEARCH_FIELDS = ["name", "subject"] as const;
const list = ownedList<EmailTemplateRecord>(EmailTemplate, TEMPLATE_SEARCH_FIELDS);
export const findTemplates = list.find;
export const countTemplates = list.count;

export async function countDefaultTemplates({ scope }: { scope: OwnerScope }) {
  return EmailTemplate.countDocuments({ ...ownerFilter(scope), isDefault: true });
}

export async function findTemplate({ scope, id }: { scope: OwnerScope; id: string }) {
  if (!isObjectIdHex(id)) return null;
  return EmailTemplate.findOne({ _id: id, ...ownerFilter(scope) }).lean<EmailTemplateRecord>();
}

/** The account's default template, if it has one. */
export async function findDefaultTemplate({ ownerId }: { ownerId: string }) {
  return EmailTemplate.findOne({ ownerId, isDefault: true }).sort({ updatedAt: -1 }).lean<EmailTemplateRecord>();
}

/** One default per account: every other template of the owner loses the flag. */
export async function clearOtherDefaults({ ownerId, exceptId }: { ownerId: string; exceptId: Types.ObjectId | string }) {
  await EmailTemplate.updateMany({ ownerId, isDefault: true, _id: trusted({ $ne: exceptId }) }, { $set: { isDefault: false } });
}

export async function insertTemplate({ ownerId, input }: { ownerId: string; input: EmailTemplateInput }): Promise<EmailTemplateRecord> {
  const doc = await EmailTemplate.create({ ...input, ownerId });
  return doc.toObject();
}

export async function replaceTemplate({ scope, id, input }: { scope: OwnerScope; id: string; input: EmailTemplateInput }) {
  if (!isObjectIdHex(id)) return null;
  return EmailTemplate.findOneAndUpdate(
    { _id: id, ...ownerFilter(scope) },
    { $set: { name: input.name, subject: input.subject, htmlContent: input.htmlContent, isDefault: input.isDefault } },
    { returnDocument: "after", runValidators: true },
  ).lean<EmailTemplateRecord>();
}

export async function removeTemplate({ scope, id }: { scope: OwnerScope; id: string }) {
  if (!isObjectIdHex(id)) return null;
  const removed = await EmailTemplate.findOneAndDelete({ _id: id, ...ownerFilter(scope) }).lean<EmailTemplateRecord>();
  await recordDeletion("emailTemplate", removed);
  return removed;
}

/** Every template of an account (the account is being deleted). */
export async function removeTemplatesOf({ ownerId }: { ownerId: string }) {
  await EmailTemplate.deleteMany({ ownerId });
}
