import sharp from "sharp";
import { MAX_DECODED_PIXELS } from "~/schemas/upload-limits";
import { uprightSize } from "./image-features.server";

/**
 * The reused-photo check's description of a picture (docs/decisions/0030): a 24 × 24 colour
 * thumbnail and the picture's aspect ratio (1.7 KB). Two prints show the same picture when one,
 * cropped by at most a fifth of each side, lines up with the other in structure (greyscale, brightness
 * and contrast aside) and in colour, cell by cell: resizing, recompression, another format or a crop
 * keep both; the same car in another colour keeps the structure only, another shot or car neither.
 */
export interface PhotoPrint {
  /** base64 of SIDE × SIDE × 3 bytes (RGB). */
  print: string;
  /** Width / height of the picture as seen (after EXIF rotation). */
  aspect: number;
}

const SIDE = 24;
/** The largest crop followed: the kept part is at least this share of each side. */
const MIN_KEPT = 0.8;
/**
 * The same picture when structure + colour (printDistance) is at most this. Chosen on the labelled
 * set (tests/vehicle-pictures.ts, docs/decisions/0030): the same picture resized, re-encoded or
 * cropped measured at most 0.17; a different picture whose hash band it shared (the same car in
 * another colour on the same background, mostly) 0.29 and up.
 */
export const SAME_PICTURE = 0.23;

export async function photoPrint(input: Buffer): Promise<PhotoPrint> {
  const { width, height } = await uprightSize(input);
  const rgb = await sharp(input, { limitInputPixels: MAX_DECODED_PIXELS })
    .rotate()
    .flatten({ background: "#ffffff" })
    .resize(SIDE, SIDE, { fit: "fill" })
    .removeAlpha()
    .toColourspace("srgb")
    .raw()
    .toBuffer();
  return { print: rgb.toString("base64"), aspect: (width || 1) / (height || 1) };
}

/** A part of a picture in its own unit coordinates. */
interface Window {
  x: number;
  y: number;
  w: number;
  h: number;
}
const WHOLE: Window = { x: 0, y: 0, w: 1, h: 1 };

interface Decoded {
  luma: Float32Array;
  rgb: Float32Array;
  aspect: number;
  /** Whether the picture has structure: a flat colour or a dark frame looks like every other such picture. */
  structured: boolean;
}
const decodedPrints = new WeakMap<PhotoPrint, Decoded | null>();

function decode(print: PhotoPrint): Decoded | null {
  if (decodedPrints.has(print)) return decodedPrints.get(print)!;
  const bytes = Buffer.from(print.print ?? "", "base64");
  let decoded: Decoded | null = null;
  if (bytes.length === SIDE * SIDE * 3 && print.aspect > 0) {
    const rgb = Float32Array.from(bytes);
    const luma = new Float32Array(SIDE * SIDE);
    for (let i = 0; i < luma.length; i++) luma[i] = 0.299 * rgb[i * 3] + 0.587 * rgb[i * 3 + 1] + 0.114 * rgb[i * 3 + 2];
    decoded = { luma, rgb, aspect: print.aspect, structured: zScores(luma).sd >= 6 };
  }
  decodedPrints.set(print, decoded);
  return decoded;
}

/** Bilinear sample of a plane (`channels` values per pixel, channel `c`) at unit coordinates (u, v). */
function sample(data: Float32Array, channels: number, c: number, u: number, v: number) {
  const fx = Math.min(SIDE - 1, Math.max(0, u * SIDE - 0.5));
  const fy = Math.min(SIDE - 1, Math.max(0, v * SIDE - 0.5));
  const x0 = fx | 0;
  const y0 = fy | 0;
  const x1 = x0 + 1 < SIDE ? x0 + 1 : x0;
  const y1 = y0 + 1 < SIDE ? y0 + 1 : y0;
  const dx = fx - x0;
  const dy = fy - y0;
  const a = data[(y0 * SIDE + x0) * channels + c];
  const b = data[(y0 * SIDE + x1) * channels + c];
  const d = data[(y1 * SIDE + x0) * channels + c];
  const e = data[(y1 * SIDE + x1) * channels + c];
  return (a + (b - a) * dx) * (1 - dy) + (d + (e - d) * dx) * dy;
}

/** The window as an n × n grid of luma (one sample per cell: a cell is about two thumbnail pixels). */
function lumaGrid(p: Decoded, win: Window, n: number) {
  const out = new Float32Array(n * n);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) out[j * n + i] = sample(p.luma, 1, 0, win.x + (win.w * (i + 0.5)) / n, win.y + (win.h * (j + 0.5)) / n);
  return out;
}

