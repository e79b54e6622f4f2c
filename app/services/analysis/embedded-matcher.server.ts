import { verifiedExamples, verifiedExamplesVersion, type VerifiedExample } from "~/models/training-item.server";
import { DAMAGE_LOCATIONS, DAMAGE_TYPES, SEVERITIES, type DamageLocation, type DamageType, type Severity } from "~/schemas/damage";
import { computeImageFeatures, featureDistance, type ImageFeatures } from "../image-features.server";
import { describePictures, pictureUrl, type AnalysisPhoto, type AnalysisProvider, type AnalysisResult, type FoundDamage } from "./types";
import { errorMessage } from "~/utils/unknown-values";

/**
 * The default provider (no OpenAI key): each photo is compared with the **verified** AI-training
 * images, and its k nearest vote for damage type, severity and location.
 *
 * Confidence, from the distances (featureDistance: 0 same picture, about 0.4–0.6 unrelated ones):
 * - a neighbour's similarity is `max(0, 1 − d / FAR)`: 1 for the same picture, 0 at FAR and beyond,
 *   so an example that is not alike says nothing (it neither votes nor lends confidence);
 * - a damage's confidence is the nearest neighbour's similarity × the share of the neighbours'
 *   similarity that voted for its damage type: a close and unanimous match is near 1, a distant or
 *   split one low;
 * - a photo whose nearest example is at FAR or beyond gets no damage (nothing resembles it);
 * - the result's confidence is the mean of its damages' confidences, 0 when none was found.
 * The same damage type at the same location found on several photos (a video's frames, two angles)
 * is one damage, kept with its most confident photo, so it is priced once.
 * Deterministic: ties between distances go to the older item id, ties between votes to the enum's order.
 */

export const K = 5;
export const FAR = 0.35;
/** Bounds the examples held in memory (each about 1 KB). */
const MAX_EXAMPLES = 10_000;
export const NO_TRAINING_SUMMARY =
  "Not analysed: no AI provider is set up and there are no verified training images, so nothing looked at these photos — needs manual review.";
const NO_MATCH_SUMMARY = "No verified training example resembles these photos closely enough — needs manual review.";

interface Example {
  id: string;
  damageType: DamageType;
  severity: Severity;
  location?: DamageLocation;
  features: ImageFeatures;
}

const isOneOf = <T extends string>(values: readonly T[], value: unknown): value is T => values.includes(value as T);

function toExample(item: VerifiedExample): Example | null {
  if (!isOneOf(DAMAGE_TYPES, item.damageType) || !isOneOf(SEVERITIES, item.severity)) return null;
  return {
    id: item._id.toHexString(),
    damageType: item.damageType,
    severity: item.severity,
    location: isOneOf(DAMAGE_LOCATIONS, item.location) ? item.location : undefined,
    features: item.features,
  };
}

// The verified examples stay in memory between analyses; two cheap queries (a count and the newest
// change) tell whether they are still current, so an analysis does not re-read them all.
declare global {
  var __matcherCache: { version: string; examples: Example[] } | undefined;
}
const globalForMatcher = globalThis;

export async function currentExamples() {
  const version = await verifiedExamplesVersion();
  const cached = globalForMatcher.__matcherCache;
  if (cached?.version === version) return cached.examples;
  const examples = (await verifiedExamples({ limit: MAX_EXAMPLES })).flatMap((item) => toExample(item) ?? []);
  globalForMatcher.__matcherCache = { version, examples };
  return examples;
}

interface Neighbour {
  example: Example;
  similarity: number;
}

function nearest(features: ImageFeatures, examples: Example[]) {
  return examples
    .map((example) => ({ example, distance: featureDistance(features, example.features) }))
    .sort((a, b) => a.distance - b.distance || (a.example.id < b.example.id ? -1 : 1))
    .slice(0, K)
    .map(({ example, distance }): Neighbour => ({ example, similarity: Math.max(0, 1 - distance / FAR) }))
    .filter((n) => n.similarity > 0);
}

