import { Readable } from "node:stream";
import { Types } from "mongoose";
import { mediaUrlsInUse, type VideoFrameRecord } from "~/models/assessment.server";
import { completeUploadTypes, createUploadRecord, markUploadComplete, newUploadId } from "~/models/upload.server";
import { mediaIdOf } from "~/schemas/media-url";
import type { AnalysisPhoto } from "./analysis/types";
import { storage } from "./storage/backend.server";
import { discardMediaUrl } from "./storage/draft.server";
import { mediaUrl } from "./storage/names.server";

/**
 * The frames an analysis took from a video, kept as uploads of the assessment's owner in the object
 * store (docs/decisions/0003): the customer's page, the PDF and the email show them, and a damage
 * found on one names it.
 */

/** Gives each video frame the media URL it will be kept under (what a damage found on it names). */
export function nameFrames(photos: AnalysisPhoto[]): AnalysisPhoto[] {
  return photos.map((p) => (p.videoFrame ? { ...p, frameUrl: mediaUrl(String(newUploadId())) } : p));
}

/** "1:05.5": a time in a video as a person reads it. */
export function frameTime(seconds: number) {
  const tenths = Math.round(seconds * 10);
  const minutes = Math.floor(tenths / 600);
  const rest = (tenths % 600) / 10;
  return `${minutes}:${rest < 10 ? "0" : ""}${rest.toFixed(1)}`;
}

/**
 * Stores the named frames as complete uploads of the owner, used by the assessment; answers what the
 * assessment records. Each record is written pending first, so an instance dying midway leaves
 * nothing the pending-upload sweep does not remove; a store that fails midway has the frames already
 * kept removed.
 */
export async function keepFrames(owner: { ownerId: string; assessmentId: string }, photos: AnalysisPhoto[]) {
  const frames: VideoFrameRecord[] = [];
  try {
    await storeFrames(owner, photos, frames);
  } catch (error) {
    await discardFrames(owner, frames).catch(() => {});
    throw error;
  }
  return frames;
}

async function storeFrames({ ownerId, assessmentId }: { ownerId: string; assessmentId: string }, photos: AnalysisPhoto[], frames: VideoFrameRecord[]) {
  for (const photo of photos) {
    const id = photo.frameUrl ? mediaIdOf(photo.frameUrl) : null;
    if (!id || !photo.frameUrl) continue;
    const _id = new Types.ObjectId(id);
    const at = photo.at ?? 0;
    const key = `uploads/${ownerId}/${id}/frame-${frames.length + 1}.jpg`;
    await createUploadRecord({
      _id,
      ownerId,
      key,
      originalName: `Video frame at ${frameTime(at)}.jpg`,
      contentType: "image/jpeg",
      purpose: "wizard",
      draft: false,
      assessmentId: new Types.ObjectId(assessmentId),
    });
    // Listed before its object is written: a failure from here on removes it (the record, or both).
    frames.push({ mediaUrl: photo.frameUrl, videoUrl: photo.mediaUrl, at });
    const size = await storage().putStream(key, Readable.from([photo.bytes]), "image/jpeg", photo.bytes.length);
    await markUploadComplete(_id, { size, contentType: "image/jpeg" });
  }
}

/** Removes frames no other assessment of the owner shows (an earlier analysis's, or an unsaved one's). */
export async function discardFrames({ ownerId, assessmentId }: { ownerId: string; assessmentId: string }, frames: VideoFrameRecord[]) {
  const urls = frames.map((f) => f.mediaUrl);
  const inUse = await mediaUrlsInUse({ ownerId, urls, exceptId: assessmentId });
  for (const url of urls) if (!inUse.has(url)) await discardMediaUrl(url, { ownerId });
}

export interface EstimatePicture {
  /** The media URL of the image shown: a photo, or a video's frame. */
  url: string;
  /** "Photo 2", "Frame 1 · 0:02.5". */
  label: string;
  /** What the image shows, for a screen reader. */
  alt: string;
  /** The numbers (from 1) of the damages found on it. */
  damages: number[];
  /** A video's frame: its number among the frames and its time in the video. */
  frame?: { n: number; at: string };
}

/**
 * What an estimate shows as pictures, in its media's order: each photo, and for each video the
 * frames its analysis kept. Only the owner's complete uploads count, so nothing shown is a broken
 * image: a video analysed before frames were kept, or one with none, shows nothing.
 */
export async function estimatePictures(
  ownerId: string,
  estimate: { mediaUrls?: string[]; videoFrames?: VideoFrameRecord[]; damages?: { mediaUrl?: string | null }[] },
): Promise<EstimatePicture[]> {
  const mediaUrls = estimate.mediaUrls ?? [];
  const frames = estimate.videoFrames ?? [];
  const ids = [...mediaUrls, ...frames.map((f) => f.mediaUrl)].flatMap((url) => mediaIdOf(url) ?? []);
  const types = await completeUploadTypes({ ownerId, ids });
  const typeOf = (url: string) => types.get(mediaIdOf(url) ?? "") ?? "";
  const damagesOn = (url: string) => (estimate.damages ?? []).flatMap((d, i) => (d.mediaUrl === url ? [i + 1] : []));
  const pictures: EstimatePicture[] = [];
  let photos = 0;
  let frameCount = 0;
  for (const url of mediaUrls) {
    const type = typeOf(url);
    if (type.startsWith("image/")) pictures.push({ url, label: `Photo ${++photos}`, alt: `Photo ${photos} of the vehicle`, damages: damagesOn(url) });
    if (!type.startsWith("video/")) continue;
    const ofVideo = frames.filter((f) => f.videoUrl === url && typeOf(f.mediaUrl).startsWith("image/")).sort((a, b) => a.at - b.at);
    for (const f of ofVideo) {
      const n = ++frameCount;
      const at = frameTime(f.at);
      pictures.push({ url: f.mediaUrl, label: `Frame ${n} · ${at}`, alt: `Frame ${n} of the video, at ${at}`, damages: damagesOn(f.mediaUrl), frame: { n, at } });
    }
  }
  return pictures;
}
