import sharp, { type Sharp } from "sharp";
import { describe, expect, it } from "vitest";
import { ANGLES, COLOURS, SHAPES, vehicleSvg, type Colour } from "../../tests/vehicle-pictures";
import type { PhotoIssue } from "~/schemas/uploads";
import { checkPhotoQuality, measurePhoto } from "./photo-quality.server";

// The calibration set (docs/decisions/0040): every body shape from every angle (24 models and angles),
// each in a colour of its own, drawn at 1280 × 960 as a phone would send it, and the copies a customer
// should be asked to retake. False rejects: a good photo warned; false accepts: a bad one not warned.
const KINDS = {
  good: { expect: [] as PhotoIssue[], make: (s: Sharp) => s },
  "slightly blurred (σ 2)": { expect: ["blurred"] as PhotoIssue[], make: (s: Sharp) => s.blur(2) },
  "blurred (σ 4)": { expect: ["blurred"] as PhotoIssue[], make: (s: Sharp) => s.blur(4) },
  "too dark": { expect: ["dark"] as PhotoIssue[], make: (s: Sharp) => s.linear(0.22, 0) },
  "blown out": { expect: ["overexposed"] as PhotoIssue[], make: (s: Sharp) => s.linear(2.4, 40) },
  "too small (320 px)": { expect: ["small"] as PhotoIssue[], make: (s: Sharp) => s.resize(320) },
};

async function calibrationSet() {
  const colours = Object.keys(COLOURS) as Colour[];
  const set: { kind: keyof typeof KINDS; photo: Buffer }[] = [];
  for (const [s, shape] of SHAPES.entries()) {
    for (const [a, angle] of ANGLES.entries()) {
      const original = await sharp(Buffer.from(vehicleSvg({ shape, angle, colour: colours[(s + a) % colours.length] })), { density: 288 }).png().toBuffer();
      for (const [kind, { make }] of Object.entries(KINDS)) {
        set.push({ kind: kind as keyof typeof KINDS, photo: await make(sharp(original)).jpeg({ quality: 85 }).toBuffer() });
      }
    }
  }
  return set;
}

describe("a photo's quality", () => {
  it("tells each kind of bad photo from a good one on the calibration set, with 0 false accepts and 0 false rejects", { timeout: 120_000 }, async () => {
    const results: Record<string, { wrong: number; of: number }> = {};
    for (const { kind, photo } of await calibrationSet()) {
      const issues = await checkPhotoQuality(photo);
      results[kind] ??= { wrong: 0, of: 0 };
      results[kind].of++;
      if (JSON.stringify(issues) !== JSON.stringify(KINDS[kind].expect)) results[kind].wrong++;
    }
    console.log("photo quality, misjudged per kind:", JSON.stringify(results));
    for (const kind of Object.keys(KINDS)) expect(results[kind], kind).toEqual({ wrong: 0, of: 24 });
  });

  it("reads the size the photo is shown at (EXIF orientation), and does not judge what it cannot decode", async () => {
    const portrait = await sharp({ create: { width: 1200, height: 400, channels: 3, background: "#777" } }).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    expect(await measurePhoto(portrait)).toMatchObject({ width: 400, height: 1200 });
    expect(await checkPhotoQuality(Buffer.from("not a picture"))).toBeNull();
  });
});
