import os from "node:os";
import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import path from "node:path";
import { Readable } from "node:stream";
import sharp from "sharp";
import {
  UPLOAD_LIMITS,
  messages,
  type UploadPurposeName,
} from "~/schemas/upload-limits";
import {
  createUploadRecord,
  deleteUploadRecord,
  findStalePendingUploads,
  findSignedUpload,
  findUpload,
  findUploadsOf,
  findUploadByKey,
  countDraftUploads,
  listDraftUploads,
  findDuplicateDrafts,
  markUploadComplete,
  newUploadId,
  type UploadRecord,
} from "~/models/upload.server";
import { UPLOAD_PURPOSES, type UploadPurpose } from "~/schemas/uploads";
import { scopeFor, type OwnerScope } from "~/models/owner-scope.server";
import { env } from "~/utils/env.server";
import { mediaIdOf } from "~/schemas/media-url";
import type { Actor } from "./actor";
import { LocalBackend } from "./storage/local";
import { S3Backend } from "./storage/s3";
import { signUrl, verifySignedUrl } from "./storage/signing";
import { MAX_PARTS, MIN_PART_SIZE, StorageError, type StorageBackend } from "./storage/types";
import { Conflict, Forbidden, Invalid, isRefusal, NotFound, refusalMessage, type DomainError } from "~/utils/domain-errors";

export { StorageError } from "./storage/types";

/** How long an upload URL (whole object or one part) stays valid. */
export const UPLOAD_URL_EXPIRES = 3600;
/** Pending uploads older than this are swept (with their object and multipart parts). */
export const STALE_UPLOAD_AGE_MS = 24 * 3600 * 1000;
/** The Companion-compatible endpoints live under this base (`<base>/s3/multipart`, …). */
export const COMPANION_BASE = "/api/uploads";

// ---------------------------------------------------------------------------------------------
// Backend

const globalForStorage = globalThis as unknown as { __storage?: StorageBackend };

export function storage(): StorageBackend {
  return (globalForStorage.__storage ??=
    env.STORAGE === "s3"
      ? new S3Backend({
          bucket: env.S3_BUCKET!,
          region: env.S3_REGION,
          endpoint: env.S3_ENDPOINT,
          forcePathStyle: env.S3_FORCE_PATH_STYLE,
        })
      : new LocalBackend(path.join(env.DATA_DIR, "objects")));
}

// ---------------------------------------------------------------------------------------------
// Refusals: typed errors whose message the upload widget shows as the failed request's reason
// ("Companion request failed: <reason>"), so the API answer carries it as the reason phrase.

const shown = { shownAsReason: true } as const;
const notFound = () => new NotFound("Upload not found", shown);
const refused = (message: string) => new Invalid(message, shown);
const tooLargeUpload = (message: string) => new Invalid(message, { ...shown, kind: "tooLarge" });
const unsupportedType = (message: string) => new Invalid(message, { ...shown, kind: "unsupportedType" });

/** The store's refusal (StorageError: 400, 404, 409 or 413) as the service's typed error. */
function storageRefusal(status: number, message: string): DomainError {
  if (status === 404) return new NotFound(message, shown);
  if (status === 409) return new Conflict(message, shown);
  if (status === 413) return tooLargeUpload(message);
  return refused(message);
}

/** Runs a storage operation; StorageErrors become typed refusals, others propagate (500/503). */
async function guard<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof StorageError) throw storageRefusal(error.status, error.message);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Names, types, limits

/** The last path segment with control characters removed: what is shown to people. */
export function displayName(name: string) {
  const base = String(name).split(/[\\/]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  if (clean.length <= 255) return clean || "file";
  const ext = path.extname(clean).slice(0, 16);
  return clean.slice(0, 255 - ext.length) + ext;
}

/** A name safe inside an object key: ASCII letters, digits, dot, dash, underscore; no leading dot. */
export function safeFileName(name: string) {
  let clean = displayName(name)
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/^[._-]+/, "");
  if (clean.length > 100) {
    const ext = path.extname(clean).slice(0, 10);
    clean = clean.slice(0, 100 - ext.length) + ext;
  }
  return clean || "file";
}

/** The media type the first bytes show (JPEG, PNG, GIF, MP4, MOV), or null. */
export function sniffType(head: Buffer): string | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "image/jpeg";
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return "image/png";
  }
  const ascii = head.subarray(0, 12).toString("latin1");
  if (ascii.startsWith("GIF87a") || ascii.startsWith("GIF89a")) return "image/gif";
  const box = ascii.slice(4, 8);
  if (box === "ftyp") return ascii.slice(8, 12) === "qt  " ? "video/quicktime" : "video/mp4";
  if (["moov", "mdat", "wide", "free", "skip", "pnot"].includes(box)) return "video/quicktime";
  return null;
}

