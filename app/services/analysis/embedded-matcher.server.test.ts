import { Types } from "mongoose";
import sharp from "sharp";
import { beforeEach, describe, expect, it } from "vitest";
import { useTestDb } from "../../../tests/test-db";
import { TrainingItem, insertTrainingItem, markTrainingItemVerified, removeTrainingItem } from "../../models/training-item.server";
import type { DamageLocation, DamageType, Severity } from "../../schemas/damage";
import { computeImageFeatures } from "../image-features.server";
import { FAR, NO_TRAINING_SUMMARY, currentExamples, embeddedMatcher } from "./embedded-matcher.server";
import type { AnalysisPhoto } from "./types";

const SIDE = 256;
type Pattern = (x: number, y: number) => [number, number, number];

/** Deterministic test pictures that differ in structure and colour. */
const PATTERNS: Record<string, Pattern> = {
  hstripes: (_x, y) => (Math.floor(y / 16) % 2 ? [220, 30, 30] : [250, 250, 250]),
  vstripes: (x) => (Math.floor(x / 16) % 2 ? [30, 30, 220] : [240, 220, 40]),
  checks: (x, y) => ((Math.floor(x / 32) + Math.floor(y / 32)) % 2 ? [20, 160, 40] : [10, 10, 10]),
  gradient: (x, y) => [Math.floor((x / SIDE) * 255), Math.floor((y / SIDE) * 255), 128],
};

/** A JPEG of the pattern; `shift` moves it a little (another shot of the same thing). */
async function picture(name: string, { shift = 0, size = SIDE } = {}) {
  const data = Buffer.alloc(SIDE * SIDE * 3);
  for (let y = 0; y < SIDE; y++) for (let x = 0; x < SIDE; x++) data.set(PATTERNS[name](x + shift, y + shift), (y * SIDE + x) * 3);
  return sharp(data, { raw: { width: SIDE, height: SIDE, channels: 3 } }).resize(size, size).jpeg({ quality: 85 }).toBuffer();
}

const photo = async (name: string, options?: { shift?: number; size?: number }): Promise<AnalysisPhoto> => ({
  mediaUrl: `/media/${name}`,
  contentType: "image/jpeg",
  bytes: await picture(name, options),
});

async function trainingItem(pattern: string, label: { damageType: DamageType; severity: Severity; location?: DamageLocation }, verified = true) {
  const item = await insertTrainingItem({
    createdBy: new Types.ObjectId().toHexString(),
    input: { imageUrl: `/media/train-${pattern}`, description: "example", estimatedCost: 100, paintWork: false, tags: [], isVerified: false, ...label },
  });
  if (verified) await markTrainingItemVerified({ id: item._id.toHexString(), features: await computeImageFeatures(await picture(pattern)) });
  return item;
}

const analyze = (photos: AnalysisPhoto[]) => embeddedMatcher.analyze(photos, {});

