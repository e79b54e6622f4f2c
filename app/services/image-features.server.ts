import sharp from "sharp";
import { MAX_DECODED_PIXELS } from "~/schemas/upload-limits";

/**
 * A compact description of a photo for the embedded damage matcher: a 64-bit difference hash
 * (perceptual: survives resizing and recompression), a 64-bin colour histogram and an 8-bin
 * histogram of edge directions. Computed once per verified training image and per uploaded photo;
 * comparing two is a few hundred arithmetic operations, so the nearest verified examples of a photo
 * are found quickly.
 */
export interface ImageFeatures {
  /** 16 hex digits. */
  hash: string;
  /** 4 × 4 × 4 RGB bins, summing to 1. */
  colour: number[];
  /** 8 gradient directions weighted by strength, summing to 1 (all 0 for a flat image). */
  edges: number[];
}

const SIDE = 64;

/** A picture's size as it is shown: EXIF orientations 5–8 turn it, swapping its edges (header only, nothing decoded). */
export async function uprightSize(input: Buffer) {
  const meta = await sharp(input, { limitInputPixels: MAX_DECODED_PIXELS }).metadata();
  const turned = (meta.orientation ?? 1) >= 5;
  return { width: (turned ? meta.height : meta.width) ?? 0, height: (turned ? meta.width : meta.height) ?? 0 };
}

/** The 64-bit difference hash alone (16 hex digits): near for the same photo resized or recompressed. */
export async function differenceHash(input: Buffer) {
  const { data } = await sharp(input, { limitInputPixels: MAX_DECODED_PIXELS })
    .rotate()
    .greyscale()
    .resize(9, 8, { fit: "fill" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  let hash = 0n;
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      hash = (hash << 1n) | (data[y * 9 + x] > data[y * 9 + x + 1] ? 1n : 0n);
    }
  }
  return hash.toString(16).padStart(16, "0");
}

function normalise(values: number[]) {
  const sum = values.reduce((s, v) => s + v, 0);
  return sum === 0 ? values.map(() => 0) : values.map((v) => v / sum);
}

export async function computeImageFeatures(input: Buffer): Promise<ImageFeatures> {
  const image = sharp(input, { limitInputPixels: MAX_DECODED_PIXELS }).rotate().resize(SIDE, SIDE, { fit: "fill" }).removeAlpha();
  const [rgb, grey, hash] = await Promise.all([
    image.clone().raw().toBuffer(),
    image.clone().greyscale().raw().toBuffer(),
    differenceHash(input),
  ]);

  const colour = new Array<number>(64).fill(0);
  for (let i = 0; i < rgb.length; i += 3) {
    colour[(rgb[i] >> 6) * 16 + (rgb[i + 1] >> 6) * 4 + (rgb[i + 2] >> 6)] += 1;
  }

  const edges = new Array<number>(8).fill(0);
  const at = (x: number, y: number) => grey[y * SIDE + x];
  for (let y = 1; y < SIDE - 1; y++) {
    for (let x = 1; x < SIDE - 1; x++) {
      // Sobel gradient.
      const gx = at(x + 1, y - 1) + 2 * at(x + 1, y) + at(x + 1, y + 1) - at(x - 1, y - 1) - 2 * at(x - 1, y) - at(x - 1, y + 1);
      const gy = at(x - 1, y + 1) + 2 * at(x, y + 1) + at(x + 1, y + 1) - at(x - 1, y - 1) - 2 * at(x, y - 1) - at(x + 1, y - 1);
      const strength = Math.hypot(gx, gy);
      if (strength < 32) continue;
      const angle = Math.atan2(gy, gx) + Math.PI;
      edges[Math.min(7, Math.floor((angle / (2 * Math.PI)) * 8))] += strength;
    }
  }

  return { hash, colour: normalise(colour), edges: normalise(edges) };
}

/** Differing bits of two hashes (0–64). */
export function hashDistance(a: string, b: string) {
  let diff = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let bits = 0;
  while (diff > 0n) {
    bits += Number(diff & 1n);
    diff >>= 1n;
  }
  return bits;
}

/** Half the L1 distance of two normalised histograms (0 same, 1 disjoint). */
function histogramDistance(a: number[], b: number[]) {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
  return sum / 2;
}

/** 0 for the same picture, up to 1 for unrelated ones: the hash weighs most, then colour, then edges. */
export function featureDistance(a: ImageFeatures, b: ImageFeatures) {
  return 0.5 * (hashDistance(a.hash, b.hash) / 64) + 0.3 * histogramDistance(a.colour, b.colour) + 0.2 * histogramDistance(a.edges, b.edges);
}
