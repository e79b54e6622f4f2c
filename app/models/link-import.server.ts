import { Schema, trusted } from "mongoose";
import { dbNow } from "~/utils/db-clock.server";
import { defineModel } from "./define-model.server";

/**
 * One import of a file from a link that the upload widget follows over its websocket (the Companion
 * protocol's `url/get` token; docs/decisions/0068). Kept in the database, not in the process that
 * fetches: the browser's socket may be connected to another instance, which reads the progress here.
 * `_id` is the token (random, unguessable); the socket answers only about its own token.
 */
const linkImportSchema = new Schema(
  {
    _id: { type: String, required: true },
    ownerId: { type: Schema.Types.ObjectId, required: true },
    state: { type: String, enum: ["running", "done", "failed", "cancelled"], required: true },
    bytes: { type: Number, default: 0 },
    total: { type: Number, default: null },
    /** Done: the upload's JSON answer (what `POST s3/multipart/…/complete` answers), as text. */
    result: { type: String, default: null },
    /** Failed: the refusal's message (the widget shows it). */
    error: { type: String, default: null },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);
linkImportSchema.index({ createdAt: 1 });

export const LinkImport = defineModel("LinkImport", linkImportSchema);

export interface LinkImportState {
  state: "running" | "done" | "failed" | "cancelled";
  bytes: number;
  total: number | null;
  result: string | null;
  error: string | null;
}

export async function createLinkImport(token: string, ownerId: string) {
  await LinkImport.create({ _id: token, ownerId, state: "running", bytes: 0, total: null, createdAt: dbNow() });
}

/** Progress while running; a cancelled import stays cancelled (answers false then). */
export async function recordLinkImportProgress(token: string, bytes: number, total: number | null) {
  const res = await LinkImport.updateOne({ _id: token, state: "running" }, { $set: { bytes, total } });
  return res.matchedCount > 0;
}

export async function finishLinkImport(token: string, outcome: { result: string } | { error: string }) {
  const set = "result" in outcome ? { state: "done", result: outcome.result } : { state: "failed", error: outcome.error };
  await LinkImport.updateOne({ _id: token, state: "running" }, { $set: set });
}

export async function cancelLinkImport(token: string) {
  await LinkImport.updateOne({ _id: token, state: "running" }, { $set: { state: "cancelled" } });
}

export async function readLinkImport(token: string): Promise<LinkImportState | null> {
  const doc = await LinkImport.findById(token).lean();
  if (!doc) return null;
  return { state: doc.state, bytes: doc.bytes ?? 0, total: doc.total ?? null, result: doc.result ?? null, error: doc.error ?? null };
}

/** Housekeeping: imports older than `before` (their sockets are long gone). */
export async function deleteLinkImportsBefore(before: Date) {
  // `trusted`: the filters are sanitised (sanitizeFilter), and a bare operator is refused as a date.
  await LinkImport.deleteMany({ createdAt: trusted({ $lt: before }) });
}
