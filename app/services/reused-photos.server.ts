import { findAssessmentsSharingPhotoBands, findOldPhotoPrintsInWindow, setPhotoPrints, type AssessmentRecord } from "~/models/assessment.server";
import { findEarlierVersions } from "~/models/estimate.server";
import { everyAccountId } from "~/models/user.server";
import type { AnalysisPhoto } from "./analysis/types";
import { differenceHash } from "./image-features.server";
import { photoPrint, printBands, samePicture, type PhotoPrint } from "./photo-prints.server";
import { readMedia } from "./storage/uploads.server";

/**
 * The reused-photo check (docs/decisions/0018, 0030): which of the owner's earlier assessments show
 * the same picture as a photo of this one (resized, re-encoded or cropped), never merely a car of the
 * same shape in another colour or another shot.
 */

type StoredPrint = AssessmentRecord["photoHashes"][number];
type Comparable = StoredPrint & PhotoPrint;

/** Candidates looked at: the owner's newest earlier assessments sharing an index key with a photo. */
const REUSED_PHOTO_CANDIDATES = 20;

const comparable = (p: StoredPrint): p is Comparable => typeof p.print === "string" && typeof p.aspect === "number";

/** One media file's print (a video's: its first frame's), with its 64-bit hash as the API has always shown. */
async function printOf(mediaUrl: string, bytes: Buffer): Promise<Comparable> {
  const [hash, print] = await Promise.all([differenceHash(bytes), photoPrint(bytes)]);
  return { mediaUrl, hash, ...print };
}

/**
 * Each media file's print, and which of the owner's earlier assessments show the same picture: one
 * warning per photo per earlier assessment (a photo uploaded twice here, or held twice there, is
 * still one), naming the photo by its file name; never one of this estimate's own earlier versions,
 * and for an estimate and its supplement only the latest version that holds it. Prints stored before
 * colour-aware matching (no `print`) are never matched: the start-up migration below recomputes them.
 */
export async function reusedPhotos(record: AssessmentRecord, photos: AnalysisPhoto[], names: Map<string, string>) {
  const firstPhotos = photos.filter((p, i) => photos.findIndex((q) => q.mediaUrl === p.mediaUrl) === i);
  const photoHashes = await Promise.all(firstPhotos.map((p) => printOf(p.mediaUrl, p.bytes)));
  const mine = photoHashes.map((p) => ({ print: p, keys: new Set(printBands([p])) })).filter((p) => p.keys.size > 0);
  const photoBands = printBands(photoHashes);
  const [candidates, ownVersions] = await Promise.all([
    findAssessmentsSharingPhotoBands({
      ownerId: String(record.ownerId),
      bands: photoBands,
      exceptId: String(record._id),
      before: record.createdAt,
      limit: REUSED_PHOTO_CANDIDATES,
    }),
    findEarlierVersions({ scope: { ownerId: String(record.ownerId) }, record }),
  ]);
  const own = new Set(ownVersions.map((v) => String(v._id)));
  const others = candidates.filter((other) => !own.has(String(other._id)));
  const photoWarnings: AssessmentRecord["photoWarnings"] = [];
  for (const other of others) {
    const theirs = other.photoHashes.filter(comparable).map((p) => ({ print: p, keys: new Set(printBands([p])) }));
    const theirsTaken = new Set<string>();
    for (const m of mine) {
      // Only pairs sharing an index key are compared closely (a few milliseconds each).
      const match = theirs.find((t) => !theirsTaken.has(t.print.mediaUrl) && [...m.keys].some((k) => t.keys.has(k)) && samePicture(m.print, t.print));
      if (!match) continue;
      theirsTaken.add(match.print.mediaUrl);
      const photoName = names.get(m.print.mediaUrl);
      photoWarnings.push({ mediaUrl: m.print.mediaUrl, ...(photoName ? { photoName } : {}), otherAssessmentId: other._id, otherTitle: other.title });
    }
  }
  // An earlier version that a matching later version replaced: the later one names the estimate.
  const warned = new Set(photoWarnings.map((w) => String(w.otherAssessmentId)));
  const replaced = new Set(others.filter((o) => o.supersededBy && warned.has(String(o.supersededBy))).map((o) => String(o._id)));
  return { photoHashes, photoBands, photoWarnings: photoWarnings.filter((w) => !replaced.has(String(w.otherAssessmentId))) };
}

const MIGRATION_WINDOW = 1000;

/**
 * Prints stored before colour-aware matching (a greyscale hash and thumbnail, which took a red car
 * for a blue one) are recomputed from the stored media, with their index keys; a file no longer
 * stored loses its print (nothing to compare). A video's print comes from its first kept frame, as
 * at analysis. Account by account, a window of its history at a time. Idempotent: an assessment whose
 * prints all have `print` is not touched again.
 */
export async function migratePhotoPrints() {
  let changed = 0;
  for (const ownerId of await everyAccountId()) {
    const scope = { ownerId: String(ownerId) };
    let before: Date | null = null;
    do {
      const window = await findOldPhotoPrintsInWindow({ ownerId, before, size: MIGRATION_WINDOW });
      for (const record of window.records) {
        const photoHashes: Comparable[] = [];
        for (const { mediaUrl } of record.photoHashes) {
          const frame = (record.videoFrames ?? []).find((f) => f.videoUrl === mediaUrl);
          const media = await readMedia(frame?.mediaUrl ?? mediaUrl, scope).catch(() => null);
          if (!media || !media.contentType.startsWith("image/")) continue;
          const print = await printOf(mediaUrl, media.bytes).catch(() => null);
          if (print) photoHashes.push(print);
        }
        await setPhotoPrints(record._id, photoHashes, printBands(photoHashes));
        changed += 1;
      }
      before = window.next;
    } while (before);
  }
  return changed;
}
