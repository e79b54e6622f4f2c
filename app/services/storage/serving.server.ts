import { Readable } from "node:stream";
import sharp from "sharp";
import { type OwnerScope, scopeFor } from "~/models/owner-scope.server";
import { findUpload, type UploadRecord } from "~/models/upload.server";
import { isRefusal, NotFound } from "~/utils/domain-errors";
import type { Actor } from "../actor";
import { storage } from "./backend.server";
import { safeFileName, thumbKey } from "./names.server";
import { notFound, unsupportedType } from "./refusals.server";
import { finalizeUpload, readUpload, uploadOfDocument } from "./uploads.server";
import { webStreamOf } from "~/utils/web-streams.server";

/**
 * Serving media: HTTP Range for video, thumbnails made on first use.
 */

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

const webStream = (stream: Readable) => webStreamOf(stream);

export async function serveObject(record: UploadRecord, rangeHeader: string | null, extraHeaders: Record<string, string> = {}) {
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
    const stream = await readUpload(record, { range });
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
  const stream = await readUpload(record);
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

export const THUMB_SIZE = 480;

const VIDEO_THUMB = `<svg xmlns="http://www.w3.org/2000/svg" width="${THUMB_SIZE}" height="270" viewBox="0 0 480 270"><rect width="480" height="270" fill="#1f2937"/><polygon points="210,100 210,170 270,135" fill="#e5e7eb"/></svg>`;

/** A thumbnail whose file is missing from storage: a plain grey picture of the same size. */
const MISSING_THUMB = `<svg xmlns="http://www.w3.org/2000/svg" width="${THUMB_SIZE}" height="270" viewBox="0 0 480 270"><rect width="480" height="270" fill="#e5e7eb"/></svg>`;

/** The stored thumbnail of an image upload (made on first use): its key and size. */
async function ensureThumbnail(record: UploadRecord) {
  const backend = storage();
  const key = thumbKey(record);
  const info = await backend.head(key);
  if (info) return { key, size: info.size };
  const source = await readUpload(record);
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
  try {
    const { key, size } = await ensureThumbnail(record);
    const stream = await readUpload(record, { key });
    return new Response(webStream(stream), {
      headers: { ...headers, "Content-Type": "image/jpeg", "Content-Length": String(size) },
    });
  } catch (error) {
    // Its file is missing from storage: a screen's <img> still gets a picture (never cached), not JSON.
    if (!(error instanceof NotFound)) throw error;
    return new Response(MISSING_THUMB, { status: 404, headers: { "Content-Type": "image/svg+xml", "Cache-Control": "no-store" } });
  }
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
    return Buffer.concat(await (await readUpload(record, { key })).toArray()) as Buffer;
  } catch (error) {
    if (isRefusal(error)) return null;
    throw error;
  }
}
