import { Schema, trusted, type Types } from "mongoose";
import { dbNow } from "~/utils/db-clock.server";
import { defineModel, type EmbeddedRecordOf, type RecordOf } from "./define-model.server";
import { isObjectIdHex } from "./owner-scope.server";
import { recordDeletion } from "./deletion.server";
import { changedSince, keysetSort } from "./keyset.server";
import { errorCode } from "~/utils/db-errors.server";
import { deleteInBatches } from "./batch-delete.server";
import { fieldOf, numberField } from "~/utils/unknown-values";

/**
 * Webhooks (docs/decisions/0022): an account's endpoints, the events that happened in it, and one
 * delivery per (event, subscribed endpoint) — the queue a worker on any instance claims with a
 * lease on the database's clock. Everything here is always filtered by its owner.
 */

const endpointSchema = new Schema(
  {
    ownerId: { type: Schema.Types.ObjectId, required: true, immutable: true },
    url: { type: String, required: true },
    description: { type: String, allowNull: false },
    events: { type: [String], required: true },
    enabled: { type: Boolean, required: true, default: true },
    /** The signing secret (whsec_…), sealed at rest (secret-box): it must be read to sign. */
    secretSealed: { type: String, required: true },
    /** After a rotation the old secret signs too, until this time, so receivers can switch over. */
    previousSecretSealed: { type: String, allowNull: false },
    previousSecretUntil: { type: Date, allowNull: false },
    /** Why it was turned off by the app (persistent failure); cleared when the account turns it on. */
    disabledReason: { type: String, allowNull: false },
    disabledAt: { type: Date, allowNull: false },
    lastSuccessAt: { type: Date, allowNull: false },
  },
  { timestamps: true },
);
endpointSchema.index({ ownerId: 1, createdAt: -1 });
// emitEvent's fan-out: the account's enabled endpoints for a type.
endpointSchema.index({ ownerId: 1, enabled: 1, events: 1 });
export const WebhookEndpoint = defineModel("WebhookEndpoint", endpointSchema);

export type WebhookEndpointRecord = RecordOf<typeof endpointSchema>;

const eventSchema = new Schema(
  {
    ownerId: { type: Schema.Types.ObjectId, required: true, immutable: true },
    type: { type: String, required: true },
    /** The emitter's name for this occurrence: emitting it again (a retried operation) adds nothing. */
    key: { type: String, required: true },
    data: { type: Schema.Types.Mixed, required: true },
    /** Deliveries with the same key go to an endpoint in the order their events happened (an estimate's id). */
    orderKey: { type: String, allowNull: false },
    /** When it happened, on the database's clock (the payload's timestamp and the delivery order). */
    at: { type: Date, required: true },
    /** Its deliveries exist: a fan-out cut short (the process died) is finished by the worker. */
    fannedOut: { type: Boolean, required: true, default: false },
  },
  { timestamps: true, minimize: false },
);
eventSchema.index({ ownerId: 1, key: 1 }, { unique: true });
eventSchema.index({ fannedOut: 1, at: 1 });
export const WebhookEvent = defineModel("WebhookEvent", eventSchema);

// `data` is Mixed in the schema: an event's payload, always an object.
export type WebhookEventRecord = Omit<RecordOf<typeof eventSchema>, "data"> & { data: Record<string, unknown> };

export const DELIVERY_STATUSES = ["pending", "delivered", "failed", "cancelled"] as const;

const attemptSchema = new Schema(
  {
    at: { type: Date, required: true },
    durationMs: { type: Number, required: true },
    /** The receiver's HTTP status; absent when there was no answer (refused, timed out). */
    statusCode: { type: Number, allowNull: false },
    error: { type: String, allowNull: false },
    /** Asked for by the account (Redeliver), not scheduled. */
    manual: { type: Boolean, allowNull: false },
  },
  { _id: false },
);

