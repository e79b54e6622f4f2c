import sharp from "sharp";
import type { PhotoIssue } from "~/schemas/uploads";
import { MAX_DECODED_PIXELS } from "~/schemas/upload-limits";
import { uprightSize } from "./image-features.server";

/**
 * A photo's quality, checked as it arrives (issue 39 item 3; docs/decisions/0040): blurred (the
 * variance of its Laplacian), too dark or blown out (its luminance), too small. On the server with
 * sharp, so a photo sent without JavaScript is checked the same. A warning, never a refusal: the
 * customer or the dealer may keep the photo anyway.
 */

/**
 * Calibrated on the generated vehicle pictures and their degraded copies (photo-quality.server.test.ts
 * prints the figures): sharp originals measure 39–172, the same slightly blurred (Gaussian σ 2 at
 * 1280 px) 5–24; originals' mean luminance 111–178, darkened copies 24–38, blown-out copies 228–253.
 */
export const QUALITY_THRESHOLDS = {
  /** Below this Laplacian variance (measured at 640 px on the long edge) the photo is blurred. */
  minSharpness: 30,
  /** Mean luminance (0–255) under which a photo is too dark. */
  maxDarkMean: 60,
  /** Mean luminance over which, or share of clipped-white pixels over which, it is blown out. */
  minBrightMean: 215,
  maxClippedShare: 0.4,
  /** Shorter edge under which the damage cannot be read. */
  minShortEdge: 480,
} as const;

const MEASURE_EDGE = 640;

export interface PhotoMeasures {
  width: number;
  height: number;
  sharpness: number;
  meanLuminance: number;
  clippedShare: number;
}

export async function measurePhoto(input: Buffer): Promise<PhotoMeasures> {
  const image = sharp(input, { limitInputPixels: MAX_DECODED_PIXELS }).rotate();
  const { data, info } = await image
    .resize({ width: MEASURE_EDGE, height: MEASURE_EDGE, fit: "inside", withoutEnlargement: true })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width: w, height: h } = info;
  let total = 0;
  let clipped = 0;
  for (const value of data) {
    total += value;
    if (value > 245) clipped++;
  }
  // The 4-neighbour Laplacian: edges give large values, a blurred picture has few.
  let sum = 0;
  let squares = 0;
  let n = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const l = data[i - 1] + data[i + 1] + data[i - w] + data[i + w] - 4 * data[i];
      sum += l;
      squares += l * l;
      n++;
    }
  }
  const mean = n ? sum / n : 0;
  const { width, height } = await uprightSize(input);
  return {
    width: width || w,
    height: height || h,
    sharpness: n ? squares / n - mean * mean : 0,
    meanLuminance: data.length ? total / data.length : 0,
    clippedShare: data.length ? clipped / data.length : 0,
  };
}

export function judgePhoto(m: PhotoMeasures): PhotoIssue[] {
  const t = QUALITY_THRESHOLDS;
  const issues: PhotoIssue[] = [];
  if (m.meanLuminance < t.maxDarkMean) issues.push("dark");
  else if (m.meanLuminance > t.minBrightMean || m.clippedShare > t.maxClippedShare) issues.push("overexposed");
  // A dark or blown-out picture has few edges too: blur is judged only on a well-exposed one.
  else if (m.sharpness < t.minSharpness) issues.push("blurred");
  if (Math.min(m.width, m.height) < t.minShortEdge) issues.push("small");
  return issues;
}

/** The photo's issues, or null when it could not be judged (not decodable): never an error to the upload. */
export async function checkPhotoQuality(input: Buffer): Promise<PhotoIssue[] | null> {
  try {
    return judgePhoto(await measurePhoto(input));
  } catch {
    return null;
  }
}
