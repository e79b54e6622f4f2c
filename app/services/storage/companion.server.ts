import { deleteUploadRecord, findUploadByKey, type UploadRecord } from "~/models/upload.server";
import { messages } from "~/schemas/upload-limits";
import type { Actor } from "../actor";
import { storage, UPLOAD_URL_EXPIRES } from "./backend.server";
import { absolute, limitFor, mediaUrl } from "./names.server";
import { guard, notFound, tooLargeUpload } from "./refusals.server";
import { MIN_PART_SIZE, StorageError } from "./types";
import { beginUpload, finalizeUpload, own, uploadJson, type BeginUpload } from "./uploads.server";
import { authorize } from "../permissions.server";

/**
 * The Companion protocol (`/api/uploads/s3/...`): multipart uploads the browser widget drives.
 */

/** `POST s3/multipart`. */
export async function createMultipartUpload(actor: Actor, input: BeginUpload) {
  authorize(actor, "assessments.create");
  const record = await guard(() => beginUpload(actor, input, true));
  return { key: record.key, uploadId: record.multipartId as string };
}

async function ownMultipart(actor: Actor, key: string, uploadId: string) {
  const record = await findUploadByKey({ scope: own(actor), key });
  if (!record || record.state !== "pending" || !record.multipartId || record.multipartId !== uploadId) {
    throw notFound();
  }
  return record;
}

/** Parts signed in one batch call (the uploader asks for eight at a time). */
export const MAX_PARTS_PER_BATCH = 100;

/**
 * What a part of this upload may be: at most the purpose's file size each, and no more parts than
 * that size needs (every part but the last is at least 5 MiB), so the parts together cannot exceed
 * the limit by more than one part.
 */
async function partLimit(actor: Actor, key: string, uploadId: string, partNumbers: number[]) {
  const record = await ownMultipart(actor, key, uploadId);
  const maxBytes = limitFor(record.purpose).maxFileSize;
  const maxParts = Math.ceil(maxBytes / MIN_PART_SIZE);
  if (partNumbers.some((n) => n > maxParts)) {
    throw tooLargeUpload(messages.exceedsSize(record.originalName, maxBytes));
  }
  return { record, limit: { maxBytes, name: record.originalName } };
}

/** `GET s3/multipart/{uploadId}/{partNumber}?key=`. */
export async function signPart(actor: Actor, key: string, uploadId: string, partNumber: number, origin: string) {
  const { record, limit } = await partLimit(actor, key, uploadId, [partNumber]);
  const url = await guard(() => storage().presignPart(record.key, uploadId, partNumber, UPLOAD_URL_EXPIRES, limit));
  return { url: absolute(url, origin), expires: UPLOAD_URL_EXPIRES };
}

/** `GET s3/multipart/{uploadId}/batch?key=&partNumbers=`: many part URLs in one call. */
export async function signParts(actor: Actor, key: string, uploadId: string, partNumbers: number[], origin: string) {
  const { record, limit } = await partLimit(actor, key, uploadId, partNumbers);
  const presignedUrls: Record<string, string> = {};
  for (const n of new Set(partNumbers)) {
    const url = await guard(() => storage().presignPart(record.key, uploadId, n, UPLOAD_URL_EXPIRES, limit));
    presignedUrls[String(n)] = absolute(url, origin);
  }
  return { presignedUrls };
}

/** `GET s3/multipart/{uploadId}?key=`: the parts stored so far (to resume after an interruption). */
export async function listMultipartParts(actor: Actor, key: string, uploadId: string) {
  const record = await ownMultipart(actor, key, uploadId);
  return guard(() => storage().listParts(record.key, uploadId));
}

/** `POST s3/multipart/{uploadId}/complete?key=`: joins the parts, then checks size and type. */
export async function completeMultipartUpload(
  actor: Actor,
  key: string,
  uploadId: string,
  parts: { PartNumber: number; ETag: string }[],
  origin: string,
) {
  const answer = (done: UploadRecord) => ({ ...uploadJson(done), location: absolute(mediaUrl(String(done._id)), origin) });
  // Completing is safe to retry (the instance that took the first try may have died half-way, or its
  // answer was lost): an upload already complete answers as the first try did. Keys are ours and
  // name one upload, so its key is enough to know it.
  const existing = await findUploadByKey({ scope: own(actor), key });
  if (existing?.state === "complete") return answer(existing);
  const record = await ownMultipart(actor, key, uploadId);
  try {
    await storage().completeMultipart(record.key, uploadId, parts);
  } catch (error) {
    // The store no longer has the open upload: if the object is there, an earlier try completed it
    // and died before recording it; finish recording now. Otherwise it was aborted.
    const gone = error instanceof StorageError && (error.status === 404 || error.status === 409);
    if (!gone || !(await storage().head(record.key))) return guard(() => Promise.reject(error));
  }
  // finalizeUpload clears multipartId with the completion (one write).
  return answer(await finalizeUpload(record));
}

/** `DELETE s3/multipart/{uploadId}?key=`: drops the parts and the record. */
export async function abortMultipartUpload(actor: Actor, key: string, uploadId: string) {
  authorize(actor, "assessments.create");
  const record = await ownMultipart(actor, key, uploadId);
  await guard(() => storage().abortMultipart(record.key, uploadId));
  await deleteUploadRecord(record._id);
}