const deliverySchema = new Schema(
  {
    ownerId: { type: Schema.Types.ObjectId, required: true, immutable: true },
    endpointId: { type: Schema.Types.ObjectId, required: true, immutable: true },
    eventId: { type: Schema.Types.ObjectId, required: true, immutable: true },
    type: { type: String, required: true },
    orderKey: { type: String, allowNull: false },
    /** The event's time: the order within an orderKey. */
    eventAt: { type: Date, required: true },
    status: { type: String, enum: DELIVERY_STATUSES, required: true },
    attempts: { type: [attemptSchema], default: [] },
    nextAttemptAt: { type: Date, allowNull: false },
    inFlight: { type: Boolean, required: true, default: false },
    claimToken: { type: String, allowNull: false },
    leaseUntil: { type: Date, allowNull: false },
    lastStatusCode: { type: Number, allowNull: false },
    lastError: { type: String, allowNull: false },
    deliveredAt: { type: Date, allowNull: false },
    /** The next attempt was asked for by the account (Redeliver): one attempt, no schedule after it. */
    manual: { type: Boolean, allowNull: false },
    /** Deliveries of its line wait behind it: its end releases them (releaseLines). */
    blocking: { type: Boolean, allowNull: false },
  },
  { timestamps: true },
);
deliverySchema.index({ eventId: 1, endpointId: 1 }, { unique: true });
// The worker's claim (due, pending, not held) and, by its prefix, recovery (pending, held past the
// lease). Every index is written on each of a delivery's state changes: there are few.
deliverySchema.index({ status: 1, inFlight: 1, nextAttemptAt: 1 });
// The heads of a claim's estimate lines (pending, then an $or of the lines: one range per line, also
// on the embedded engine, which bounds an index walk by an $or only after an equality prefix), a
// line's release, a disabled endpoint's pending deliveries; an endpoint's log, newest first.
deliverySchema.index({ status: 1, endpointId: 1, orderKey: 1, eventAt: 1 });
deliverySchema.index({ ownerId: 1, endpointId: 1, createdAt: -1 });
export const WebhookDelivery = defineModel("WebhookDelivery", deliverySchema, {
  // The estimate lines' index before the claim read a batch's heads in one query.
  retiredIndexes: ["endpointId_1_orderKey_1_status_1_eventAt_1"],
});

export type DeliveryAttemptRecord = EmbeddedRecordOf<typeof attemptSchema>;

export type WebhookDeliveryRecord = RecordOf<typeof deliverySchema>;

// --- Endpoints (always the owner's own: an admin sees only its own endpoints too)

export async function countEndpoints({ ownerId }: { ownerId: string }) {
  return WebhookEndpoint.countDocuments({ ownerId });
}

/** The owner's endpoints, newest first; changed since `since`, oldest change first (a sync). */
export async function findEndpoints({ ownerId, since }: { ownerId: string; since?: Date }) {
  return WebhookEndpoint.find({ ownerId, ...changedSince(since) }).sort(keysetSort(undefined, since)).lean<WebhookEndpointRecord[]>();
}

export async function findEndpoint({ ownerId, id }: { ownerId: string; id: string }) {
  if (!isObjectIdHex(id)) return null;
  return WebhookEndpoint.findOne({ _id: id, ownerId }).lean<WebhookEndpointRecord>();
}

export async function insertEndpoint(fields: Pick<WebhookEndpointRecord, "url" | "events" | "secretSealed"> & { ownerId: string; description?: string }): Promise<WebhookEndpointRecord> {
  const doc = await WebhookEndpoint.create({ ...fields, enabled: true });
  return doc.toObject();
}

export async function updateEndpoint({ ownerId, id, set, unset = [] }: { ownerId: string; id: string; set: Record<string, unknown>; unset?: string[] }) {
  if (!isObjectIdHex(id)) return null;
  return WebhookEndpoint.findOneAndUpdate(
    { _id: id, ownerId },
    { $set: set, ...(unset.length ? { $unset: Object.fromEntries(unset.map((f) => [f, 1])) } : {}) },
    { returnDocument: "after" },
  ).lean<WebhookEndpointRecord>();
}

