import type { DamageLocation, DamageType, Severity } from "~/schemas/damage";

/** The job type of an assessment's analysis (one job per assessment, keyed by its id). */
export const ANALYSIS_JOB = "assessment-analysis";

/** A still image a provider looks at: an uploaded photo, or one frame of an uploaded video (JPEG). */
export interface AnalysisPhoto {
  /** The media the picture comes from (`/media/<uploadId>`); a video's frames share its URL. */
  mediaUrl: string;
  contentType: string;
  bytes: Buffer;
}

export interface FoundDamage {
  damageType: DamageType;
  location: DamageLocation;
  severity: Severity;
  description: string;
  /** 0–1. */
  confidence: number;
  /** The photo (or video) it was found on. */
  mediaUrl: string;
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