export function parsePurpose(value: unknown): UploadPurpose {
  return UPLOAD_PURPOSES.includes(value as UploadPurpose) ? (value as UploadPurpose) : "wizard";
}

const limitFor = (purpose: UploadPurpose) => UPLOAD_LIMITS[purpose as UploadPurposeName];

function assertAllowedName(purpose: UploadPurpose, filename: string) {
  const limit = limitFor(purpose);
  const ext = path.extname(filename).toLowerCase();
  if (ext && !(limit.allowedFileTypes as readonly string[]).includes(ext)) {
    throw unsupportedType(messages.onlyTypes(limit.allowedFileTypes));
  }
}

export const mediaUrl = (id: string) => `/media/${id}`;

/** The names and addresses of this machine (a kiosk on the shop's network reaches the app by one of them). */
function thisMachine() {
  const names = new Set(["localhost", os.hostname().toLowerCase()]);
  for (const list of Object.values(os.networkInterfaces())) for (const i of list ?? []) names.add(i.address.toLowerCase());
  return names;
}

/**
 * The public origin upload URLs are made absolute against: PUBLIC_URL; without it the address the
 * request came to only when it names this machine (its host name or one of its addresses, on the
 * app's port or a standard one), else http://localhost:PORT. The Host (or X-Forwarded-Host) header
 * is the client's to write: it must not decide where another request sends an upload.
 */
export function publicOrigin(request: Request) {
  if (env.PUBLIC_URL) return new URL(env.PUBLIC_URL).origin;
  const url = new URL(request.url);
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  if (thisMachine().has(host) && [String(env.PORT), "80", "443"].includes(port)) return url.origin;
  return `http://localhost:${env.PORT}`;
}
const absolute = (url: string, origin: string) => new URL(url, origin).toString();

// ---------------------------------------------------------------------------------------------
// Upload records