/** Removes an endpoint and its log; false when it is not the owner's. */
export async function removeEndpoint({ ownerId, id }: { ownerId: string; id: string }) {
  if (!isObjectIdHex(id)) return false;
  const { deletedCount } = await WebhookEndpoint.deleteOne({ _id: id, ownerId });
  if (deletedCount !== 1) return false;
  await recordDeletion("webhookEndpoint", { _id: id, ownerId });
  await WebhookDelivery.deleteMany({ ownerId, endpointId: id });
  return true;
}

/** The app turns an endpoint off (persistent failure); false when it was off (or gone) already. */
export async function disableEndpoint({ id, reason }: { id: Types.ObjectId; reason: string }) {
  const { modifiedCount } = await WebhookEndpoint.updateOne({ _id: id, enabled: true }, { $set: { enabled: false, disabledReason: reason, disabledAt: dbNow() } });
  return modifiedCount === 1;
}

export async function endpointsByIds(ids: Types.ObjectId[]) {
  return WebhookEndpoint.find({ _id: trusted({ $in: ids }) }).lean<WebhookEndpointRecord[]>();
}

export async function noteEndpointSuccess(id: Types.ObjectId, at: Date) {
  await WebhookEndpoint.updateOne({ _id: id }, { $set: { lastSuccessAt: at } });
}

// --- Events

/**
 * Records an event; a second one with the same (owner, key) is refused by the unique index and
 * answers the first.
 */
export async function insertEvent(fields: Omit<WebhookEventRecord, "_id" | "fannedOut" | "at" | "ownerId" | "createdAt" | "updatedAt"> & { ownerId: string }): Promise<{ event: WebhookEventRecord; created: boolean }> {
  try {
    const doc = await WebhookEvent.create({ ...fields, at: dbNow(), fannedOut: false });
    return { event: doc.toObject(), created: true };
  } catch (error) {
    if (errorCode(error) !== 11000) throw error;
    const first = await WebhookEvent.findOne({ ownerId: fields.ownerId, key: fields.key }).lean<WebhookEventRecord>();
    if (!first) throw error;
    return { event: first, created: false };
  }
}

/** Events whose fan-out did not finish (older than `before`: not the ones an emit is fanning out now). */
export async function findUnfannedEvents({ before, limit = 100 }: { before: Date; limit?: number }) {
  return WebhookEvent.find({ fannedOut: false, at: trusted({ $lt: before }) }).sort({ at: 1 }).limit(limit).lean<WebhookEventRecord[]>();
}

/** The owner's enabled endpoints that want this type. */
export async function subscribedEndpoints({ ownerId, type }: { ownerId: string; type: string }) {
  return WebhookEndpoint.find({ ownerId, enabled: true, events: type }).select({ _id: 1 }).lean<{ _id: Types.ObjectId }[]>();
}

/**
 * One pending delivery per endpoint, due now; a delivery that exists already (an interrupted fan-out
 * run again) is kept as it is. Then the event is marked fanned out.
 */
export async function fanOut(event: WebhookEventRecord, endpointIds: Types.ObjectId[]) {
  if (endpointIds.length > 0) {
    const now = dbNow();
    const docs = endpointIds.map((endpointId) => ({
      ownerId: event.ownerId,
      endpointId,
      eventId: event._id,
      type: event.type,
      ...(event.orderKey ? { orderKey: event.orderKey } : {}),
      eventAt: event.at,
      status: "pending",
      attempts: [],
      nextAttemptAt: now,
      inFlight: false,
    }));
    try {
      await WebhookDelivery.insertMany(docs, { ordered: false });
    } catch (error) {
      if (!isOnlyDuplicates(error)) throw error;
    }
  }
  await WebhookEvent.updateOne({ _id: event._id }, { $set: { fannedOut: true } });
}