describe("embedded matcher", () => {
  beforeEach(async () => {
    await useTestDb();
  });

  it("without verified training data finds nothing, with confidence 0, and says so", async () => {
    await trainingItem("hstripes", { damageType: "dent", severity: "major", location: "front" }, false);
    expect(await analyze([await photo("hstripes")])).toEqual({
      damages: [],
      summary: NO_TRAINING_SUMMARY,
      confidence: 0,
      provider: "none",
    });
  });

  it("labels a photo like its nearest verified examples, with high confidence for a close match", async () => {
    await trainingItem("hstripes", { damageType: "dent", severity: "major", location: "front" });
    await trainingItem("vstripes", { damageType: "scratch", severity: "minor", location: "left" });
    await trainingItem("checks", { damageType: "rust", severity: "severe", location: "bottom" }, false);
    const result = await analyze([await photo("hstripes", { shift: 3, size: 300 })]);
    expect(result.damages).toHaveLength(1);
    expect(result.damages[0]).toMatchObject({ damageType: "dent", severity: "major", location: "front", mediaUrl: "/media/hstripes" });
    // Another shot of the same picture: featureDistance about 0.08, similarity about 1 − 0.08 / FAR.
    expect(result.damages[0].confidence).toBeGreaterThan(0.7);
    expect(result.confidence).toBe(result.damages[0].confidence);
    expect(result.summary).toMatch(/^Compared 1 photo with 2 verified training examples: major dent \(front\)\.$/);

    const other = await analyze([await photo("vstripes", { shift: 5 })]);
    expect(other.damages[0]).toMatchObject({ damageType: "scratch", severity: "minor", location: "left" });
  });

  it("says what it compared: photos and video frames, counted apart", async () => {
    await trainingItem("hstripes", { damageType: "dent", severity: "major", location: "front" });
    const still = await photo("hstripes", { shift: 3 });
    const frame = { ...(await photo("vstripes")), mediaUrl: "/media/clip", videoFrame: true as const };
    const result = await analyze([still, { ...still, mediaUrl: "/media/second" }, ...Array.from({ length: 6 }, () => frame)]);
    expect(result.summary).toMatch(/^Compared 2 photos and 6 video frames with 1 verified training example: /);
  });

  it("places a damage seen on a video frame on that frame (its own media URL)", async () => {
    await trainingItem("hstripes", { damageType: "dent", severity: "major", location: "front" });
    const frame = { ...(await photo("hstripes", { shift: 3 })), mediaUrl: "/media/clip", videoFrame: true as const, at: 0.5, frameUrl: "/media/clip-frame-1" };
    const result = await analyze([frame]);
    expect(result.damages.map((d) => d.mediaUrl)).toEqual(["/media/clip-frame-1"]);
  });

  it("never uses unverified items, and a photo like nothing verified gets no damage (confidence 0)", async () => {
    await trainingItem("hstripes", { damageType: "dent", severity: "major", location: "front" });
    await trainingItem("checks", { damageType: "rust", severity: "severe", location: "bottom" }, false);
    const result = await analyze([await photo("checks")]);
    expect(result.damages).toEqual([]);
    expect(result.confidence).toBe(0);
    expect(result.summary).toMatch(/needs manual review/);
  });

  it("lets the nearest neighbours vote, weighted by similarity, and lowers confidence when they disagree", async () => {
    // Three shots of one picture labelled dent, two of them scratch: the dents are more alike in sum.
    await trainingItem("gradient", { damageType: "dent", severity: "moderate", location: "rear" });
    for (const shift of [2, 4]) {
      const item = await trainingItem("gradient", { damageType: "dent", severity: "minor", location: "rear" });
      await TrainingItem.updateOne({ _id: item._id }, { $set: { "features.hash": (await computeImageFeatures(await picture("gradient", { shift }))).hash } });
    }
    await trainingItem("gradient", { damageType: "scratch", severity: "minor", location: "right" });
    const result = await analyze([await photo("gradient")]);
    expect(result.damages).toHaveLength(1);
    const [damage] = result.damages;
    expect(damage).toMatchObject({ damageType: "dent", location: "rear" });
    // 3 of 4 similar neighbours agree: the confidence is the best similarity × about 3/4.
    expect(damage.confidence).toBeLessThan(0.8);
    expect(damage.confidence).toBeGreaterThan(0.5);
    // Deterministic: the same photos give the same answer.
    expect(await analyze([await photo("gradient")])).toEqual(result);
  });

  it("gives a lower confidence the farther the nearest example is, and no damage beyond FAR", async () => {
    await trainingItem("gradient", { damageType: "dent", severity: "major", location: "front" });
    const near = await analyze([await photo("gradient", { shift: 2 })]);
    const distant = await analyze([await photo("gradient", { shift: 60 })]);
    expect(near.damages[0].confidence).toBeGreaterThan(0.6);
    expect(distant.damages[0].confidence).toBeLessThan(0.45);
    expect(distant.summary).toMatch(/The matches are distant — have a person review them\.$/);
    // featureDistance(gradient, stripes) is about 0.4, beyond FAR.
    expect(FAR).toBeLessThan(0.4);
    expect(await analyze([await photo("hstripes")])).toMatchObject({ damages: [], confidence: 0 });
  });

  it("reports one damage for the same type and place seen on several photos, on its best photo", async () => {
    await trainingItem("hstripes", { damageType: "dent", severity: "major", location: "front" });
    await trainingItem("vstripes", { damageType: "scratch", severity: "minor", location: "left" });
    const result = await analyze([
      { ...(await photo("hstripes", { shift: 4 })), mediaUrl: "/media/video" },
      { ...(await photo("hstripes")), mediaUrl: "/media/video-2" },
      await photo("vstripes"),
    ]);
    expect(result.damages.map((d) => [d.damageType, d.mediaUrl])).toEqual([
      ["dent", "/media/video-2"],
      ["scratch", "/media/vstripes"],
    ]);
  });

  it("keeps the verified examples in memory until the verified set changes", async () => {
    const first = await trainingItem("hstripes", { damageType: "dent", severity: "major", location: "front" });
    const cached = await currentExamples();
    expect(await currentExamples()).toBe(cached);

    await trainingItem("vstripes", { damageType: "scratch", severity: "minor", location: "left" });
    const afterVerify = await currentExamples();
    expect(afterVerify).toHaveLength(2);

    await TrainingItem.updateOne({ _id: first._id }, { $set: { severity: "minor" } });
    const afterEdit = await currentExamples();
    expect(afterEdit).not.toBe(afterVerify);
    expect(afterEdit.find((e) => e.id === first._id.toHexString())?.severity).toBe("minor");

    await removeTrainingItem({ id: first._id.toHexString() });
    expect(await currentExamples()).toHaveLength(1);
  });
});