/** The label with the most similarity behind it among `values`' order; with its share of the total. */
function vote<T extends string>(values: readonly T[], neighbours: Neighbour[], label: (e: Example) => T | undefined) {
  const weights = new Map<T, number>();
  let total = 0;
  for (const n of neighbours) {
    const value = label(n.example);
    if (value === undefined) continue;
    weights.set(value, (weights.get(value) ?? 0) + n.similarity);
    total += n.similarity;
  }
  let best: T | undefined;
  for (const value of values) if ((weights.get(value) ?? 0) > (best === undefined ? 0 : weights.get(best)!)) best = value;
  return best === undefined ? null : { value: best, share: weights.get(best)! / total };
}

const round2 = (v: number) => Math.round(v * 100) / 100;

function damageOn(photo: AnalysisPhoto, neighbours: Neighbour[]): FoundDamage | null {
  if (neighbours.length === 0) return null;
  const type = vote(DAMAGE_TYPES, neighbours, (e) => e.damageType)!;
  // Severity and location are voted among the neighbours of the winning type only.
  const alike = neighbours.filter((n) => n.example.damageType === type.value);
  const severity = vote(SEVERITIES, alike, (e) => e.severity)!;
  const location = vote(DAMAGE_LOCATIONS, alike, (e) => e.location);
  const best = neighbours[0].similarity;
  const confidence = round2(best * type.share);
  const where = location ? location.value : "center";
  return {
    damageType: type.value,
    severity: severity.value,
    location: where,
    description:
      `Resembles ${alike.length} verified example${alike.length === 1 ? "" : "s"} of ${type.value.replace(/_/g, " ")} (${severity.value})` +
      `, the nearest ${Math.round(best * 100)}% alike` +
      (location ? "." : "; the examples record no location."),
    confidence,
    mediaUrl: pictureUrl(photo),
  };
}

export async function matchPhotos(photos: AnalysisPhoto[], { signal }: { signal?: AbortSignal } = {}): Promise<AnalysisResult> {
  const examples = await currentExamples();
  const base = { provider: "embedded" as const, model: `nearest-${K}` };
  // Nothing to compare with: no analysis took place, and the result says so (provider "none").
  if (examples.length === 0) return { provider: "none", damages: [], summary: NO_TRAINING_SUMMARY, confidence: 0 };

  const byKey = new Map<string, FoundDamage>();
  for (const photo of photos) {
    signal?.throwIfAborted();
    let features: ImageFeatures;
    try {
      features = await computeImageFeatures(photo.bytes);
    } catch (error) {
      throw new Error(`Analysis failed: could not read the photo ${photo.mediaUrl} (${errorMessage(error)})`);
    }
    const damage = damageOn(photo, nearest(features, examples));
    if (!damage) continue;
    const key = `${damage.damageType}/${damage.location}`;
    const known = byKey.get(key);
    if (!known || damage.confidence > known.confidence) byKey.set(key, damage);
  }

  const damages = [...byKey.values()];
  if (damages.length === 0) return { ...base, damages, summary: NO_MATCH_SUMMARY, confidence: 0 };
  const confidence = round2(damages.reduce((sum, d) => sum + d.confidence, 0) / damages.length);
  const list = damages.map((d) => `${d.severity} ${d.damageType.replace(/_/g, " ")} (${d.location})`).join(", ");
  const summary =
    `Compared ${describePictures(photos)} with ${examples.length} verified training example${examples.length === 1 ? "" : "s"}: ` +
    `${list}.${confidence < 0.5 ? " The matches are distant — have a person review them." : ""}`;
  return { ...base, damages, summary, confidence };
}

export const embeddedMatcher: AnalysisProvider = {
  name: "embedded",
  analyze: (photos, options) => matchPhotos(photos, options),
};