const isOnlyDuplicates = (error: unknown) => {
  const writeErrors = fieldOf(error, "writeErrors");
  if (fieldOf(error, "code") === 11000 && !writeErrors) return true;
  return Array.isArray(writeErrors) && writeErrors.length > 0 && writeErrors.every((w) => (numberField(w, "code") ?? numberField(fieldOf(w, "err"), "code")) === 11000);
};

// --- Deliveries: the worker's queue

/** Due pending deliveries nobody holds, oldest due first (candidates: the claim decides). */
export async function dueDeliveries({ now, limit }: { now: Date; limit: number }) {
  return WebhookDelivery.find({ status: "pending", inFlight: false, nextAttemptAt: trusted({ $lte: now }) })
    .select({ _id: 1, endpointId: 1, eventId: 1, orderKey: 1, eventAt: 1 })
    .sort({ nextAttemptAt: 1, _id: 1 })
    .limit(limit)
    .lean<Pick<WebhookDeliveryRecord, "_id" | "endpointId" | "eventId" | "orderKey" | "eventAt">[]>();
}

/**
 * The undelivered deliveries of each of these lines (an estimate's deliveries to one endpoint), in
 * the order they must go (their events' order), keyed by lineKey: only the first may go now. One
 * query for all the lines: a line is rarely more than its head and what waits behind it.
 */
export async function pendingInLines(lines: { endpointId: Types.ObjectId; orderKey: string }[]) {
  const unique = new Map(lines.map((l) => [lineKey(l), { endpointId: l.endpointId, orderKey: l.orderKey }]));
  const byLine = new Map<string, Types.ObjectId[]>();
  if (unique.size === 0) return byLine;
  const pending = await WebhookDelivery.find({ status: "pending", $or: [...unique.values()] })
    .select({ _id: 1, endpointId: 1, orderKey: 1, eventAt: 1 })
    .lean<{ _id: Types.ObjectId; endpointId: Types.ObjectId; orderKey: string; eventAt: Date }[]>();
  pending.sort((a, b) => a.eventAt.getTime() - b.eventAt.getTime() || (String(a._id) < String(b._id) ? -1 : String(a._id) > String(b._id) ? 1 : 0));
  for (const d of pending) {
    const line = lineKey(d);
    byLine.set(line, [...(byLine.get(line) ?? []), d._id]);
  }
  return byLine;
}

/** An estimate's line to one endpoint. */
export const lineKey = (l: { endpointId: Types.ObjectId; orderKey?: string }) => `${String(l.endpointId)}:${l.orderKey}`;

/**
 * Deliveries waiting behind their lines' heads are not due before `until`, and the heads are told
 * to release them when they are done (releaseLines). In this order, in one command: a head that
 * finishes after it is marked releases its line itself; one that finished before (it was in flight
 * while the waiters were read) did not see the mark, so its line is released here, or the waiters
 * would sit until `until` (about a lease).
 */
export async function deferDeliveries({ ids, heads, until, now }: { ids: Types.ObjectId[]; heads: Types.ObjectId[]; until: Date; now: Date }) {
  await WebhookDelivery.bulkWrite(
    [
      { updateMany: { filter: { _id: trusted({ $in: ids }), status: "pending", inFlight: false }, update: { $set: { nextAttemptAt: until } } } },
      { updateMany: { filter: { _id: trusted({ $in: heads }) }, update: { $set: { blocking: true } } } },
    ],
    { ordered: true },
  );
  const done = await WebhookDelivery.find({ _id: trusted({ $in: heads }), status: trusted({ $ne: "pending" }) })
    .select({ endpointId: 1, orderKey: 1 })
    .lean<{ endpointId: Types.ObjectId; orderKey?: string }[]>();
  await releaseLines({ lines: done, now });
}

