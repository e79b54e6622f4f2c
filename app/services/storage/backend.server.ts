import path from "node:path";
import { env } from "~/utils/env.server";
import { LocalBackend } from "./local";
import { S3Backend } from "./s3";
import type { StorageBackend } from "./types";

/**
 * The object store this instance uses (docs/decisions/0003): local files in DATA_DIR, or an S3 bucket.
 */

/** How long an upload URL (whole object or one part) stays valid. */
export const UPLOAD_URL_EXPIRES = 3600;

declare global {
  // One per process, kept across dev reloads of this module.
  var __storage: StorageBackend | undefined;
}
const globalForStorage: { __storage?: StorageBackend } = globalThis;

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
