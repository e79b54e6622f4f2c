import type { DamageLocation, DamageType, Severity } from "~/schemas/damage";

/** The job type of an assessment's analysis (one job per assessment, keyed by its id). */
export const ANALYSIS_JOB = "assessment-analysis";

/** A still image a provider looks at: an uploaded photo, or one frame of an uploaded video (JPEG). */
export interface AnalysisPhoto {
  /** The media the picture comes from (`/media/<uploadId>`); a video's frames share its URL. */
  mediaUrl: string;
  contentType: string;
  bytes: Buffer;
  /** Set on a video's frames: the picture is one frame of the video, not a photo. */
  videoFrame?: true;
  /** A video frame's time in the video, in seconds. */
  at?: number;
  /** A video frame's own media URL, where it is kept once the analysis succeeds (docs/decisions/0003). */
  frameUrl?: string;
}

/** What a damage found on a picture names: the frame of a video, else the photo. */
export const pictureUrl = (photo: Pick<AnalysisPhoto, "mediaUrl" | "frameUrl">) => photo.frameUrl ?? photo.mediaUrl;

/** "2 photos and 6 video frames": what a set of pictures is, counted as a person would. */
export function describePictures(photos: Pick<AnalysisPhoto, "videoFrame">[]) {
  const frames = photos.filter((p) => p.videoFrame).length;
  const stills = photos.length - frames;
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const parts = [stills > 0 || frames === 0 ? count(stills, "photo", "photos") : "", frames > 0 ? count(frames, "video frame", "video frames") : ""];
  return parts.filter(Boolean).join(" and ");
}

export interface FoundDamage {
  damageType: DamageType;
  location: DamageLocation;
  severity: Severity;
  description: string;
  /** 0–1. */
  confidence: number;
  /** The photo (or video) it was found on; absent when the provider did not say ("photo not stated"). */
  mediaUrl?: string;
}

/** "none": nothing could look at the photos (no AI provider configured, no verified training images). */
export type AnalysisProviderName = "openai" | "embedded" | "none";

export interface AnalysisResult {
  damages: FoundDamage[];
  summary: string;
  /** 0–1: how far the whole result can be trusted. */
  confidence: number;
  provider: AnalysisProviderName;
  model?: string;
}

export interface AnalysisProvider {
  name: AnalysisProviderName;
  /** Rejects with an Error whose message says why; stops early when `signal` is aborted. */
  analyze(photos: AnalysisPhoto[], options: { signal?: AbortSignal }): Promise<AnalysisResult>;
}