/** These lines' heads are done (delivered or failed for good): the rest of each line is due now. One command. */
export async function releaseLines({ lines, now }: { lines: { endpointId: Types.ObjectId; orderKey?: string }[]; now: Date }) {
  const unique = new Map(lines.flatMap((l) => (l.orderKey ? [[lineKey(l), { endpointId: l.endpointId, orderKey: l.orderKey }] as const] : [])));
  if (unique.size === 0) return;
  await WebhookDelivery.bulkWrite(
    [...unique.values()].map(({ endpointId, orderKey }) => ({
      updateMany: {
        filter: { status: "pending", endpointId, orderKey, inFlight: false, nextAttemptAt: trusted({ $gt: now }) },
        update: { $set: { nextAttemptAt: now } },
      },
    })),
    { ordered: false },
  );
}

/**
 * Takes these deliveries if nobody else did meanwhile (each update is atomic per document), each
 * group with its own lease, in one command, and answers the ones this claim holds.
 */
export async function claimDeliveries({ groups, claimToken, now }: { groups: { ids: Types.ObjectId[]; leaseUntil: Date }[]; claimToken: string; now: Date }) {
  await WebhookDelivery.bulkWrite(
    groups.map(({ ids, leaseUntil }) => ({
      updateMany: {
        // Still due: one deferred or rescheduled by another worker since it was read is not taken.
        filter: { _id: trusted({ $in: ids }), status: "pending", inFlight: false, nextAttemptAt: trusted({ $lte: now }) },
        update: { $set: { inFlight: true, claimToken, leaseUntil } },
      },
    })),
    { ordered: false },
  );
  return WebhookDelivery.find({ _id: trusted({ $in: groups.flatMap((g) => g.ids) }), claimToken, inFlight: true }).lean<WebhookDeliveryRecord[]>();
}

/** Gives back held deliveries that were not attempted (their line stopped): due again, for any worker. */
export async function unclaimDeliveries({ ids, claimToken }: { ids: Types.ObjectId[]; claimToken: string }) {
  if (ids.length === 0) return;
  await WebhookDelivery.updateMany(
    { _id: trusted({ $in: ids }), claimToken, inFlight: true },
    { $set: { inFlight: false }, $unset: { claimToken: 1, leaseUntil: 1 } },
  );
}

const held = (delivery: WebhookDeliveryRecord) => ({ _id: delivery._id, claimToken: delivery.claimToken, inFlight: true });
/** A held delivery the receiver answered 2xx: delivered, its claim and schedule gone. */
const delivered = (attempt: DeliveryAttemptRecord) => ({
  $set: { status: "delivered", inFlight: false, deliveredAt: attempt.at, lastStatusCode: attempt.statusCode },
  $push: { attempts: attempt },
  $unset: { claimToken: 1, leaseUntil: 1, nextAttemptAt: 1, lastError: 1, manual: 1 },
});

/** The receiver answered 2xx. Null when the claim was lost meanwhile (recovery took it back). */
export async function recordDelivered({ delivery, attempt }: { delivery: WebhookDeliveryRecord; attempt: DeliveryAttemptRecord }) {
  return WebhookDelivery.findOneAndUpdate(
    held(delivery),
    delivered(attempt),
    { returnDocument: "after", projection: { attempts: 0 } },
  ).lean<WebhookDeliveryRecord>();
}

/**
 * Several 2xx answers recorded in one command (the worker gathers those that finish while a record is
 * being written). Answers the lines to release: those of the deliveries now delivered that a claim
 * marked as blocking their line (whoever recorded them: one whose claim was lost to a lease's end
 * was delivered by the worker that took it over).
 */
export async function recordDeliveredMany(items: { delivery: WebhookDeliveryRecord; attempt: DeliveryAttemptRecord }[]) {
  if (items.length === 1) {
    const recorded = await recordDelivered(items[0]);
    return recorded?.blocking ? [recorded] : [];
  }
  await WebhookDelivery.bulkWrite(
    items.map(({ delivery, attempt }) => ({
      updateOne: {
        filter: held(delivery),
        update: delivered(attempt),
      },
    })),
    { ordered: false },
  );
  const inLines = items.filter(({ delivery }) => delivery.orderKey);
  if (inLines.length === 0) return [];
  return WebhookDelivery.find({ _id: trusted({ $in: inLines.map(({ delivery }) => delivery._id) }), status: "delivered", blocking: true })
    .select({ endpointId: 1, orderKey: 1 })
    .lean<{ endpointId: Types.ObjectId; orderKey?: string }[]>();
}

