import { statfs } from "node:fs/promises";
import { json } from "@remix-run/node";
import { DiskFull } from "./domain-errors";
import { fieldOf } from "./unknown-values";

/**
 * A full disk is an answer, not an outage (docs/decisions/0038). Below the reserve, writes to
 * DATA_DIR are refused before they change anything: the embedded database refuses its writes
 * (`--reserve-mb`, MongoDB's code 14031), local storage its uploads; reads go on. /healthz says so
 * while it lasts, and it ends by itself as soon as space is freed (checked at each write).
 */
export const DISK_RESERVE_MB = 32;
export const DISK_RESERVE_BYTES = DISK_RESERVE_MB * 1024 * 1024;

export const DISK_FULL_MESSAGE = "The server's disk is full: nothing was saved";
/** How soon a client may try again: space freed is seen by the next write. */
export const DISK_FULL_RETRY_SECONDS = 10;

/** MongoDB's OutOfDiskSpace (the embedded engine's refusal, and MongoDB's own). */
const OUT_OF_DISK_SPACE = 14031;

export interface DiskSpace {
  freeBytes: number;
  totalBytes: number;
}

/** Free (to this process) and total bytes of the filesystem holding `dir`; null where it cannot be asked. */
export async function diskSpace(dir: string): Promise<DiskSpace | null> {
  try {
    const s = await statfs(dir);
    return { freeBytes: s.bavail * s.bsize, totalBytes: s.blocks * s.bsize };
  } catch {
    return null;
  }
}

export const isFull = (space: DiskSpace | null) => space !== null && space.freeBytes < DISK_RESERVE_BYTES;

export const megabytes = (bytes: number) => `${Math.floor(bytes / (1024 * 1024))} MB`;

/** The engine refused a write for lack of space, or the OS did (ENOSPC), or a service did (DiskFull). */
export function isDiskFullError(error: unknown) {
  if (error instanceof DiskFull) return true;
  const code = fieldOf(error, "code");
  return code === OUT_OF_DISK_SPACE || code === "ENOSPC";
}

export const diskFullError = () => new DiskFull(DISK_FULL_MESSAGE, { retryAfterSeconds: DISK_FULL_RETRY_SECONDS });

/** The answer to a DiskFull (its usual `{message}`), for the API and the screens alike (app/utils/http.server.ts). */
export const diskFull = () =>
  json(
    { message: DISK_FULL_MESSAGE },
    { status: 507, statusText: "Insufficient Storage", headers: { "Retry-After": String(DISK_FULL_RETRY_SECONDS), "Cache-Control": "no-store" } },
  );

/** /healthz's answer while DATA_DIR's disk is under the reserve (writes refused); null otherwise. */
export async function diskFullHealth(dataDir: string) {
  const space = await diskSpace(dataDir);
  if (!space || !isFull(space)) return null;
  const reason = `disk full: ${megabytes(space.freeBytes)} free on DATA_DIR, writes need ${DISK_RESERVE_MB} MB`;
  return { body: { status: "disk full" as const, reason, freeBytes: space.freeBytes }, retryAfterSeconds: DISK_FULL_RETRY_SECONDS };
}
