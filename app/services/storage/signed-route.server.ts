import { Readable } from "node:stream";
import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { deleteUploadRecord, findSignedUpload } from "~/models/upload.server";
import { messages } from "~/schemas/upload-limits";
import { Conflict, Forbidden, isRefusal } from "~/utils/domain-errors";
import { storage } from "./backend.server";
import { LocalBackend } from "./local";
import { absolute, limitFor, mediaUrl, publicOrigin } from "./names.server";
import { notFound, refused, shown, storageRefusal, tooLargeUpload } from "./refusals.server";
import { serveObject } from "./serving.server";
import { verifySignedUrl } from "./signing";
import { StorageError } from "./types";
import { finalizeUpload, uploadJson } from "./uploads.server";

/**
 * The signed route (local upload/download URLs; small files for either backend).
 */

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
  const limit = limitFor(record.purpose);

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
