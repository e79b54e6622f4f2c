import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as fontkit from "fontkit";

/**
 * The printed estimate's one font family (decision 0026): Noto Sans regular and bold, read from the
 * npm package @expo-google-fonts/noto-sans (SIL OFL 1.1, docs/licenses/noto-sans.md) and embedded as
 * subsets by pdfkit. Resolved from this module's own location, so the source (vitest), the server
 * bundle (build/index.js) and the bench's bundle all find the package in node_modules.
 */

const require = createRequire(import.meta.url);
const FILES = {
  regular: "@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf",
  bold: "@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf",
} as const;
export type FontStyle = keyof typeof FILES;
const FONT_STYLES: readonly FontStyle[] = ["regular", "bold"];

/** What a character no font of the family has prints as: visible, and read back as itself. */
export const REPLACEMENT = "\uFFFD";

let loaded: { faces: Record<FontStyle, fontkit.Font>; covered: Set<number> } | null = null;

/**
 * The fonts, read and parsed once per process (parsing their tables costs more than laying out a
 * whole estimate), and the characters both have. A parsed font is only read from afterwards: every
 * document makes its own subset of it.
 */
function fonts() {
  if (!loaded) {
    const open = (file: string) => {
      const font = fontkit.create(readFileSync(require.resolve(file)));
      if ("fonts" in font) throw new Error(`${file} is a font collection, not a font`);
      return positionedOnly(font);
    };
    const faces = { regular: open(FILES.regular), bold: open(FILES.bold) };
    const bold = new Set(faces.bold.characterSet);
    loaded = { faces, covered: new Set(faces.regular.characterSet.filter((c) => bold.has(c))) };
  }
  return loaded;
}

/**
 * Glyph substitutions off, positioning (kerning, marks) on. fontkit keeps one glyph object per glyph
 * with the characters of the first text that produced it, and the PDF's text map copies those: Noto's
 * ccmp spells "ị" as "i" and a dot, so after one "Thị" every "i" would be copied out as "ị" (and a
 * ligature typed once would stand for every later "fi"). With the text composed (NFC) the fonts'
 * own accented letters need no substitution.
 */
const POSITIONING_ONLY = { ccmp: false, locl: false, rlig: false, calt: false, clig: false, liga: false, rclt: false };
/** Words shaped per font and process: the same words print on every estimate, and shaping one costs more than writing it. */
const SHAPED_WORDS = 20_000;
function positionedOnly(font: fontkit.Font) {
  const layout = font.layout.bind(font);
  const shaped = new Map<string, fontkit.GlyphRun>();
  font.layout = (text: string) => {
    let run = shaped.get(text);
    if (!run) {
      run = layout(text, POSITIONING_ONLY);
      if (shaped.size >= SHAPED_WORDS) shaped.delete(shaped.keys().next().value!);
      shaped.set(text, run);
    }
    // pdfkit scales the positions it is handed in place: each document gets its own.
    return Object.assign(Object.create(Object.getPrototypeOf(run) as object) as fontkit.GlyphRun, run, { positions: run.positions.map((p) => ({ ...p })) });
  };
  return font;
}

/** Registers the family on a document under the names "regular" and "bold". */
export function registerFonts(doc: PDFKit.PDFDocument) {
  const { faces } = fonts();
  // pdfkit takes a parsed fontkit font as a font's source (its type declarations list only files and bytes).
  for (const style of FONT_STYLES) doc.registerFont(style, faces[style]);
}

// Invisible format characters with no place in a printed estimate (a byte-order mark pasted with a
// name): dropped. PDF/A also forbids mapping a glyph to U+FEFF.
const DROPPED = /[\uFEFF\u200B\u2060]/g;

/**
 * The text as the fonts can print it: composed (NFC, so "Nguyễn" typed with combining marks uses
 * the font's precomposed letters), line breaks kept, tabs as spaces, and every other character the
 * family lacks (another script, an emoji, a control character) as U+FFFD, never a wrong glyph.
 */
export function printable(text: string) {
  const { covered } = fonts();
  let out = "";
  for (const ch of text.normalize("NFC").replace(/\r\n?/g, "\n").replace(DROPPED, "")) {
    const code = ch.codePointAt(0)!;
    if (code === 0x0a) out += "\n";
    else if (code === 0x09) out += " ";
    else out += code >= 0x20 && !(code >= 0x7f && code < 0xa0) && covered.has(code) ? ch : REPLACEMENT;
  }
  return out;
}

/** Every text of the document as the fonts print it (`printable`); pictures, dates and numbers as they are. */
export function printableDocument<T>(value: T): T {
  if (typeof value === "string") return printable(value) as T;
  if (Array.isArray(value)) return value.map(printableDocument) as T;
  if (value && typeof value === "object" && !(value instanceof Date) && !Buffer.isBuffer(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, printableDocument(v)])) as T;
  }
  return value;
}