function zScores(values: Float32Array) {
  let mean = 0;
  for (const v of values) mean += v;
  mean /= values.length;
  let variance = 0;
  for (const v of values) variance += (v - mean) ** 2;
  const sd = Math.sqrt(variance / values.length);
  return { z: values.map((v) => (sd < 1 ? 0 : (v - mean) / sd)), sd };
}

const GRID = 12;

/** Mean absolute difference of the z-scores of the window of `a` and the whole of `b` (brightness and contrast do not count). */
function structureAt(a: Decoded, win: Window, bz: Float32Array) {
  const az = zScores(lumaGrid(a, win, GRID)).z;
  let sum = 0;
  for (let i = 0; i < az.length; i++) sum += Math.abs(az[i] - bz[i]);
  return sum / az.length;
}

const inside = (win: Window) => win.x >= -1e-9 && win.y >= -1e-9 && win.x + win.w <= 1 + 1e-9 && win.y + win.h <= 1 + 1e-9;

/** The window of `a` (b a crop of it, or the whole of it) that best shows `b`, and the structure there. */
function bestWindow(a: Decoded, b: Decoded) {
  const bz = zScores(lumaGrid(b, WHOLE, GRID)).z;
  const heightOf = (w: number) => (w * a.aspect) / b.aspect;
  let best = { win: WHOLE, structure: Number.POSITIVE_INFINITY };
  const consider = (win: Window) => {
    const structure = structureAt(a, win, bz);
    if (structure < best.structure) best = { win, structure };
  };
  const STEP = 0.03;
  for (let w = 1; w >= MIN_KEPT - 1e-9; w -= STEP) {
    const h = Math.min(1, heightOf(w));
    if (heightOf(w) > 1.03 || h < MIN_KEPT) continue;
    for (let x = 0; x <= 1 - w + 1e-9; x += STEP) for (let y = 0; y <= 1 - h + 1e-9; y += STEP) consider({ x, y, w, h });
    // The far edges too, which the steps may not reach.
    consider({ x: 1 - w, y: 1 - h, w, h });
  }
  // Refined around the coarse best, 1 % of a side at a time.
  const coarse = best.win;
  for (const dw of [-0.02, -0.01, 0, 0.01, 0.02]) {
    const w = Math.min(1, coarse.w + dw);
    const h = Math.min(1, heightOf(w));
    if (w < MIN_KEPT || h < MIN_KEPT) continue;
    for (const dx of [-0.02, -0.01, 0, 0.01, 0.02]) {
      for (const dy of [-0.02, -0.01, 0, 0.01, 0.02]) {
        const win = { x: coarse.x + dx, y: coarse.y + dy, w, h };
        if (inside(win)) consider(win);
      }
    }
  }
  return best;
}

const CELLS = 8;

/** The window's mean colour in CELLS × CELLS cells (each the mean of 2 × 2 samples), RGB. */
function colourCells(p: Decoded, win: Window) {
  const out = new Float32Array(CELLS * CELLS * 3);
  for (let j = 0; j < CELLS; j++) {
    for (let i = 0; i < CELLS; i++) {
      for (let c = 0; c < 3; c++) {
        let sum = 0;
        for (const sy of [0.25, 0.75]) for (const sx of [0.25, 0.75]) sum += sample(p.rgb, 3, c, win.x + (win.w * (i + sx)) / CELLS, win.y + (win.h * (j + sy)) / CELLS);
        out[(j * CELLS + i) * 3 + c] = sum / 4;
      }
    }
  }
  return out;
}

/**
 * The largest difference of a cell, lightness (0–1) plus chromaticity, between the window of `a` and
 * the whole of `b`, after `b`'s channels are scaled to `a`'s means (a brighter or warmer copy is
 * the same picture; a car of another colour differs where the car is).
 */
function colourAt(a: Decoded, win: Window, b: Decoded) {
  const ca = colourCells(a, win);
  const cb = colourCells(b, WHOLE);
  const gain = [0, 1, 2].map((c) => {
    let sa = 0;
    let sb = 0;
    for (let i = c; i < ca.length; i += 3) {
      sa += ca[i];
      sb += cb[i];
    }
    return sb < 1 ? 1 : sa / sb;
  });
  let worst = 0;
  for (let i = 0; i < ca.length; i += 3) {
    const [ar, ag, ab] = [ca[i], ca[i + 1], ca[i + 2]];
    const [br, bg, bb] = [cb[i] * gain[0], cb[i + 1] * gain[1], cb[i + 2] * gain[2]];
    const lightness = Math.abs(ar + ag + ab - br - bg - bb) / 3 / 255;
    // Chromaticity (each channel's share, softened in the dark): what a brighter copy keeps.
    const sa = ar + ag + ab + 30;
    const sb = br + bg + bb + 30;
    const chroma = Math.abs(ar / sa - br / sb) + Math.abs(ag / sa - bg / sb) + Math.abs(ab / sa - bb / sb);
    worst = Math.max(worst, lightness + chroma);
  }
  return worst;
}

