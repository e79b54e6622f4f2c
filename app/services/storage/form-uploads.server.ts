import { Readable } from "node:stream";
import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { deleteUploadRecord, type UploadRecord } from "~/models/upload.server";
import { messages } from "~/schemas/upload-limits";
import type { UploadPurpose } from "~/schemas/uploads";
import { DiskFull, Invalid, isRefusal, refusalMessage } from "~/utils/domain-errors";
import type { Actor } from "../actor";
import { storage } from "./backend.server";
import { limitFor } from "./names.server";
import { StorageError } from "./types";
import { beginUpload, finalizeUpload } from "./uploads.server";
import { authorize } from "../permissions.server";

/**
 * Server-side form uploads (the no-JS fallback).
 */

const MAX_FORM_FIELDS = 50;
const MAX_FORM_TEXT = 10_000;

/**
 * Stores the files of a multipart/form-data post (any file field) straight into storage, one at a
 * time and without buffering whole files, under the limits of `purpose`. Files that break a limit
 * are deleted and reported with the widget's messages; the others are kept.
 */
export async function receiveFormUploads(actor: Actor, request: Request, purpose: UploadPurpose) {
  authorize(actor, "assessments.create");
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
      } else if (error instanceof DiskFull) {
        // Nothing of it was kept; the rest of the post is read and refused the same way.
        errors.push(error.message);
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
