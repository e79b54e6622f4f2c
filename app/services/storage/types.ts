import type { Readable } from "node:stream";

export interface StoredPart {
  PartNumber: number;
  ETag: string;
  Size: number;
}

export interface ObjectInfo {
  size: number;
  contentType?: string;
}

/** What the app needs from an object store; keys are always made by the server. */
export interface StorageBackend {
  readonly kind: "local" | "s3";
  /** A URL the client PUTs one whole object to (expires after `expiresIn` seconds). */
  presignPut(key: string, contentType: string, expiresIn: number): Promise<string>;
  createMultipart(key: string, contentType: string): Promise<string>;
  /**
   * A URL the client PUTs one part to; the answer carries the part's ETag header. `limit` (local
   * backend) travels signed in the URL, so storing a part needs no database lookup.
   */
  presignPart(
    key: string,
    uploadId: string,
    partNumber: number,
    expiresIn: number,
    limit?: { maxBytes: number; name: string },
  ): Promise<string>;
  listParts(key: string, uploadId: string): Promise<StoredPart[]>;
  /** Joins the parts into the object; throws StorageError(400) for missing/wrong/small parts. */
  completeMultipart(key: string, uploadId: string, parts: { PartNumber: number; ETag: string }[]): Promise<void>;
  abortMultipart(key: string, uploadId: string): Promise<void>;
  /** Streams a body into the object, giving up (and removing it) once it passes `maxBytes`. */
  putStream(key: string, body: Readable, contentType: string, maxBytes: number): Promise<number>;
  head(key: string): Promise<ObjectInfo | null>;
  /** Reads bytes [start, end] (inclusive) or the whole object; StorageError(404) when there is no such object. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  delete(key: string): Promise<void>;
}

/** A failure with an HTTP status the API passes on (message in the spec's wording). */
/**
 * The object store cannot be reached (refused, reset, timed out, or answering 5xx): the request
 * answers 503 with Retry-After (matched by name in app/utils, which cannot import services).
 */
export class StorageUnavailableError extends Error {
  constructor(cause: unknown) {
    super("Object storage is unavailable", { cause });
    this.name = "StorageUnavailableError";
  }
}

export class StorageError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "StorageError";
  }
}

export const MIN_PART_SIZE = 5 * 1024 * 1024;
