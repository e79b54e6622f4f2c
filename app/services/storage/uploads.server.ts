import type { OwnerScope } from "~/models/owner-scope.server";
import { countDraftUploads, createUploadRecord, deleteUploadRecord, findUpload, findUploadByKey, markUploadComplete, newUploadId, type UploadRecord } from "~/models/upload.server";
import { mediaIdOf } from "~/schemas/media-url";
import { messages, UPLOAD_LIMITS } from "~/schemas/upload-limits";
import type { UploadPurpose } from "~/schemas/uploads";
import { type DomainError, Forbidden, NotFound } from "~/utils/domain-errors";
import { log } from "~/utils/log.server";
import type { Actor } from "../actor";
import { checkPhotoQuality } from "../photo-quality.server";
import { storage, UPLOAD_URL_EXPIRES } from "./backend.server";
import { absolute, assertAllowedName, displayName, limitFor, mediaUrl, safeFileName, sniffType } from "./names.server";
import { notFound, refused, shown, tooLargeUpload, unsupportedType } from "./refusals.server";
import { signUrl } from "./signing";
import { StorageError } from "./types";
import { authorize } from "../permissions.server";

/**
 * Upload records and quotas: starting an upload, checking a stored object against the limits of the
 * screen that asked, and resolving the URLs documents hold to the caller's uploads.
 */

export interface BeginUpload {
  filename?: string;
  type?: string;
  purpose?: UploadPurpose;
  /** When the user picked the file in the browser's widget (parsePickedAt); else when the upload starts. */
  pickedAt?: Date;
}

/**
 * Dashboard and wizard uploads wait on the wizard's list for the next assessment, which takes at
 * most the wizard's 20 files: checked when an upload starts and again when it completes (uploads
 * started together may pass the first check).
 */
const DRAFT_LIMIT = UPLOAD_LIMITS.wizard.maxNumberOfFiles;
async function assertDraftRoom(ownerId: string) {
  if ((await countDraftUploads(ownerId)) >= DRAFT_LIMIT) throw refused(messages.maxFiles(DRAFT_LIMIT));
}

export async function beginUpload(actor: Actor, input: BeginUpload, multipart = false) {
  authorize(actor, "assessments.create");
  const purpose = input.purpose ?? "wizard";
  // Training images are the admins' (the AI Training Center); they also skip the wizard's 20-file list.
  if (purpose === "training" && actor.role !== "admin") throw new Forbidden("Only admins can upload AI training images", shown);
  const originalName = displayName(input.filename || "upload");
  assertAllowedName(purpose, originalName);
  if (purpose !== "training") await assertDraftRoom(actor.id);
  const type = input.type && /^[\w.+-]+\/[\w.+-]+$/.test(input.type) ? input.type : "application/octet-stream";
  const _id = newUploadId();
  const key = `uploads/${actor.id}/${_id}/${safeFileName(originalName)}`;
  // The store's multipart upload is opened first so the record is written once, with its id.
  const multipartId = multipart ? await storage().createMultipart(key, type) : null;
  const record = await createUploadRecord({
    _id,
    ownerId: actor.id,
    key,
    originalName,
    contentType: type,
    purpose,
    multipartId,
    draft: purpose !== "training",
    pickedAt: input.pickedAt ?? new Date(),
  });
  return record;
}

export function uploadJson(record: UploadRecord) {
  return {
    id: String(record._id),
    url: mediaUrl(String(record._id)),
    name: record.originalName,
    size: record.size ?? 0,
    type: record.contentType,
    key: record.key,
    state: record.state,
    createdAt: record.createdAt,
    quality: record.quality ? [...record.quality] : undefined,
  };
}

/** `POST /api/objects/upload`: one URL for a single PUT of a whole file. */
export async function createUploadUrl(actor: Actor, input: BeginUpload, origin: string) {
  const record = await beginUpload(actor, input);
  const uploadURL = absolute(await storage().presignPut(record.key, record.contentType, UPLOAD_URL_EXPIRES), origin);
  return { uploadURL, url: mediaUrl(String(record._id)), id: String(record._id), key: record.key };
}

