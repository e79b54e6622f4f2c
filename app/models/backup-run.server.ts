import { Schema, type Types } from "mongoose";
import { defineModel } from "./define-model.server";

/**
 * One backup of the installation (docs/decisions/0066), in the `backups` collection: when it ran, where
 * its archive went, how large it is, and whether it succeeded. The installation's, not an account's:
 * Settings → System shows the last one to the admin, and retention deletes the oldest archives by
 * these records (a folder or a bucket is never listed).
 */
const backupRunSchema = new Schema(
  {
    state: { type: String, enum: ["running", "succeeded", "failed"], required: true },
    startedAt: { type: Date, required: true },
    finishedAt: { type: Date, default: null },
    /** Where the archive went, as the operator configured it (a folder, or s3://bucket/prefix). */
    target: { type: String, required: true },
    /** The archive's name inside the target. */
    key: { type: String, required: true },
    bytes: { type: Number, default: null },
    /** How long writes waited for the database's snapshot. */
    pauseMs: { type: Number, default: null },
    documents: { type: Number, default: null },
    objects: { type: Number, default: null },
    error: { type: String, default: null },
    /** The archive was deleted by retention. */
    removedAt: { type: Date, default: null },
  },
  { collection: "backups" },
);
backupRunSchema.index({ startedAt: -1 });
export const BackupRun = defineModel("BackupRun", backupRunSchema);

export type BackupRunDoc = {
  _id: Types.ObjectId;
  state: "running" | "succeeded" | "failed";
  startedAt: Date;
  finishedAt: Date | null;
  target: string;
  key: string;
  bytes: number | null;
  pauseMs: number | null;
  documents: number | null;
  objects: number | null;
  error: string | null;
};

export async function recordBackupStart(run: { target: string; key: string }) {
  const doc = await BackupRun.create({ ...run, state: "running", startedAt: new Date() });
  return doc._id;
}

export async function recordBackupEnd(
  id: Types.ObjectId,
  end: { state: "succeeded"; bytes: number; pauseMs: number; documents: number; objects: number } | { state: "failed"; error: string },
) {
  await BackupRun.updateOne({ _id: id }, { $set: { ...end, finishedAt: new Date() } });
}

/** The newest backups, newest first. */
export const recentBackups = (limit: number) => BackupRun.find({}).sort({ startedAt: -1 }).limit(limit).lean<BackupRunDoc[]>();

/** Succeeded archives in `target` older than the newest `keep`, still present: retention deletes them. */
export async function backupsBeyond(target: string, keep: number) {
  return BackupRun.find({ target, state: "succeeded", removedAt: null })
    .sort({ startedAt: -1 })
    .skip(keep)
    .limit(100)
    .lean<BackupRunDoc[]>();
}

export async function recordBackupRemoved(id: Types.ObjectId) {
  await BackupRun.updateOne({ _id: id }, { $set: { removedAt: new Date() } });
}
