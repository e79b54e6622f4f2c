import mongoose, { Schema, trusted, type Types } from "mongoose";
import { jsonWithout } from "~/utils/json-shape";
import { defineModel } from "./define-model.server";
import { isObjectIdHex, ownerFilter, type OwnerScope } from "./owner-scope.server";
import { PHOTO_ISSUES, UPLOAD_PURPOSES, type PhotoIssue, type UploadPurpose } from "~/schemas/uploads";

export const UPLOAD_STATES = ["pending", "complete"] as const;

/**
 * One record per object the app handed out an upload URL for (or received through a form).
 * The object key is made by the server (`uploads/<ownerId>/<this id>/<safe name>`), so the record
 * id, the key and the media URL (`/media/<id>`) always name the same object.
 */
const uploadSchema = new Schema(
  {
    ownerId: { type: Schema.Types.ObjectId, required: true, index: true },
    key: { type: String, required: true, unique: true },
    originalName: { type: String, required: true },
    contentType: { type: String, required: true },
    size: { type: Number, default: null },
    state: { type: String, enum: UPLOAD_STATES, default: "pending", index: true },
    /** Which screen asked: decides the size limit and the allowed types. */
    purpose: { type: String, enum: UPLOAD_PURPOSES, required: true },
    /** The storage backend's multipart upload id while a multipart upload is open. */
    multipartId: { type: String, default: null, index: true },
    /** Listed on the upload wizard until an assessment takes it (assessmentId set) or it is removed. */
    draft: { type: Boolean, default: true },
    assessmentId: { type: Schema.Types.ObjectId, default: null },
    completedAt: { type: Date, default: null },
    /** When the user picked the file (the widget's clock), else when the upload started: the wizard's order. */
    pickedAt: { type: Date },
    /** A photo's quality issues found as it arrived ([] for none); absent when not judged (a video, an older upload). */
    quality: { type: [{ type: String, enum: PHOTO_ISSUES }], default: undefined },
  },
  {
    timestamps: true,
    toJSON: jsonWithout("multipartId"),
  },
);
uploadSchema.index({ ownerId: 1, draft: 1, state: 1 });

export const Upload = defineModel("Upload", uploadSchema);
export type UploadRecord = InstanceType<typeof Upload>;

export const newUploadId = () => new mongoose.Types.ObjectId();

export async function createUploadRecord(fields: {
  _id: Types.ObjectId;
  ownerId: string;
  key: string;
  originalName: string;
  contentType: string;
  purpose: UploadPurpose;
  multipartId?: string | null;
  draft: boolean;
  assessmentId?: Types.ObjectId;
  pickedAt?: Date;
}) {
  return Upload.create(fields);
}

/** One upload in scope by its record id (the id in `/media/<id>`); null otherwise. */
export async function findUpload({ scope, id }: { scope: OwnerScope; id: string }) {
  if (!isObjectIdHex(id)) return null;
  return Upload.findOne({ _id: id, ...ownerFilter(scope) });
}

/** The record id inside a key made by the server: `uploads/<ownerId>/<record id>/<name>`. */
const idInKey = (key: string) => /^uploads\/[0-9a-f]{24}\/([0-9a-f]{24})\//.exec(key)?.[1];

/** One upload in scope stored under `key`; null for another account's or an unknown key (a 404). */
export async function findUploadByKey({ scope, key }: { scope: OwnerScope; key: string }) {
  const id = idInKey(key);
  if (!id) return null;
  return Upload.findOne({ _id: id, ...ownerFilter(scope), key });
}

/**
 * The upload under `key` whoever owns it: only for requests whose URL the app signed (the
 * signature names the key and grants the operation, so no session is involved).
 */
export async function findSignedUpload(key: string) {
  return findUploadByKey({ scope: { allOwners: true }, key });
}

export async function markUploadComplete(id: Types.ObjectId, fields: { size: number; contentType: string; quality?: PhotoIssue[] }) {
  await Upload.updateOne(
    { _id: id },
    { $set: { ...fields, state: "complete", multipartId: null, completedAt: new Date() } },
  );
}

export async function deleteUploadRecord(id: Types.ObjectId) {
  await Upload.deleteOne({ _id: id });
}

/** The in-progress wizard's files of one user (complete, not yet taken by an assessment), oldest first. */
export async function countDraftUploads(ownerId: string) {
  return Upload.countDocuments({ ownerId, draft: true, state: "complete" });
}

export async function listDraftUploads(ownerId: string) {
  // In the order the files were picked (uploads started together finish, and even start, in any order).
  return Upload.find({ ownerId, draft: true, state: "complete" }).sort({ pickedAt: 1, createdAt: 1, _id: 1 });
}

/** Other complete draft files of the owner with this name and size: the same file uploaded again. */
export async function findDuplicateDrafts({ ownerId, originalName, size, exceptId }: { ownerId: string; originalName: string; size: number; exceptId: Types.ObjectId }) {
  return Upload.find({ ownerId, draft: true, state: "complete", originalName, size, _id: trusted({ $ne: exceptId }) });
}

/** Up to `limit` uploads of an account, any state (the account is being deleted). */
export async function findUploadsOf({ ownerId, limit }: { ownerId: string; limit: number }) {
  return Upload.find({ ownerId }).limit(limit);
}

/** Pending uploads created before `before`, of every account (the housekeeping sweep; expired by query, not a TTL index). */
export async function findStalePendingUploads(before: Date, limit = 100) {
  return Upload.find({ state: "pending", createdAt: trusted({ $lt: before }) }).limit(limit);
}

/** Which of `ids` are complete uploads of the owner (what an imported document may show). */
export async function ownedCompleteUploadIds({ ownerId, ids }: { ownerId: string; ids: string[] }) {
  const valid = ids.filter(isObjectIdHex);
  if (valid.length === 0) return new Set<string>();
  const found = await Upload.find({ _id: trusted({ $in: valid }), ownerId, state: "complete" }).select({ _id: 1 }).lean<{ _id: Types.ObjectId }[]>();
  return new Set(found.map((u) => String(u._id)));
}

/** The content type of each of `ids` that is a complete upload of the owner (what an estimate can show). */
export async function completeUploadTypes({ ownerId, ids }: { ownerId: string; ids: string[] }) {
  const valid = ids.filter(isObjectIdHex);
  if (valid.length === 0) return new Map<string, string>();
  const found = await Upload.find({ _id: trusted({ $in: valid }), ownerId, state: "complete" })
    .select({ _id: 1, contentType: 1 })
    .lean<{ _id: Types.ObjectId; contentType: string }[]>();
  return new Map(found.map((u) => [String(u._id), u.contentType]));
}