/**
 * `GET s3/params`: single-upload parameters as Companion answers them. The browser widget sends
 * small files as a form POST to `url` with `fields`; that URL is the app's own signed route for
 * both backends (small files are streamed through the app into the store).
 */
export async function createUploadParams(actor: Actor, input: BeginUpload, origin: string) {
  const record = await beginUpload(actor, input);
  // The signed route streams into whichever backend is configured.
  const url = absolute(signUrl({ op: "put", key: record.key }, UPLOAD_URL_EXPIRES), origin);
  return {
    method: "POST",
    url,
    fields: { key: record.key, "Content-Type": record.contentType },
    headers: {},
    key: record.key,
    expires: UPLOAD_URL_EXPIRES,
  };
}

/** The caller's own uploads, also for an admin: an upload in progress is its uploader's alone. */
export const own = (actor: Actor): OwnerScope => ({ ownerId: actor.id });

/**
 * Checks a stored object against the limits of the screen that asked: size, then the first bytes.
 * A mismatch deletes the object and the record and throws 413/415 in the widget's wording.
 */
export async function finalizeUpload(record: UploadRecord): Promise<UploadRecord> {
  if (record.state === "complete") return record;
  const backend = storage();
  const limit = limitFor(record.purpose);
  const info = await backend.head(record.key);
  if (!info) throw notFound();
  const reject = async (refusal: DomainError) => {
    await backend.delete(record.key).catch(() => {});
    await deleteUploadRecord(record._id);
    throw refusal;
  };
  if (info.size > limit.maxFileSize) {
    return reject(tooLargeUpload(messages.exceedsSize(record.originalName, limit.maxFileSize)));
  }
  let head = Buffer.alloc(0);
  if (info.size > 0) {
    const chunks: Buffer[] = [];
    for await (const chunk of await backend.read(record.key, { start: 0, end: Math.min(info.size, 64) - 1 })) {
      chunks.push(Buffer.from(chunk as Buffer));
    }
    head = Buffer.concat(chunks);
  }
  const sniffed = sniffType(head);
  if (!sniffed || !limit.mimeTypes.includes(sniffed)) {
    return reject(unsupportedType(messages.onlyTypes(limit.allowedFileTypes)));
  }
  if (record.draft && (await countDraftUploads(String(record.ownerId))) >= DRAFT_LIMIT) {
    return reject(refused(messages.maxFiles(DRAFT_LIMIT)));
  }
  const quality = await judgeArrivingPhoto(record, sniffed);
  await markUploadComplete(record._id, { size: info.size, contentType: sniffed, quality });
  record.set({ state: "complete", size: info.size, contentType: sniffed, multipartId: null, quality });
  return record;
}

