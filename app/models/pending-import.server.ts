import { Schema, trusted } from "mongoose";
import { defineModel } from "./define-model.server";

/**
 * An uploaded import archive waiting for its confirmation (Settings → System → Import Data). The
 * archive is in object storage under `key`, so whichever instance takes the confirmation finds it;
 * this record names its owner (a token works for its owner only) and its age (swept after a day).
 */
const pendingImportSchema = new Schema(
  {
    _id: { type: String },
    ownerId: { type: Schema.Types.ObjectId, required: true, index: true },
    key: { type: String, required: true },
  },
  { timestamps: true },
);
pendingImportSchema.index({ createdAt: 1 });
export const PendingImport = defineModel("PendingImport", pendingImportSchema);

export const recordPendingImport = (fields: { token: string; ownerId: string; key: string }) =>
  PendingImport.create({ _id: fields.token, ownerId: fields.ownerId, key: fields.key });

export const findPendingImport = ({ ownerId, token }: { ownerId: string; token: string }) =>
  PendingImport.findOne({ _id: token, ownerId }).lean<{ _id: string; key: string }>();

export const removePendingImport = ({ token }: { token: string }) => PendingImport.deleteOne({ _id: token });

export const pendingImportsOf = ({ ownerId }: { ownerId: string }) =>
  PendingImport.find({ ownerId }).lean<{ _id: string; key: string }[]>();

export const stalePendingImports = ({ before }: { before: Date }) =>
  PendingImport.find({ createdAt: trusted({ $lt: before }) }).lean<{ _id: string; key: string }[]>();
