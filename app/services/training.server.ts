import {
  countTrainingItems,
  imageInUse,
  findTrainingItem,
  findTrainingItems,
  insertTrainingItem,
  markTrainingItemVerified,
  removeTrainingItem,
  replaceTrainingItem,
  trainingStats,
  type TrainingItemRecord,
} from "~/models/training-item.server";
import { lastPageAtMost, listTotal, pageAndNext, screenCursorsOf, type ListCursor } from "~/schemas/list-cursor";
import type { TrainingFilter, TrainingItemInput } from "~/schemas/training";
import { isAdmin, type Actor } from "./actor";
import { timestamps } from "./owned-json.server";
import { computeImageFeatures } from "./image-features.server";
import { discardMediaUrl } from "./storage/draft.server";
import { readMediaBytes, resolveImageUrl } from "./storage/uploads.server";
import { Forbidden, Invalid, NotFound } from "~/utils/domain-errors";

/** A training item as the API answers it and the screen renders it. */
export type TrainingItemJson = ReturnType<typeof toJson>;

function toJson(r: TrainingItemRecord) {
  return {
    id: String(r._id),
    imageUrl: r.imageUrl,
    damageType: r.damageType,
    severity: r.severity,
    description: r.description,
    estimatedCost: r.estimatedCost,
    laborHours: r.laborHours ?? null,
    partsCost: r.partsCost ?? null,
    paintWork: r.paintWork === true,
    vehicleMake: r.vehicleMake ?? null,
    vehicleModel: r.vehicleModel ?? null,
    vehicleYear: r.vehicleYear ?? null,
    location: r.location ?? null,
    tags: r.tags ?? [],
    notes: r.notes ?? null,
    isVerified: r.isVerified === true,
    verifiedAt: r.verifiedAt ? new Date(r.verifiedAt).toISOString() : null,
    ...timestamps(r),
  };
}

const notFound = () => new NotFound("Training data not found");

/**
 * Whose uploads a training item's image may be: the platform's documents are written by admins only,
 * each image checked to be the writing admin's upload (checkedImage), and no import carries them.
 */
const PLATFORM = { allOwners: true } as const;

/** Training data is the platform's, curated by admins: everyone else is refused (403). */
function assertAdmin(actor: Actor) {
  if (!isAdmin(actor)) throw new Forbidden("Forbidden");
}

/** The item's image must be an image the caller uploaded to this app (never an outside URL). */
async function checkedImage(actor: Actor, url: string) {
  const media = await resolveImageUrl(actor, url);
  if (!media) {
    const message = "Image must be an image you uploaded";
    throw new Invalid(message, { fields: { imageUrl: message } });
  }
  return media;
}

/** `GET /api/admin/ai-training-data`: the items the filter matches, newest first (all of them without a `limit`): a page, and the next one's cursor when there is more. */
export async function listTrainingItemsPage(
  actor: Actor,
  { filter, limit, offset = 0, cursor, since }: { filter: TrainingFilter; limit?: number; offset?: number; cursor?: ListCursor; since?: Date },
  { total = false } = {},
) {
  assertAdmin(actor);
  const read = await findTrainingItems({ filter, skip: offset, limit: limit && limit + 1, cursor, since });
  const { page, next } = pageAndNext(read, limit, cursor, since);
  const count = total ? await listTotal({ limit, offset, cursor }, read, () => countTrainingItems({ filter, since })) : undefined;
  return { items: page.map(toJson), next, records: page, total: count };
}

/**
 * The AI Training Center: the cards over every item, how many the filters match, and one page by
 * cursor (the API list's own read) with its Older and Newer cursors; `offset` is an old bookmark's `?page=`.
 */
export async function trainingPage(actor: Actor, { filter, cursor, offset = 0, pageSize }: { filter: TrainingFilter; cursor?: ListCursor; offset?: number; pageSize: number }) {
  assertAdmin(actor);
  const [stats, matched] = await Promise.all([trainingStats(), countTrainingItems({ filter })]);
  const from = lastPageAtMost(offset, matched, pageSize);
  const list = await listTrainingItemsPage(actor, { filter, limit: pageSize, offset: from, cursor });
  const cursors = await screenCursorsOf(list, cursor, from, (back) => findTrainingItems({ filter, limit: 1, cursor: back }));
  return { items: list.items, matched, ...cursors, stats };
}

export async function getTrainingItem(actor: Actor, id: string) {
  assertAdmin(actor);
  const record = await findTrainingItem({ id });
  if (!record) throw notFound();
  return toJson(record);
}

export async function createTrainingItem(actor: Actor, input: TrainingItemInput) {
  assertAdmin(actor);
  const imageUrl = await checkedImage(actor, input.imageUrl);
  const record = await insertTrainingItem({ createdBy: actor.id, input: { ...input, imageUrl } });
  return input.isVerified ? verifyTrainingItem(actor, String(record._id)) : toJson(record);
}

/** Replaces the fields; `isVerified: true` verifies too, `false` never un-verifies. */
export async function updateTrainingItem(actor: Actor, id: string, input: TrainingItemInput) {
  assertAdmin(actor);
  const current = await findTrainingItem({ id });
  if (!current) throw notFound();
  // An unchanged image need not be the caller's: another admin may have uploaded it.
  const imageUrl = input.imageUrl === current.imageUrl ? current.imageUrl : await checkedImage(actor, input.imageUrl);
  const record = await replaceTrainingItem({ id, input: { ...input, imageUrl } });
  if (!record) throw notFound();
  const imageChanged = imageUrl !== current.imageUrl;
  return input.isVerified || (record.isVerified && imageChanged) ? verifyTrainingItem(actor, id) : toJson(record);
}

/**
 * Verify: the item starts feeding the matcher and the pricing engine, with its image's features
 * computed now. An image that cannot be read is refused (422) and the item stays pending.
 */
export async function verifyTrainingItem(actor: Actor, id: string) {
  assertAdmin(actor);
  const current = await findTrainingItem({ id });
  if (!current) throw notFound();
  const bytes = await readMediaBytes(current.imageUrl, PLATFORM);
  const features = bytes ? await computeImageFeatures(bytes).catch(() => null) : null;
  if (!features) throw new Invalid("The training image could not be read", { kind: "unprocessable" });
  const record = await markTrainingItemVerified({ id, features });
  if (!record) throw notFound();
  return toJson(record);
}

/** Deletes an item, and its image with it unless another item shows the same one. */
export async function deleteTrainingItem(actor: Actor, id: string) {
  assertAdmin(actor);
  const record = await removeTrainingItem({ id });
  if (!record) throw notFound();
  if (!(await imageInUse({ imageUrl: record.imageUrl }))) await discardMediaUrl(record.imageUrl, PLATFORM);
  return toJson(record);
}