/** A vehicle photo (wizard or dashboard) is checked as it arrives; a failed read or check leaves it unjudged. */
async function judgeArrivingPhoto(record: UploadRecord, contentType: string) {
  if (!contentType.startsWith("image/") || (record.purpose !== "wizard" && record.purpose !== "dashboard")) return undefined;
  try {
    const bytes = Buffer.concat(await (await storage().read(record.key)).toArray());
    return (await checkPhotoQuality(bytes)) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads an upload's object (`key`: its thumbnail's instead), whole or a range. An object missing from
 * storage (lost, or removed by hand) is the upload's 404, with a warning in the log: never a 500.
 */
export async function readUpload(record: Pick<UploadRecord, "_id" | "key">, options: { key?: string; range?: { start: number; end: number } } = {}) {
  const key = options.key ?? record.key;
  try {
    return await storage().read(key, options.range);
  } catch (error) {
    if (!(error instanceof StorageError && error.status === 404)) throw error;
    log.warn({ uploadId: String(record._id), key }, "stored file is missing: the upload answers 404");
    throw notFound();
  }
}

/** `POST /api/objects/complete`: finalizes a single PUT (needed when it went straight to S3). */
export async function completeUpload(actor: Actor, ref: { key?: string; uploadURL?: string; id?: string }) {
  authorize(actor, "assessments.create");
  let record: UploadRecord | null = null;
  if (ref.id) record = await findUpload({ scope: own(actor), id: ref.id });
  else if (ref.key) record = await findUploadByKey({ scope: own(actor), key: ref.key });
  else if (ref.uploadURL) record = await findUploadForUrl(actor, ref.uploadURL);
  if (!record) throw notFound();
  return uploadJson(await finalizeUpload(record));
}

/**
 * The caller's upload behind any URL a client may hold for it: `/media/<id>`, an app-signed upload
 * URL, or a bucket URL. What assessments store in `mediaUrls` goes through this.
 */
export async function findUploadForUrl(actor: Actor, url: string) {
  let parsed: URL;
  try {
    parsed = new URL(url, "http://x");
  } catch {
    return null;
  }
  const media = /^\/media\/([0-9a-f]{24})(?:\/thumb)?$/.exec(parsed.pathname);
  if (media) return findUpload({ scope: own(actor), id: media[1] });
  const keyInQuery = parsed.searchParams.get("key");
  let path: string;
  try {
    path = keyInQuery ?? decodeURIComponent(parsed.pathname);
  } catch {
    // A malformed escape ("%E0%A4") names no upload of ours (decoding it threw: a 500).
    return null;
  }
  const match = /uploads\/[0-9a-f]{24}\/([0-9a-f]{24})\/[^/?]+/.exec(path);
  if (!match) return null;
  return findUploadByKey({ scope: own(actor), key: match[0] });
}

/**
 * For assessment creation: checks that every URL names a complete upload of the caller (else 400
 * naming it), marks them as used by `assessmentId` (off the wizard's list) and answers the media URLs.
 */
export async function claimUploads(actor: Actor, urls: string[], assessmentId: string) {
  const records: UploadRecord[] = [];
  for (const url of urls) {
    const record = await findUploadForUrl(actor, url);
    if (!record) throw refused(`Unknown media URL: ${url}`);
    records.push(await finalizeUpload(record));
  }
  for (const record of records) {
    record.set({ assessmentId, draft: false });
    await record.save();
  }
  return records.map((r) => mediaUrl(String(r._id)));
}

/** As resolveMediaUrl, for an image only (an AI training image): null for anything else. */
export async function resolveImageUrl(actor: Actor, url: string) {
  const record = await findUploadForUrl(actor, url);
  if (!record) return null;
  const done = await finalizeUpload(record);
  return done.contentType.startsWith("image/") ? mediaUrl(String(done._id)) : null;
}

/**
 * The upload behind an app media URL that a stored document names, inside `scope`: the document's
 * owner (`{ownerId}`), or every account for the platform's own documents (training items, which
 * only admins write). A URL naming another account's upload resolves to nothing, whatever the
 * document says: documents arrive by import too, and ids can be guessed.
 */
export async function uploadOfDocument(url: string, scope: OwnerScope) {
  const id = mediaIdOf(url);
  return id ? findUpload({ scope, id }) : null;
}

/** The bytes of the complete upload behind an app media URL in `scope` (a training item's image); null otherwise. */
export async function readMediaBytes(url: string, scope: OwnerScope) {
  return (await readMedia(url, scope))?.bytes ?? null;
}

/**
 * As readMediaBytes, with the stored content type: for the analysis of an assessment's media, in
 * its owner's scope.
 */
export async function readMedia(url: string, scope: OwnerScope) {
  const record = await uploadOfDocument(url, scope);
  if (!record || record.state !== "complete") return null;
  const stream = await readUpload(record).catch((error: unknown) => {
    if (error instanceof NotFound) return null;
    throw error;
  });
  if (!stream) return null;
  return { contentType: record.contentType, name: record.originalName, bytes: Buffer.concat(await stream.toArray()) };
}
