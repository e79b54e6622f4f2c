import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { Readable } from "node:stream";
import { MIN_PART_SIZE, StorageError, StorageUnavailableError, type StorageBackend, type StoredPart } from "./types";
import { errorCode } from "~/utils/db-errors.server";

export interface S3Options {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
}

const status = (error: unknown) =>
  error instanceof S3ServiceException ? (error.$metadata.httpStatusCode ?? 500) : 500;
const code = (error: unknown) => (error instanceof S3ServiceException ? error.name : "");

/** A store that did not answer, or answered with its own failure (after the SDK's retries). */
const isUnreachable = (error: unknown) =>
  error instanceof S3ServiceException
    ? (error.$metadata.httpStatusCode ?? 0) >= 500
    : error instanceof Error &&
      (["TimeoutError", "AbortError"].includes(error.name) ||
        /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|EPIPE)$/.test(String(errorCode(error))) ||
        /socket hang up/i.test(error.message));

/** Maps the store's client errors to API answers; anything else stays a 500/503. */
function translate(error: unknown): never {
  const name = code(error);
  // The open upload is gone: completed (maybe by an earlier try of this call) or aborted.
  if (name === "NoSuchUpload") throw new StorageError(409, "The upload is no longer open: it was completed or aborted");
  if (name === "NoSuchKey") throw new StorageError(404, "Upload not found");
  if (name === "EntityTooSmall") {
    throw new StorageError(400, "Your proposed upload is smaller than the minimum allowed size");
  }
  if (name === "InvalidPart") throw new StorageError(400, "One or more of the specified parts could not be found");
  if (name === "InvalidPartOrder") throw new StorageError(400, "The list of parts was not in ascending order");
  throw error;
}

/**
 * Any S3-compatible store (AWS, MinIO, R2, S3Proxy…): presigned URLs for the browser, the SDK for
 * everything else. Credentials come from the SDK's default chain (AWS_* variables, profiles, roles).
 */
export class S3Backend implements StorageBackend {
  readonly kind = "s3" as const;
  readonly client: S3Client;
  readonly bucket: string;

  constructor(options: S3Options) {
    this.bucket = options.bucket;
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      // Checksums only where S3 requires them: third-party stores reject the newer headers.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
    // Outermost, so it sees what is left after the SDK's own retries.
    this.client.middlewareStack.add(
      (next) => async (args) => {
        try {
          return await next(args);
        } catch (error) {
          throw isUnreachable(error) ? new StorageUnavailableError(error) : error;
        }
      },
      { step: "initialize", name: "storageUnavailable" },
    );
  }

  presignPut(key: string, contentType: string, expiresIn: number) {
    return getSignedUrl(this.client, new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }), {
      expiresIn,
    });
  }

  async createMultipart(key: string, contentType: string) {
    const res = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }),
    );
    if (!res.UploadId) throw new Error("the store returned no UploadId");
    return res.UploadId;
  }

  presignPart(key: string, uploadId: string, partNumber: number, expiresIn: number) {
    return getSignedUrl(
      this.client,
      new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber: partNumber }),
      { expiresIn },
    );
  }

  async listParts(key: string, uploadId: string): Promise<StoredPart[]> {
    const parts: StoredPart[] = [];
    let marker: string | undefined;
    try {
      for (;;) {
        const res = await this.client.send(
          new ListPartsCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumberMarker: marker }),
        );
        for (const p of res.Parts ?? []) {
          parts.push({ PartNumber: p.PartNumber ?? 0, ETag: p.ETag ?? "", Size: p.Size ?? 0 });
        }
        if (!res.IsTruncated || !res.NextPartNumberMarker) break;
        marker = String(res.NextPartNumberMarker);
      }
    } catch (error) {
      translate(error);
    }
    return parts;
  }

  async completeMultipart(key: string, uploadId: string, parts: { PartNumber: number; ETag: string }[]) {
    if (parts.length === 0) throw new StorageError(400, "You must specify at least one part");
    try {
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.PartNumber, ETag: p.ETag })) },
        }),
      );
    } catch (error) {
      translate(error);
    }
  }

  async abortMultipart(key: string, uploadId: string) {
    try {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }));
    } catch (error) {
      if (code(error) !== "NoSuchUpload" && status(error) !== 404) throw error;
    }
  }

  /**
   * Streams a body of unknown length: under one part it is a single PutObject, otherwise a
   * multipart upload of 5 MiB parts (one part in memory at a time), aborted on any failure.
   */
  async putStream(key: string, body: Readable, contentType: string, maxBytes: number) {
    let buffered: Buffer[] = [];
    let bufferedBytes = 0;
    let total = 0;
    let uploadId: string | undefined;
    const parts: { PartNumber: number; ETag: string }[] = [];
    const flush = async () => {
      uploadId ??= await this.createMultipart(key, contentType);
      const PartNumber = parts.length + 1;
      const chunk = Buffer.concat(buffered, bufferedBytes);
      buffered = [];
      bufferedBytes = 0;
      const res = await this.client.send(
        new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber, Body: chunk }),
      );
      parts.push({ PartNumber, ETag: res.ETag ?? "" });
    };
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        total += chunk.length;
        if (total > maxBytes) throw new StorageError(413, "Object too large");
        buffered.push(chunk);
        bufferedBytes += chunk.length;
        if (bufferedBytes >= MIN_PART_SIZE) await flush();
      }
      if (!uploadId) {
        await this.client.send(
          new PutObjectCommand({
            Bucket: this.bucket,
            Key: key,
            ContentType: contentType,
            Body: Buffer.concat(buffered, bufferedBytes),
          }),
        );
      } else {
        if (bufferedBytes > 0) await flush();
        await this.completeMultipart(key, uploadId, parts);
      }
      return total;
    } catch (error) {
      body.destroy();
      if (uploadId) await this.abortMultipart(key, uploadId).catch(() => {});
      throw error;
    }
  }

  async head(key: string) {
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: res.ContentLength ?? 0, contentType: res.ContentType };
    } catch (error) {
      if (status(error) === 404 || code(error) === "NotFound" || code(error) === "NoSuchKey") return null;
      throw error;
    }
  }

  async read(key: string, range?: { start: number; end: number }) {
    const res = await this.client
      .send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      )
      .catch((error: unknown) => {
        if (status(error) === 404) throw new StorageError(404, "Object not found");
        throw error;
      });
    return res.Body as Readable;
  }

  async delete(key: string) {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}
