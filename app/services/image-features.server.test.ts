import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { computeImageFeatures, featureDistance, hashDistance } from "./image-features.server";

/** A generated "photo": a background with a few shapes, as a JPEG of the given width. */
async function picture(kind: "car" | "other", width: number) {
  const svg =
    kind === "car"
      ? `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600"><rect width="800" height="600" fill="#4a6fa5"/><rect x="120" y="260" width="560" height="180" rx="40" fill="#c0392b"/><circle cx="250" cy="450" r="60" fill="#222"/><circle cx="560" cy="450" r="60" fill="#222"/><path d="M330 300 l60 40 l-30 50" stroke="#eee" stroke-width="12" fill="none"/></svg>`
      : `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600"><rect width="800" height="600" fill="#f1c40f"/><g fill="#27ae60">${Array.from({ length: 12 }, (_, i) => `<rect x="${i * 66}" y="${(i % 3) * 180}" width="40" height="160"/>`).join("")}</g></svg>`;
  return sharp(Buffer.from(svg)).resize(width).jpeg({ quality: 80 }).toBuffer();
}

describe("image features", () => {
  it("finds the same picture at another size near, and a different picture far", async () => {
    const original = await computeImageFeatures(await picture("car", 800));
    const resized = await computeImageFeatures(await picture("car", 320));
    const other = await computeImageFeatures(await picture("other", 800));

    expect(original.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(original.colour).toHaveLength(64);
    expect(original.edges).toHaveLength(8);
    expect(original.colour.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 6);

    expect(hashDistance(original.hash, resized.hash)).toBeLessThanOrEqual(4);
    expect(featureDistance(original, resized)).toBeLessThan(0.1);
    expect(featureDistance(original, other)).toBeGreaterThan(0.4);
    expect(featureDistance(original, original)).toBe(0);
  });

  it("refuses what is not an image", async () => {
    await expect(computeImageFeatures(Buffer.from("<html>not a photo</html>"))).rejects.toThrow();
  });
});

describe("hashDistance", () => {
  it("counts differing bits", () => {
    expect(hashDistance("0000000000000000", "0000000000000000")).toBe(0);
    expect(hashDistance("0000000000000000", "ffffffffffffffff")).toBe(64);
    expect(hashDistance("00000000000000f0", "0000000000000010")).toBe(3);
  });
});
