import type { Element, Pen } from "./estimate-pdf-pen.server";

/**
 * The photos of the printed estimate, three to a row, each marked with the numbers of the damages
 * seen on it. Markers wrap in rows on their photo while two rows hold them; more (hail leaves 40-60
 * dents on one photo) are listed in a numbered legend under the photo instead, so that no marker
 * leaves its photo or the page. Each photo is a Figure whose alternative text names the damages; a
 * video's frame is captioned with its number and time in its bottom corner.
 */

export interface PrintedPhoto {
  bytes: Buffer;
  /** Indexes of the damages seen on it. */
  damages: number[];
  /** A video's frame: its number among the frames and its time in the video ("0:02.5"), captioned on it. */
  frame?: { n: number; at: string };
}

const MARKER = 7;
const MARKER_STEP = 17;
const MARKER_ROWS = 2;
const SHADE = "#f3f4f6";
const ACCENT = "#1e3a8a";
const INK = "#111827";

/** Damage numbers (1-based) as short ranges: "1, 2, 4–60". */
export function numberRanges(indexes: number[]) {
  const numbers = [...new Set(indexes)].sort((a, b) => a - b).map((i) => i + 1);
  const ranges: string[] = [];
  for (let i = 0; i < numbers.length; ) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === numbers[j] + 1) j++;
    ranges.push(j - i >= 2 ? `${numbers[i]}–${numbers[j]}` : numbers.slice(i, j + 1).join(", "));
    i = j + 1;
  }
  return ranges.join(", ");
}

/** How the photo grid lays out within `width`: the photos' size and how many markers fit on one. */
function grid(width: number) {
  const pw = (width - 20) / 3;
  const ph = pw * 0.66;
  const perRow = Math.floor((pw - 6) / MARKER_STEP);
  return { pw, ph, perRow, onPhoto: perRow * MARKER_ROWS };
}

/**
 * Writes the photos from doc.y down (the caller has made room: `photosHeight`), under `parent`.
 * `alt` and `frameAlt` give a photo's and a frame's alternative text (`frameAlt` without damages
 * is the frame's caption); `legend` the words before a legend's numbers.
 */
export function writePhotos(
  doc: PDFKit.PDFDocument,
  p: Pen,
  parent: Element,
  photos: PrintedPhoto[],
  {
    left,
    width,
    alt,
    frameAlt,
    legend,
  }: { left: number; width: number; alt: (n: number, damages: string | null) => string; frameAlt: (n: number, at: string, damages: string | null) => string; legend: string },
) {
  const { pw, ph, perRow, onPhoto } = grid(width);
  const legends = photos.map((photo) => (photo.damages.length > onPhoto ? `${legend} ${numberRanges(photo.damages)}` : null));
  let y = doc.y;
  for (let row = 0; row * 3 < photos.length; row++) {
    const rowPhotos = photos.slice(row * 3, row * 3 + 3);
    rowPhotos.forEach((photo, k) => {
      const i = row * 3 + k;
      const x = left + k * (pw + 10);
      p.tag(
        parent,
        "Figure",
        () => {
          doc.rect(x, y, pw, ph).fill(SHADE);
          try {
            doc.image(photo.bytes, x, y, { fit: [pw, ph], align: "center", valign: "center" });
          } catch {
            // An unreadable photo leaves its frame empty.
          }
          if (legends[i] === null) markers(doc, p, photo.damages, x, y, perRow);
          if (photo.frame) caption(doc, p, frameAlt(photo.frame.n, photo.frame.at, null), x, y + ph, pw);
        },
        {
          alt: photo.frame
            ? frameAlt(photo.frame.n, photo.frame.at, photo.damages.length ? numberRanges(photo.damages) : null)
            : alt(i + 1, photo.damages.length ? numberRanges(photo.damages) : null),
        },
      );
      const text = legends[i];
      if (text !== null) p.tag(parent, "P", () => p.use("regular", 7.5, INK).text(text, x, y + ph + 2, { width: pw }));
    });
    y += ph + 8 + legendHeight(doc, p, legends.slice(row * 3, row * 3 + 3), pw);
  }
  doc.x = left;
  doc.y = y + 4;
}

/** The room the photos take (with their legends) at `width`. */
export function photosHeight(doc: PDFKit.PDFDocument, p: Pen, photos: PrintedPhoto[], width: number, legend: string) {
  const { pw, ph, onPhoto } = grid(width);
  let height = 0;
  for (let row = 0; row * 3 < photos.length; row++) {
    const legends = photos.slice(row * 3, row * 3 + 3).map((photo) => (photo.damages.length > onPhoto ? `${legend} ${numberRanges(photo.damages)}` : null));
    height += ph + 8 + legendHeight(doc, p, legends, pw);
  }
  return height + 4;
}

/** A frame's caption on a dark band along the photo's bottom edge (inside it: the grid keeps its size). */
function caption(doc: PDFKit.PDFDocument, p: Pen, text: string, x: number, bottom: number, width: number) {
  doc.rect(x, bottom - 12, width, 12).fill(ACCENT);
  p.use("bold", 7, "#ffffff").text(text, x + 4, bottom - 10.5, { width: width - 8, lineBreak: false, ellipsis: true });
}

function legendHeight(doc: PDFKit.PDFDocument, p: Pen, legends: (string | null)[], width: number) {
  p.use("regular", 7.5, INK);
  return Math.max(0, ...legends.map((text) => (text === null ? 0 : doc.heightOfString(text, { width }) + 2)));
}

/** Numbered markers in rows from the photo's top left corner (at most MARKER_ROWS rows). */
function markers(doc: PDFKit.PDFDocument, p: Pen, damages: number[], x: number, y: number, perRow: number) {
  damages.forEach((n, k) => {
    const cx = x + 10 + (k % perRow) * MARKER_STEP;
    const cy = y + 10 + Math.floor(k / perRow) * MARKER_STEP;
    doc.circle(cx, cy, MARKER).fill(ACCENT);
    const label = String(n + 1);
    p.use("bold", label.length > 2 ? 5.5 : 7, "#ffffff").text(label, cx - MARKER, cy - 4.6 + (label.length > 2 ? 0.8 : 0), { width: MARKER * 2, align: "center", lineBreak: false });
  });
}
