import { beforeAll, describe, expect, it } from "vitest";
import { copies, distinctPictures, vehiclePhoto, type VehiclePicture } from "../../tests/vehicle-pictures";
import { photoPrint, printBands, printDistance, SAME_PICTURE, type PhotoPrint } from "./photo-prints.server";

/**
 * The reused-photo matcher on the labelled set (docs/decisions/0030): 120 distinct generated vehicle
 * pictures (24 models and angles, each in five colours on the same background) and six copies of
 * each (resized, JPEG quality 40, WebP, cropped by up to 10 %, by up to 15 % and resized, by up to
 * 12 % brighter in WebP). A match is what the check does: the two share an index key, then lie
 * within SAME_PICTURE.
 */

interface Entry {
  picture: VehiclePicture;
  print: PhotoPrint;
  keys: Set<string>;
  copies: { kind: string; print: PhotoPrint; keys: Set<string> }[];
}
let set: Entry[] = [];

const entryOf = (print: PhotoPrint) => ({ print, keys: new Set(printBands([print])) });
const score = (a: PhotoPrint, b: PhotoPrint) => {
  const d = printDistance(a, b);
  return d.structure + d.colour;
};
/** null when the two share no index key (the check never compares them). */
const matchScore = (a: { print: PhotoPrint; keys: Set<string> }, b: { print: PhotoPrint; keys: Set<string> }) =>
  [...a.keys].some((k) => b.keys.has(k)) ? score(a.print, b.print) : null;

beforeAll(async () => {
  set = [];
  for (const [i, picture] of distinctPictures().entries()) {
    const bytes = await vehiclePhoto(picture);
    const made = await copies(bytes, i + 1);
    const copyPrints = [];
    for (const [kind, copy] of Object.entries(made)) copyPrints.push({ kind, ...entryOf(await photoPrint(copy)) });
    set.push({ picture, ...entryOf(await photoPrint(bytes)), copies: copyPrints });
  }
}, 600_000);

describe("the reused-photo matcher on the labelled set of vehicle pictures", () => {
  it("finds the same picture resized, re-encoded or cropped (misses ≤ 5 %) and never another picture (false matches 0)", () => {
    expect(new Set(set.map((e) => JSON.stringify(e.picture))).size).toBeGreaterThanOrEqual(100);

    const misses: Record<string, number> = {};
    const copiesOfKind: Record<string, number> = {};
    let worstSame = 0;
    for (const entry of set) {
      for (const copy of entry.copies) {
        copiesOfKind[copy.kind] = (copiesOfKind[copy.kind] ?? 0) + 1;
        const s = matchScore(entry, copy);
        if (s !== null) worstSame = Math.max(worstSame, s);
        if (s === null || s > SAME_PICTURE) misses[copy.kind] = (misses[copy.kind] ?? 0) + 1;
      }
    }

    // Different pictures: every pair of originals, and every copy against the other colours of its model and angle (the hard case).
    let pairs = 0;
    let compared = 0;
    let falseMatches = 0;
    let closestOther = Number.POSITIVE_INFINITY;
    const judge = (a: { print: PhotoPrint; keys: Set<string> }, b: { print: PhotoPrint; keys: Set<string> }) => {
      pairs += 1;
      const s = matchScore(a, b);
      if (s === null) return;
      compared += 1;
      closestOther = Math.min(closestOther, s);
      if (s <= SAME_PICTURE) falseMatches += 1;
    };
    for (const [i, a] of set.entries()) {
      for (const [j, b] of set.entries()) {
        if (j > i) judge(a, b);
        const sameModel = j !== i && a.picture.shape === b.picture.shape && a.picture.angle === b.picture.angle;
        if (sameModel) for (const copy of b.copies) judge(a, copy);
      }
    }

    const copiesTotal = Object.values(copiesOfKind).reduce((s, n) => s + n, 0);
    const missed = Object.values(misses).reduce((s, n) => s + n, 0);
    console.info(
      [
        `reused-photo matcher, labelled set: ${set.length} distinct pictures, ${copiesTotal} copies`,
        ...Object.entries(copiesOfKind).map(([kind, n]) => `  ${kind}: ${n - (misses[kind] ?? 0)}/${n} found`),
        `  misses: ${missed}/${copiesTotal} (${((100 * missed) / copiesTotal).toFixed(1)} %); worst score of a copy found ${worstSame.toFixed(3)}`,
        `  different pictures: ${pairs} pairs, ${compared} sharing an index key compared, false matches ${falseMatches}; closest ${closestOther.toFixed(3)} (threshold ${SAME_PICTURE})`,
      ].join("\n"),
    );
    expect(falseMatches).toBe(0);
    expect(missed / copiesTotal).toBeLessThanOrEqual(0.05);
  }, 600_000);
});
