import os from "node:os";
import path from "node:path";
import type { UploadRecord } from "~/models/upload.server";
import { messages, UPLOAD_LIMITS, type UploadLimit } from "~/schemas/upload-limits";
import { UPLOAD_PURPOSES, type UploadPurpose } from "~/schemas/uploads";
import { env } from "~/utils/env.server";
import { unsupportedType } from "./refusals.server";

/**
 * Names, types and limits of uploads, and the addresses upload URLs are made absolute against.
 */

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
  return UPLOAD_PURPOSES.find((purpose) => purpose === value) ?? "wizard";
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * When the browser's widget says the user picked the file (ms since 1970, its clock): the wizard
 * numbers its photos in that order, whichever upload the server saw start first. A value that is not
 * a time within a day of ours is ignored (the upload then counts as picked when it started).
 */
export function parsePickedAt(value: unknown): Date | undefined {
  const ms = typeof value === "number" ? value : typeof value === "string" && /^\d{1,15}$/.test(value) ? Number(value) : NaN;
  return Number.isFinite(ms) && Math.abs(ms - Date.now()) <= DAY_MS ? new Date(ms) : undefined;
}

export const limitFor = (purpose: UploadPurpose): UploadLimit => UPLOAD_LIMITS[purpose];

export function assertAllowedName(purpose: UploadPurpose, filename: string) {
  const limit = limitFor(purpose);
  const ext = path.extname(filename).toLowerCase();
  if (ext && !limit.allowedFileTypes.includes(ext)) {
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
export function publicOrigin(request?: Request) {
  if (env.PUBLIC_URL) return new URL(env.PUBLIC_URL).origin;
  if (!request) return `http://localhost:${env.PORT}`;
  const url = new URL(request.url);
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  if (thisMachine().has(host) && [String(env.PORT), "80", "443"].includes(port)) return url.origin;
  return `http://localhost:${env.PORT}`;
}
export const absolute = (url: string, origin: string) => new URL(url, origin).toString();

export const thumbKey = (record: UploadRecord) => `thumbs/${record._id}.jpg`;
