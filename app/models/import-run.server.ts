import { Schema, trusted, Types } from "mongoose";
import { defineModel } from "./define-model.server";

/**
 * An account import as it runs (docs/decisions/0059), in the `imports` collection: whose it is, the
 * uploaded archive it applies (the pending import's token: the archive stays in storage until the
 * import is done), how far it got, and a lease on the database's clock that the running process
 * renews. A `running` import whose lease ran out lost its process (killed, or its database gone for
 * longer than the lease): it reads as interrupted, and Resume claims it again. No multi-document
 * transactions: the lease says who applies it, the import keys make applying it again harmless.
 */
export type ImportRunStatus = "running" | "done" | "abandoned" | "discarded";

const importRunSchema = new Schema(
  {
    ownerId: { type: Schema.Types.ObjectId, required: true },
    token: { type: String, required: true },
    status: { type: String, enum: ["running", "done", "abandoned", "discarded"], required: true },
    holder: { type: String, default: null },
    leaseUntil: { type: Date, required: true },
    /** Records in the archive (its first pass), and records gone through by the current attempt. */
    records: { type: Number, required: true },
    applied: { type: Number, default: 0 },
    attempts: { type: Number, default: 1 },
    report: { type: Schema.Types.Mixed, default: null },
    finishedAt: { type: Date, default: null },
    /** An interrupted import its owner discarded (the audit of it): who, and the records removed per collection. */
    discardedBy: { type: Schema.Types.ObjectId, default: null },
    removed: { type: Schema.Types.Mixed, default: null },
  },
  { timestamps: true, collection: "imports" },
);
importRunSchema.index({ ownerId: 1, createdAt: -1 });
importRunSchema.index({ token: 1 }, { unique: true });
importRunSchema.index({ status: 1 });
export const ImportRun = defineModel("ImportRun", importRunSchema);

export interface ImportRunDoc {
  _id: Types.ObjectId;
  ownerId: Types.ObjectId;
  token: string;
  status: ImportRunStatus;
  holder: string | null;
  leaseUntil: Date;
  records: number;
  applied: number;
  attempts: number;
  report: unknown;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
  discardedBy?: Types.ObjectId | null;
  removed?: unknown;
}

export async function createImportRun(fields: { ownerId: string; token: string; holder: string; leaseUntil: Date; records: number }) {
  const run = await ImportRun.create({ ...fields, ownerId: new Types.ObjectId(fields.ownerId), status: "running" });
  return String(run._id);
}

/** Extends the holder's lease and writes its progress; false when the import is no longer the holder's. */
export async function renewImportRun({ id, holder, leaseUntil, applied }: { id: string; holder: string; leaseUntil: Date; applied: number }) {
  const result = await ImportRun.updateOne({ _id: id, holder, status: "running" }, { $set: { leaseUntil, applied } });
  return result.matchedCount === 1;
}

/** Takes over the owner's import whose lease ran out (`now`: the database's clock); null when it is not interrupted. */
export const claimImportRun = ({ ownerId, id, holder, leaseUntil, now }: { ownerId: string; id: string; holder: string; leaseUntil: Date; now: Date }) =>
  ImportRun.findOneAndUpdate(
    { _id: id, ownerId: new Types.ObjectId(ownerId), status: "running", leaseUntil: trusted({ $lte: now }) },
    { $set: { holder, leaseUntil, applied: 0 }, $inc: { attempts: 1 } },
    { new: true },
  ).lean<ImportRunDoc>();

/** The holder gives the import up (it failed): it reads as interrupted at once. */
export async function releaseImportRun({ id, holder, applied }: { id: string; holder: string; applied: number }) {
  await ImportRun.updateOne({ _id: id, holder, status: "running" }, { $set: { leaseUntil: new Date(0), holder: null, applied } });
}

/** Done, once: only the holder of a running import finishes it. */
export async function finishImportRun({ id, holder, report, applied, finishedAt }: { id: string; holder: string; report: unknown; applied: number; finishedAt: Date }) {
  const result = await ImportRun.updateOne({ _id: id, holder, status: "running" }, { $set: { status: "done", report, applied, finishedAt, holder: null } });
  return result.matchedCount === 1;
}

/** The claimed interrupted import discarded by its owner (`holder`: the discard's claim), with what it removed. */
export async function discardImportRun({ id, holder, by, removed, finishedAt }: { id: string; holder: string; by: string; removed: Record<string, number>; finishedAt: Date }) {
  const result = await ImportRun.updateOne(
    { _id: id, holder, status: "running" },
    { $set: { status: "discarded", finishedAt, holder: null, discardedBy: new Types.ObjectId(by), removed } },
  );
  return result.matchedCount === 1;
}

/** An import whose archive is gone can never finish: it stops counting as unfinished. */
export async function abandonImportRun({ ownerId, id, finishedAt }: { ownerId: string; id: string; finishedAt: Date }) {
  await ImportRun.updateOne({ _id: id, ownerId: new Types.ObjectId(ownerId), status: "running" }, { $set: { status: "abandoned", finishedAt, holder: null } });
}

/** The owner's newest import. */
export const latestImportRun = ({ ownerId }: { ownerId: string }) =>
  ImportRun.findOne({ ownerId: new Types.ObjectId(ownerId) }).sort({ createdAt: -1, _id: -1 }).lean<ImportRunDoc>();

/** The owner's import still running or interrupted, if any. */
export const unfinishedImportRun = ({ ownerId }: { ownerId: string }) =>
  ImportRun.findOne({ ownerId: new Types.ObjectId(ownerId), status: "running" }).sort({ createdAt: -1, _id: -1 }).lean<ImportRunDoc>();

export const importRunOfToken = ({ ownerId, token }: { ownerId: string; token: string }) =>
  ImportRun.findOne({ ownerId: new Types.ObjectId(ownerId), token }).lean<ImportRunDoc>();

/** The archives unfinished imports still need (kept by housekeeping and Clear Cache). */
export async function unfinishedImportTokens() {
  const runs = await ImportRun.find({ status: "running" }).select({ token: 1 }).lean<{ token: string }[]>();
  return new Set(runs.map((r) => r.token));
}

export async function removeImportRunsOf({ ownerId }: { ownerId: string }) {
  await ImportRun.deleteMany({ ownerId: new Types.ObjectId(ownerId) });
}
