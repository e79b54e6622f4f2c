import path from "node:path";
import { pipeline, Transform } from "node:stream";
import { deleteUploadRecord, type UploadRecord } from "~/models/upload.server";
import { messages } from "~/schemas/upload-limits";
import type { IMPORT_PURPOSES } from "~/schemas/uploads";
import { env } from "~/utils/env.server";
import { OutboundGetError, outboundGet } from "~/utils/outbound-get.server";
import type { Actor } from "../actor";
import { authorize } from "../permissions.server";
import { storage } from "./backend.server";
import { displayName, limitFor } from "./names.server";
import { refused, tooLargeUpload, unsupportedType } from "./refusals.server";
import { StorageError } from "./types";
import { beginUpload, finalizeUpload } from "./uploads.server";

/**
 * Remote files (issue 39, docs/decisions/0068): a file the server fetches from a link the user gives,
 * stored as an upload of theirs. The fetch goes through the outbound rule on every hop (no private,
 * loopback or link-local target, after redirects and DNS); the file then meets the same limits and
 * checks as one the browser sends: the purpose's size, count and types, its first bytes (magic
 * bytes), the photo check. Streamed into storage (local or S3), never held whole in memory.
 */

export interface ImportFromUrl {
  url: string;
  purpose?: (typeof IMPORT_PURPOSES)[number];
  pickedAt?: Date;
}

/** Until the answer's headers come, and then between two pieces of its body. */
const LINK_TIMEOUT_MS = 20_000;

/** The extension of each media type the uploads take, for a link whose name has none of them. */
const EXTENSION_OF: Record<string, string> = {
  "image/jpeg": ".jpg",
  "image/jpg": ".jpg",
  "image/png": ".png",
  "image/gif": ".gif",
  "video/mp4": ".mp4",
  "video/quicktime": ".mov",
};

/** Types a server may send for a file the first bytes then decide on; anything else (a web page) is refused at once. */
const maybeMedia = (type: string) => !type || /^(image|video)\//.test(type) || ["application/octet-stream", "binary/octet-stream"].includes(type);

/** The file's name: the answer's Content-Disposition name, else the last part of the link's path; with a usable extension. */
function nameFor(url: URL, disposition: string | undefined, type: string, allowed: readonly string[]) {
  const quoted = disposition && /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1];
  let raw = quoted || url.pathname.split("/").filter(Boolean).pop() || "link";
  try {
    raw = decodeURIComponent(raw);
  } catch {
    // kept as it came
  }
  const name = displayName(raw);
  const ext = path.extname(name).toLowerCase();
  if (allowed.includes(ext)) return name;
  const typed = EXTENSION_OF[type];
  if (typed && allowed.includes(typed)) return `${path.basename(name, path.extname(name)) || "link"}${typed}`;
  return name;
}

/** The rule's refusal, the remote server's answer or a failed fetch, as a 400 with its message. */
function linkRefusal(error: OutboundGetError) {
  return refused(error.message);
}

/** Counts the bytes that pass (the widget's progress, item 1 priority 2). */
function counter(onBytes?: (bytes: number, total: number | null) => void, total: number | null = null) {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      onBytes?.(seen, total);
      callback(null, chunk);
    },
  });
}

/** The link's answer through the outbound rule; a refusal of the rule as the upload's 400 with its reason. */
async function fetchLink(link: string) {
  try {
    return await outboundGet(link, { allow: env.OUTBOUND_ALLOW, timeoutMs: LINK_TIMEOUT_MS });
  } catch (error) {
    if (error instanceof OutboundGetError) throw linkRefusal(error);
    throw error;
  }
}

/**
 * Fetches `input.url` and stores it as the actor's upload for `purpose` (default wizard); answers the
 * complete upload. Refusals are typed (400 link/rule, 413 size, 415 type), in the widget's wording
 * where it has one.
 */
export async function importFromUrl(
  actor: Actor,
  input: ImportFromUrl,
  { onBytes, signal }: { onBytes?: (bytes: number, total: number | null) => void; signal?: AbortSignal } = {},
): Promise<UploadRecord> {
  // Before anything leaves the building: a role that may not upload makes no outbound request.
  authorize(actor, "assessments.create");
  const purpose = input.purpose ?? "wizard";
  const limit = limitFor(purpose);
  const { response, url } = await fetchLink(input.url);
  const cancel = () => response.destroy(new OutboundGetError("The import was cancelled", "failed"));
  if (signal?.aborted) cancel();
  signal?.addEventListener("abort", cancel, { once: true });
  try {
    const type = (response.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
    const name = nameFor(url, response.headers["content-disposition"], type, limit.allowedFileTypes);
    if (!maybeMedia(type)) throw unsupportedType(messages.onlyTypes(limit.allowedFileTypes));
    const declared = Number(response.headers["content-length"]);
    const total = Number.isFinite(declared) && declared >= 0 && response.headers["content-length"] ? declared : null;
    if (total !== null && total > limit.maxFileSize) throw tooLargeUpload(messages.exceedsSize(name, limit.maxFileSize));
    // The same start as a browser upload: the name's type, the purpose's rules, the wizard's 20 files.
    const record = await beginUpload(actor, { filename: name, type: EXTENSION_OF[type] ? type : undefined, purpose, pickedAt: input.pickedAt });
    try {
      // pipeline: a failed or stalled body fails the stream storage reads (pipe would leave it waiting).
      const body = pipeline(response, counter(onBytes, total), () => {});
      await storage().putStream(record.key, body, record.contentType, limit.maxFileSize);
    } catch (error) {
      await storage()
        .delete(record.key)
        .catch(() => {});
      await deleteUploadRecord(record._id);
      if (error instanceof StorageError && error.status === 413) throw tooLargeUpload(messages.exceedsSize(record.originalName, limit.maxFileSize));
      if (error instanceof OutboundGetError) throw linkRefusal(error);
      if (error instanceof Error && /aborted|ECONNRESET|premature/i.test(`${error.message} ${"code" in error ? String(error.code) : ""}`)) {
        throw refused("The link's server closed the connection before the whole file arrived");
      }
      throw error;
    }
    // Size, magic bytes, the 20-file list and the photo check, as for every upload.
    return await finalizeUpload(record);
  } finally {
    signal?.removeEventListener("abort", cancel);
    response.destroy();
  }
}

/**
 * The Companion protocol's `url/meta` (the widget's URL source asks before it adds the file): the
 * name, type and size the link's answer declares, through the same rule; the body is not read.
 */
export async function linkMeta(actor: Actor, input: { url: string; purpose?: ImportFromUrl["purpose"] }) {
  authorize(actor, "assessments.create");
  const limit = limitFor(input.purpose ?? "wizard");
  const { response, url } = await fetchLink(input.url);
  response.destroy();
  const type = (response.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
  const name = nameFor(url, response.headers["content-disposition"], type, limit.allowedFileTypes);
  if (!maybeMedia(type)) throw unsupportedType(messages.onlyTypes(limit.allowedFileTypes));
  const declared = Number(response.headers["content-length"]);
  const size = response.headers["content-length"] && Number.isFinite(declared) ? declared : null;
  return { name, type: EXTENSION_OF[type] ? type : "application/octet-stream", size };
}
