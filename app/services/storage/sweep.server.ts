import { findStalePendingUploads, type UploadRecord } from "~/models/upload.server";
import { isRefusal } from "~/utils/domain-errors";
import { storage } from "./backend.server";
import { discardUpload } from "./draft.server";
import { finalizeUpload } from "./uploads.server";

/**
 * Housekeeping: pending uploads abandoned for a day go, with their objects and parts.
 */

/** Pending uploads older than this are swept (with their object and multipart parts). */
export const STALE_UPLOAD_AGE_MS = 24 * 3600 * 1000;

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
