import type { OwnerScope } from "~/models/owner-scope.server";
import { deleteUploadRecord, findDuplicateDrafts, findUpload, findUploadsOf, listDraftUploads, type UploadRecord } from "~/models/upload.server";
import type { Actor } from "../actor";
import { storage } from "./backend.server";
import { thumbKey } from "./names.server";
import { notFound } from "./refusals.server";
import { own, uploadJson, uploadOfDocument } from "./uploads.server";
import { authorize } from "../permissions.server";

/**
 * The wizard's file list, and removing uploads with their objects.
 */

export async function listDraft(actor: Actor) {
  return (await listDraftUploads(actor.id)).map(uploadJson);
}

/** A draft file's identity on the wizard's list: the same name and size is the same file uploaded again. */
const sameFile = (r: UploadRecord) => `${r.originalName}\u0000${r.size ?? 0}`;

/**
 * The wizard's list (a draft until an assessment takes it): each file once, however often it was
 * uploaded (again in a later visit, or from the dashboard) — the newest copy stands for the others.
 */
export async function wizardDraft(actor: Actor) {
  const newest = new Map<string, UploadRecord>();
  for (const record of await listDraftUploads(actor.id)) newest.set(sameFile(record), record);
  return [...newest.values()].map(uploadJson);
}

/** The draft's other copies of these files (taken by an assessment, or removed from the list) go too. */
export async function discardDraftCopies(actor: Actor, ids: string[]) {
  for (const id of ids) {
    const record = await findUpload({ scope: own(actor), id });
    if (!record) continue;
    const copies = await findDuplicateDrafts({ ownerId: actor.id, originalName: record.originalName, size: record.size ?? 0, exceptId: record._id });
    for (const copy of copies) await discardUpload(copy);
  }
}

/** Every file of the caller's draft (the wizard's "Start over"). */
export async function discardDraft(actor: Actor) {
  authorize(actor, "assessments.create");
  for (const record of await listDraftUploads(actor.id)) await discardUpload(record);
}

/** Removes one of the caller's uploads (object and record); another account's id is a 404. */
export async function removeUpload(actor: Actor, id: string) {
  authorize(actor, "assessments.create");
  const record = await findUpload({ scope: own(actor), id });
  if (!record || record.assessmentId) throw notFound();
  await discardUpload(record);
}

/**
 * An upload's object, open multipart parts and thumbnail, then its record: the record goes last,
 * so an object whose deletion failed is still known (and tried again), never orphaned.
 */
export async function discardUpload(record: UploadRecord) {
  if (record.multipartId) await storage().abortMultipart(record.key, record.multipartId).catch(() => {});
  await storage().delete(record.key);
  await storage().delete(thumbKey(record)).catch(() => {});
  await deleteUploadRecord(record._id);
}

/**
 * The upload behind an app media URL in `scope`, with its object: for a document that held the only
 * reference to it (a deleted assessment's, in its owner's scope; a deleted training item's).
 */
export async function discardMediaUrl(url: string, scope: OwnerScope) {
  const record = await uploadOfDocument(url, scope);
  if (record) await discardUpload(record);
}

/** Every upload of an account with its objects (the account is being deleted), a hundred at a time. */
export async function deleteUploadsOf(ownerId: string) {
  for (;;) {
    const batch = await findUploadsOf({ ownerId, limit: 100 });
    if (batch.length === 0) return;
    for (const record of batch) await discardUpload(record);
  }
}