export interface BeginUpload {
  filename?: string;
  type?: string;
  purpose?: UploadPurpose;
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

async function beginUpload(actor: Actor, input: BeginUpload, multipart = false) {
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
    createdAt: record.get("createdAt") as Date,
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

/** `POST s3/multipart`. */
export async function createMultipartUpload(actor: Actor, input: BeginUpload) {
  const record = await guard(() => beginUpload(actor, input, true));
  return { key: record.key, uploadId: record.multipartId as string };
}

/** The caller's own uploads, also for an admin: an upload in progress is its uploader's alone. */
const own = (actor: Actor): OwnerScope => ({ ownerId: actor.id });

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
  const maxBytes = limitFor(record.purpose as UploadPurpose).maxFileSize;
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
  const record = await ownMultipart(actor, key, uploadId);
  await guard(() => storage().abortMultipart(record.key, uploadId));
  await deleteUploadRecord(record._id);
}

/**
 * Checks a stored object against the limits of the screen that asked: size, then the first bytes.
 * A mismatch deletes the object and the record and throws 413/415 in the widget's wording.
 */
export async function finalizeUpload(record: UploadRecord): Promise<UploadRecord> {
  if (record.state === "complete") return record;
  const backend = storage();
  const limit = limitFor(record.purpose as UploadPurpose);
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
  if (!sniffed || !(limit.mimeTypes as readonly string[]).includes(sniffed)) {
    return reject(unsupportedType(messages.onlyTypes(limit.allowedFileTypes)));
  }
  if (record.draft && (await countDraftUploads(String(record.ownerId))) >= DRAFT_LIMIT) {
    return reject(refused(messages.maxFiles(DRAFT_LIMIT)));
  }
  await markUploadComplete(record._id, { size: info.size, contentType: sniffed });
  record.set({ state: "complete", size: info.size, contentType: sniffed, multipartId: null });
  return record;
}

/** `POST /api/objects/complete`: finalizes a single PUT (needed when it went straight to S3). */
export async function completeUpload(actor: Actor, ref: { key?: string; uploadURL?: string; id?: string }) {
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

/** Turns a client-held URL into the app media URL of a complete upload the caller owns. */
export async function resolveMediaUrl(actor: Actor, url: string) {
  const record = await findUploadForUrl(actor, url);
  if (!record) return null;
  const done = await finalizeUpload(record);
  return mediaUrl(String(done._id));
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
async function uploadOfDocument(url: string, scope: OwnerScope) {
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
  const stream = await storage().read(record.key);
  return { contentType: record.contentType, bytes: Buffer.concat(await stream.toArray()) };
}

// ---------------------------------------------------------------------------------------------
// The signed route (local upload/download URLs; small files for either backend)

async function* iterateWeb(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

export const requestBodyStream = (request: Request) =>
  Readable.from(request.body ? iterateWeb(request.body) : [], { objectMode: false });

/**
 * `PUT|POST|GET /api/objects/signed?...`: authorised by the URL's signature alone. Answers the
 * object's bytes or a part's ETag as they are served, a stored upload as data (the route answers it
 * as JSON), null for a method the URL's operation does not take; refusals are thrown.
 */
export async function handleSignedRequest(request: Request) {
  try {
    return await signedRequest(request);
  } catch (error) {
    // The client went away mid-body (a cut connection): nothing to answer, nothing to log.
    if (request.signal.aborted && !isRefusal(error)) throw refused("Upload interrupted");
    throw error;
  }
}

async function signedRequest(request: Request) {
  const url = new URL(request.url);
  const verified = verifySignedUrl(url.searchParams);
  if (!verified.ok) throw new Forbidden(verified.message, shown);
  const { op, key, uploadId, partNumber, max, name } = verified.params;
  const backend = storage();

  if (op === "part" && request.method === "PUT") {
    // Everything needed is in the signed URL; the open multipart directory proves it is pending.
    if (!(backend instanceof LocalBackend)) throw notFound();
    const maxBytes = Number(max);
    try {
      const etag = await backend.writePart(key, uploadId, Number(partNumber), requestBodyStream(request), maxBytes);
      return new Response(null, { status: 200, headers: { ETag: etag, "Access-Control-Expose-Headers": "ETag" } });
    } catch (error) {
      if (error instanceof StorageError) {
        throw storageRefusal(error.status, error.status === 413 ? messages.exceedsSize(name, maxBytes) : error.message);
      }
      throw error;
    }
  }

  const record = await findSignedUpload(key);
  if (!record) throw notFound();
  const limit = limitFor(record.purpose as UploadPurpose);

  if (op === "get" && request.method === "GET") {
    if (record.state !== "complete") throw notFound();
    return serveObject(record, request.headers.get("Range"));
  }
  if (record.state !== "pending") throw new Conflict("Upload already completed", shown);

  if (op === "put" && (request.method === "PUT" || request.method === "POST")) {
    const tooLarge = () => tooLargeUpload(messages.exceedsSize(record.originalName, limit.maxFileSize));
    try {
      if (request.method === "PUT") {
        await backend.putStream(key, requestBodyStream(request), record.contentType, limit.maxFileSize);
      } else {
        let received = false;
        const handler: UploadHandler = async (part) => {
          if (part.name !== "file" || received) {
            for await (const chunk of part.data) void chunk;
            return undefined;
          }
          received = true;
          await backend.putStream(key, Readable.from(part.data), record.contentType, limit.maxFileSize);
          return "stored";
        };
        await unstable_parseMultipartFormData(request, handler);
        if (!received) throw refused("No file in the form");
      }
    } catch (error) {
      if (error instanceof StorageError && error.status === 413) {
        await deleteUploadRecord(record._id);
        throw tooLarge();
      }
      throw error;
    }
    const done = await finalizeUpload(record);
    return { stored: { ...uploadJson(done), location: absolute(mediaUrl(String(done._id)), publicOrigin(request)) } };
  }
  // No operation of this URL takes this method.
  return null;
}

// ---------------------------------------------------------------------------------------------
// Server-side form uploads (the no-JS fallback)

const MAX_FORM_FIELDS = 50;
const MAX_FORM_TEXT = 10_000;

/**
 * Stores the files of a multipart/form-data post (any file field) straight into storage, one at a
 * time and without buffering whole files, under the limits of `purpose`. Files that break a limit
 * are deleted and reported with the widget's messages; the others are kept.
 */
export async function receiveFormUploads(actor: Actor, request: Request, purpose: UploadPurpose) {
  const limit = limitFor(purpose);
  const stored: UploadRecord[] = [];
  const errors: string[] = [];
  const fields: Record<string, string> = {};
  const handler: UploadHandler = async (part) => {
    if (!part.filename) {
      let text = "";
      for await (const chunk of part.data) if (text.length <= MAX_FORM_TEXT) text += Buffer.from(chunk).toString("utf8");
      // A form's few fields, each bounded (the longest is a training item's notes).
      if (Object.keys(fields).length < MAX_FORM_FIELDS) fields[part.name] = text.slice(0, MAX_FORM_TEXT);
      return undefined;
    }
    const drain = async () => {
      for await (const chunk of part.data) void chunk;
    };
    // One post is one batch of the widget: at most its number of files (the list's own cap is
    // checked per file by beginUpload).
    if (stored.length >= limit.maxNumberOfFiles) {
      errors.push(messages.maxFiles(limit.maxNumberOfFiles));
      await drain();
      return undefined;
    }
    let record: UploadRecord;
    try {
      record = await beginUpload(actor, { filename: part.filename, type: part.contentType, purpose });
    } catch (error) {
      if (!isRefusal(error)) throw error;
      errors.push(await refusalMessage(error));
      await drain();
      return undefined;
    }
    try {
      await storage().putStream(record.key, Readable.from(part.data), record.contentType, limit.maxFileSize);
      stored.push(await finalizeUpload(record));
    } catch (error) {
      if (error instanceof StorageError && error.status === 413) {
        await deleteUploadRecord(record._id);
        errors.push(messages.exceedsSize(record.originalName, limit.maxFileSize));
        await drain();
      } else if (isRefusal(error)) {
        errors.push(await refusalMessage(error));
      } else {
        throw error;
      }
    }
    return undefined;
  };
  try {
    await unstable_parseMultipartFormData(request, handler);
  } catch (error) {
    // The parser's own errors (a part without a name, a cut-off body) are the client's: 400, not a 500.
    if (error instanceof Error && /^malformed |^Could not parse content as FormData/.test(error.message)) throw new Invalid("The form could not be read");
    throw error;
  }
  return { stored, errors: [...new Set(errors)], fields };
}

// ---------------------------------------------------------------------------------------------
// The wizard's file list

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
  for (const record of await listDraftUploads(actor.id)) await discardUpload(record);
}

/** Removes one of the caller's uploads (object and record); another account's id is a 404. */
export async function removeUpload(actor: Actor, id: string) {
  const record = await findUpload({ scope: own(actor), id });
  if (!record || record.assessmentId) throw notFound();
  await discardUpload(record);
}

/**
 * An upload's object, open multipart parts and thumbnail, then its record: the record goes last,
 * so an object whose deletion failed is still known (and tried again), never orphaned.
 */
async function discardUpload(record: UploadRecord) {
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

// ---------------------------------------------------------------------------------------------
// Serving media

export function parseRange(header: string | null, size: number): { start: number; end: number } | "invalid" | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return "invalid";
  let start: number;
  let end: number;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0) return "invalid";
    start = Math.max(size - suffix, 0);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start > end || start >= size) return "invalid";
  return { start, end };
}

const webStream = (stream: Readable) => Readable.toWeb(stream) as unknown as ReadableStream<Uint8Array>;

async function serveObject(record: UploadRecord, rangeHeader: string | null, extraHeaders: Record<string, string> = {}) {
  const size = record.size ?? (await storage().head(record.key))?.size ?? 0;
  const headers: Record<string, string> = {
    "Content-Type": record.contentType,
    "Accept-Ranges": "bytes",
    "Cache-Control": "private, max-age=3600",
    "Content-Disposition": `inline; filename="${safeFileName(record.originalName)}"`,
    ETag: `"${record._id}-${size}"`,
    ...extraHeaders,
  };
  const range = parseRange(rangeHeader, size);
  if (range === "invalid") {
    return new Response(null, { status: 416, headers: { ...headers, "Content-Range": `bytes */${size}` } });
  }
  if (range) {
    const stream = await storage().read(record.key, range);
    return new Response(webStream(stream), {
      status: 206,
      headers: {
        ...headers,
        "Content-Range": `bytes ${range.start}-${range.end}/${size}`,
        "Content-Length": String(range.end - range.start + 1),
      },
    });
  }
  if (size === 0) return new Response("", { status: 200, headers: { ...headers, "Content-Length": "0" } });
  const stream = await storage().read(record.key);
  return new Response(webStream(stream), { status: 200, headers: { ...headers, "Content-Length": String(size) } });
}

/** The upload behind `/media/<id>` if the viewer may see it (owner or admin); else null (404). */
async function viewableUpload(actor: Actor, id: string) {
  const record = await findUpload({ scope: scopeFor(actor), id });
  if (!record) return null;
  const owner = String(record.ownerId) === actor.id;
  if (record.state === "pending") {
    if (!owner || record.multipartId) return null;
    // A single PUT that went straight to the bucket: check it now.
    if (!(await storage().head(record.key))) return null;
    return finalizeUpload(record).catch((error) => {
      if (isRefusal(error)) return null;
      throw error;
    });
  }
  return record;
}

export async function serveMedia(actor: Actor, id: string, request: Request) {
  const record = await viewableUpload(actor, id);
  if (!record) throw notFound();
  return serveObject(record, request.headers.get("Range"));
}

const thumbKey = (record: UploadRecord) => `thumbs/${record._id}.jpg`;
export const THUMB_SIZE = 480;

const VIDEO_THUMB = `<svg xmlns="http://www.w3.org/2000/svg" width="${THUMB_SIZE}" height="270" viewBox="0 0 480 270"><rect width="480" height="270" fill="#1f2937"/><polygon points="210,100 210,170 270,135" fill="#e5e7eb"/></svg>`;

/** The stored thumbnail of an image upload (made on first use): its key and size. */
async function ensureThumbnail(record: UploadRecord) {
  const backend = storage();
  const key = thumbKey(record);
  const info = await backend.head(key);
  if (info) return { key, size: info.size };
  const source = await backend.read(record.key);
  let jpeg: Buffer;
  try {
    jpeg = await source
      .pipe(sharp({ failOn: "none", limitInputPixels: 100_000_000 }))
      .rotate()
      .resize(THUMB_SIZE, THUMB_SIZE, { fit: "inside", withoutEnlargement: true })
      .jpeg({ quality: 80 })
      .toBuffer();
  } catch {
    // Its first bytes said image but the rest is not one (or it is too large to decode).
    source.destroy();
    throw unsupportedType("The image could not be read");
  }
  await backend.putStream(key, Readable.from([jpeg]), "image/jpeg", jpeg.length);
  return { key, size: jpeg.length };
}

/** A small JPEG for cards and lists: auto-rotated, at most 480 px, no EXIF (no GPS position). */
export async function serveThumbnail(actor: Actor, id: string) {
  const record = await viewableUpload(actor, id);
  if (!record) throw notFound();
  const headers = { "Cache-Control": "private, max-age=86400" };
  if (!record.contentType.startsWith("image/")) {
    return new Response(VIDEO_THUMB, { headers: { ...headers, "Content-Type": "image/svg+xml" } });
  }
  const { key, size } = await ensureThumbnail(record);
  const stream = await storage().read(key);
  return new Response(webStream(stream), {
    headers: { ...headers, "Content-Type": "image/jpeg", "Content-Length": String(size) },
  });
}

/**
 * The thumbnail JPEG of the image behind an app media URL in `scope` (an estimate's PDF: its
 * owner's uploads only); null for a video, a missing, another account's or an unreadable file.
 */
export async function thumbnailBytes(url: string, scope: OwnerScope) {
  const record = await uploadOfDocument(url, scope);
  if (!record || record.state !== "complete" || !record.contentType.startsWith("image/")) return null;
  try {
    const { key } = await ensureThumbnail(record);
    return Buffer.concat(await (await storage().read(key)).toArray()) as Buffer;
  } catch (error) {
    if (isRefusal(error)) return null;
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Housekeeping

/**
 * A stale pending upload: a multipart upload whose object exists was completed by the store (the
 * instance died before recording it, and the client never retried), so it is recorded complete
 * (checked as any completion is) rather than deleted; anything else is abandoned and goes.
 */
async function sweepOne(record: UploadRecord) {
  if (record.multipartId && (await storage().head(record.key))) {
    await finalizeUpload(record).catch((error: unknown) => {
      // Refused by the checks (size, type): finalizeUpload removed it. Anything else: next round.
      if (!isRefusal(error)) throw error;
    });
    return;
  }
  await discardUpload(record);
}

/** Deletes pending uploads older than a day: their objects, open multipart parts and records. */
export async function sweepStaleUploads(now = Date.now()) {
  const before = new Date(now - STALE_UPLOAD_AGE_MS);
  let swept = 0;
  // A hundred at a time until none is left, so the sweep keeps up however many were abandoned. One
  // that cannot be deleted now (storage down) stays for the next round; a batch where nothing could
  // be deleted ends this one.
  for (;;) {
    const stale = await findStalePendingUploads(before);
    let deleted = 0;
    for (const record of stale) {
      deleted += await sweepOne(record).then(
        () => 1,
        () => 0,
      );
    }
    swept += deleted;
    if (stale.length < 100 || deleted === 0) return swept;
  }
}

export const PART_NUMBER_MAX = MAX_PARTS;