/** A failed attempt: pending again at `retryAt`, or failed for good without one. */
export async function recordAttemptFailed({ delivery, attempt, retryAt }: { delivery: WebhookDeliveryRecord; attempt: DeliveryAttemptRecord; retryAt: Date | null }) {
  return WebhookDelivery.findOneAndUpdate(
    held(delivery),
    {
      $set: {
        inFlight: false,
        lastError: attempt.error ?? `HTTP ${attempt.statusCode}`,
        ...(attempt.statusCode ? { lastStatusCode: attempt.statusCode } : {}),
        ...(retryAt ? { status: "pending", nextAttemptAt: retryAt } : { status: "failed" }),
      },
      $push: { attempts: attempt },
      $unset: { claimToken: 1, leaseUntil: 1, manual: 1, ...(retryAt ? {} : { nextAttemptAt: 1 }) },
    },
    { returnDocument: "after" },
  ).lean<WebhookDeliveryRecord>();
}

/** Deliveries whose worker died mid-attempt (lease over): due again now. At least once: the receiver deduplicates by webhook-id. */
export async function releaseAbandoned(now: Date) {
  const { modifiedCount } = await WebhookDelivery.updateMany(
    { status: "pending", inFlight: true, leaseUntil: trusted({ $lt: now }) },
    { $set: { inFlight: false, nextAttemptAt: now }, $unset: { claimToken: 1, leaseUntil: 1 } },
  );
  return modifiedCount;
}

/** A disabled endpoint's waiting deliveries stop waiting (Redeliver sends one again). */
export async function cancelPending({ endpointId, reason }: { endpointId: Types.ObjectId; reason: string }) {
  await WebhookDelivery.updateMany(
    { endpointId, status: "pending", inFlight: false },
    { $set: { status: "cancelled", lastError: reason }, $unset: { nextAttemptAt: 1 } },
  );
}

// --- The log and Redeliver

export async function findDeliveries({ ownerId, endpointId, skip, limit }: { ownerId: string; endpointId: string; skip: number; limit: number }) {
  return WebhookDelivery.find({ ownerId, endpointId })
    .sort({ createdAt: -1, _id: -1 })
    .skip(skip)
    .limit(limit)
    .lean<WebhookDeliveryRecord[]>();
}

export async function countDeliveries({ ownerId, endpointId }: { ownerId: string; endpointId: string }) {
  return WebhookDelivery.countDocuments({ ownerId, endpointId });
}

export async function findDelivery({ ownerId, id }: { ownerId: string; id: string }) {
  if (!isObjectIdHex(id)) return null;
  return WebhookDelivery.findOne({ _id: id, ownerId }).lean<WebhookDeliveryRecord>();
}

/** Due now again, whatever it was (not while an attempt is in flight); the same event and webhook-id. */
export async function requeueDelivery({ ownerId, id }: { ownerId: string; id: string }) {
  if (!isObjectIdHex(id)) return null;
  return WebhookDelivery.findOneAndUpdate(
    { _id: id, ownerId, inFlight: false },
    { $set: { status: "pending", nextAttemptAt: dbNow(), manual: true } },
    { returnDocument: "after" },
  ).lean<WebhookDeliveryRecord>();
}

/** Everything webhook of an account (the account is being deleted). */
export async function removeWebhooksOf({ ownerId }: { ownerId: string }) {
  await Promise.all([deleteInBatches(WebhookDelivery, { ownerId }), deleteInBatches(WebhookEvent, { ownerId }), deleteInBatches(WebhookEndpoint, { ownerId })]);
}

export async function eventsByIds(ids: Types.ObjectId[]) {
  return WebhookEvent.find({ _id: trusted({ $in: ids }) }).lean<WebhookEventRecord[]>();
}