export interface PrintDistance {
  /** Greyscale structure at the best crop: mean difference of z-scores (0 the same). */
  structure: number;
  /** The worst of 8 × 8 cells' lightness and chromaticity difference at that crop (0 the same). */
  colour: number;
}

/**
 * How far two prints are at the crop that lines them up best, either being a crop of the other.
 * Infinity when either is not comparable (an unreadable print, or a picture without structure).
 */
export function printDistance(a: PhotoPrint, b: PhotoPrint): PrintDistance {
  const pa = decode(a);
  const pb = decode(b);
  if (!pa || !pb || !pa.structured || !pb.structured) return { structure: Number.POSITIVE_INFINITY, colour: Number.POSITIVE_INFINITY };
  const bInA = bestWindow(pa, pb);
  const aInB = bestWindow(pb, pa);
  return bInA.structure <= aInB.structure
    ? { structure: bInA.structure, colour: colourAt(pa, bInA.win, pb) }
    : { structure: aInB.structure, colour: colourAt(pb, aInB.win, pa) };
}

/** The same picture (resized, re-encoded or cropped): structure and colour both line up. */
export function samePicture(a: PhotoPrint, b: PhotoPrint) {
  const d = printDistance(a, b);
  return d.structure + d.colour <= SAME_PICTURE;
}

/**
 * The windows whose difference hashes index a print: the whole picture and crops of 88 % of a side
 * at its start, middle and end (horizontally, vertically and both). A copy cropped by up to a fifth
 * lines up within about 3 % of a side with one of them, close enough for a 16-bit band of a hash to
 * stay the same.
 */
const INDEX_WINDOWS: Window[] = (() => {
  const k = 0.88;
  const at = [0, (1 - k) / 2, 1 - k];
  return [
    WHOLE,
    ...at.flatMap((x) => at.map((y) => ({ x, y, w: k, h: k }))),
    ...at.map((x) => ({ x, y: 0, w: k, h: 1 })),
    ...at.map((y) => ({ x: 0, y, w: 1, h: k })),
  ];
})();

/** The 64-bit difference hash of a window of the print's luma, as four 16-bit bands. */
function windowBands(p: Decoded, win: Window) {
  const cells = new Float32Array(9 * 8);
  for (let j = 0; j < 8; j++) for (let i = 0; i < 9; i++) cells[j * 9 + i] = sample(p.luma, 1, 0, win.x + (win.w * (i + 0.5)) / 9, win.y + (win.h * (j + 0.5)) / 8);
  const bands: number[] = [];
  for (let band = 0; band < 4; band++) {
    let bits = 0;
    for (let y = band * 2; y < band * 2 + 2; y++) for (let x = 0; x < 8; x++) bits = (bits << 1) | (cells[y * 9 + x] > cells[y * 9 + x + 1] ? 1 : 0);
    bands.push(bits);
  }
  return bands;
}

/** A 16-bit difference hash of the window on a 5 × 4 grid: coarser, so it survives a worse alignment. */
function coarseKey(p: Decoded, win: Window) {
  let bits = 0;
  for (let j = 0; j < 4; j++) {
    for (let i = 0; i < 4; i++) {
      const at = (k: number) => sample(p.luma, 1, 0, win.x + (win.w * (k + 0.5)) / 5, win.y + (win.h * (j + 0.5)) / 4);
      bits = (bits << 1) | (at(i) > at(i + 1) ? 1 : 0);
    }
  }
  const ones = popcount(bits);
  return ones > 2 && ones < 14 ? `c:${bits.toString(16).padStart(4, "0")}` : null;
}

const popcount = (n: number) => n.toString(2).replace(/0/g, "").length;

/**
 * The index keys of prints ("p<band>:<4 hex digits>", every window's hash cut in four 16-bit bands):
 * the same picture, cropped or not, shares at least one with its copies, so the check finds
 * candidates through the database's index. A band with almost every bit alike (sky, a wall) is
 * left out: every picture has those. Prints without structure have none.
 */
export function printBands(prints: PhotoPrint[]) {
  const keys = new Set<string>();
  for (const print of prints) {
    const p = decode(print);
    if (!p?.structured) continue;
    for (const win of INDEX_WINDOWS) {
      for (const [band, bits] of windowBands(p, win).entries()) {
        const ones = popcount(bits);
        if (ones > 2 && ones < 14) keys.add(`p${band}:${bits.toString(16).padStart(4, "0")}`);
      }
      const coarse = coarseKey(p, win);
      if (coarse) keys.add(coarse);
    }
  }
  return [...keys];
}
