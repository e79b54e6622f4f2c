import { createHmac, randomBytes } from "node:crypto";
import type { Types } from "mongoose";
import {
  countDeliveries,
  countEndpoints,
  fanOut,
  findDeliveries,
  findDelivery,
  findEndpoint,
  findEndpoints,
  insertEndpoint,
  insertEvent,
  removeEndpoint,
  requeueDelivery,
  subscribedEndpoints,
  updateEndpoint,
  type WebhookDeliveryRecord,
  type WebhookEndpointRecord,
  type WebhookEventRecord,
} from "~/models/webhook.server";
import {
  MAX_WEBHOOK_ENDPOINTS,
  type WebhookEndpointCreateInput,
  type WebhookEndpointUpdateInput,
  type WebhookEventType,
} from "~/schemas/webhooks";
import type { AssessmentStatus } from "~/schemas/assessment-status";
import { WEBHOOK_EVENT_DATA, type WebhookEventDataInput } from "~/schemas/webhook-events";
import { dbNowMs } from "~/utils/db-clock.server";
import { env } from "~/utils/env.server";
import { OutboundRefusedError, resolveOutbound } from "~/utils/outbound.server";
import type { Actor } from "./actor";
import { open, seal } from "./secret-box.server";
import { Conflict, Invalid, NotFound } from "~/utils/domain-errors";
import { log } from "~/utils/log.server";
import type { WholeListQuery } from "~/schemas/list-query";
import { versionLabel } from "~/schemas/estimate-sheet";
import { authorize } from "./permissions.server";

/**
 * Webhooks (docs/decisions/0022): an account's endpoints and the one way events enter the queue,
 * `emitEvent`. The worker that delivers them is in webhook-delivery.server.ts (it mails the
 * account through the outbox, which emits events itself: kept apart so there is no import cycle).
 */

// --- Emitting

declare global {
  var __webhookWakers: Set<() => void> | undefined;
}
const globalForWebhooks = globalThis;
const wakers = (globalForWebhooks.__webhookWakers ??= new Set());

/** Tells this process's webhook worker (if it runs here) that deliveries are waiting. */
export function wakeWebhooks() {
  for (const wake of wakers) wake();
}

/** For the worker: called on every emit in this process. */
export function onWebhookEmitted(wake: () => void) {
  wakers.add(wake);
  return () => wakers.delete(wake);
}

/** One event type's arguments: its data is that type's payload (app/schemas/webhook-events.ts). */
interface EmitArgsOf<T extends WebhookEventType> {
  ownerId: string | Types.ObjectId;
  type: T;
  data: WebhookEventDataInput<T>;
  /** Deliveries sharing it reach each endpoint in the order they happened (an estimate's id). */
  orderKey?: string;
  /** This occurrence's name: emitting the same key again (an operation retried) adds nothing. */
  key?: string;
}

export type EmitArgs = { [T in WebhookEventType]: EmitArgsOf<T> }[WebhookEventType];

/**
 * Records that something happened in an account and queues one delivery per enabled endpoint that
 * subscribed to it — in the database, before the operation that emits it answers, so an event is
 * never lost to a receiver or this app being down: call it right after the change is written, in
 * the same service function. With no endpoint subscribed nothing is written (one indexed read): an
 * event no endpoint wanted has nobody to reach, and the hot paths (assessments, sends) stay cheap.
 *
 * The customer decision (issue 27) calls it as
 *   `await emitEvent({ ownerId, type: "estimate.approved" | "estimate.declined", data: estimateEventData(record, { decision }), orderKey: estimateOrderKey(record) })`.
 */
export async function emitEvent({ ownerId, type, data: given, orderKey, key }: EmitArgs) {
  const owner = String(ownerId);
  // The payload as receivers read it and the API description says (the types hold it at build time).
  // A record that still breaks it (an old or imported shape) is logged, never the operation's failure.
  const checked = WEBHOOK_EVENT_DATA[type].safeParse(given);
  if (!checked.success) log.error({ type, issues: checked.error.issues.slice(0, 5) }, "webhook payload outside its described schema; sent as it is");
  const data: Record<string, unknown> = checked.success ? checked.data : given;
  const endpoints = await subscribedEndpoints({ ownerId: owner, type });
  if (endpoints.length === 0) return null;
  const { event } = await insertEvent({
    ownerId: owner,
    type,
    key: key ?? `${type}:${randomBytes(12).toString("hex")}`,
    data,
    ...(orderKey ? { orderKey } : {}),
  });
  if (!event.fannedOut) {
    await fanOut(event, endpoints.map((e) => e._id));
    wakeWebhooks();
  }
  return event;
}

/** Queues the event's deliveries (emitEvent, and the worker for a fan-out a dead process left). */
export async function fanOutEvent(event: WebhookEventRecord) {
  const endpoints = await subscribedEndpoints({ ownerId: String(event.ownerId), type: event.type });
  await fanOut(event, endpoints.map((e) => e._id));
  if (endpoints.length > 0) wakeWebhooks();
}

/** What an assessment event carries: the assessment as the API names it, without photos or audit. */
export function assessmentEventData(record: {
  _id: unknown;
  title: string;
  status: AssessmentStatus;
  vehicleYear?: number;
  vehicleMake?: string;
  vehicleModel?: string;
  vin?: string;
  contactId?: unknown;
  estimatedCost?: number | null;
  analysisError?: string;
  updatedAt?: Date;
}): WebhookEventDataInput<"assessment.created"> {
  return {
    id: String(record._id),
    title: record.title,
    status: record.status,
    vehicle: { year: record.vehicleYear ?? null, make: record.vehicleMake ?? null, model: record.vehicleModel ?? null, vin: record.vin ?? null },
    contactId: record.contactId ? String(record.contactId) : null,
    estimatedCost: record.estimatedCost ?? null,
    ...(record.analysisError ? { error: record.analysisError } : {}),
  };
}

/** What an estimate event adds to the estimate's fields, per event type (app/schemas/webhook-events.ts). */
type EstimateBase = WebhookEventDataInput<"estimate.sent" | "estimate.updated" | "estimate.approved" | "estimate.question_asked">;
type EstimateExtras = Partial<
  Omit<
    WebhookEventDataInput<"estimate.sent"> &
      WebhookEventDataInput<"estimate.updated"> &
      WebhookEventDataInput<"estimate.approved"> &
      WebhookEventDataInput<"estimate.question_asked">,
    keyof EstimateBase
  >
>;

/** An estimate event: the assessment's fields, its version and the one it supplements (and only the extras a payload has). */
export function estimateEventData<E extends EstimateExtras = Record<never, never>>(
  record: Parameters<typeof assessmentEventData>[0] & { version?: number; supplementOf?: unknown },
  extra: E & { [K in Exclude<keyof E, keyof EstimateExtras>]: never } = {} as E & { [K in Exclude<keyof E, keyof EstimateExtras>]: never },
) {
  return { ...assessmentEventData(record), version: record.version ?? 1, versionLabel: versionLabel(record.version ?? 1), supplementOf: record.supplementOf ? String(record.supplementOf) : null, ...extra };
}

/** One line per estimate (its versions included): the first version's id. */
export const estimateOrderKey = (record: { _id: unknown; supplementOf?: unknown }) => String(record.supplementOf ?? record._id);

// --- Signing (Standard Webhooks)

const SECRET_LABEL = "webhook-secret";
/** After a rotation the old secret keeps signing for this long. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;

/** `whsec_` and 32 random bytes in base64, as Standard Webhooks libraries read it. */
const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;
/** A new signing secret, sealed, nobody told of it: an imported endpoint's (docs/decisions/0064); Rotate secret shows one. */
export const newSealedSecret = () => seal(SECRET_LABEL, newSecret());

/**
 * `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` per secret, space-separated (the old and the
 * new one during a rotation). Written here rather than with the `standardwebhooks` package, which
 * signs with one secret only; the tests verify these signatures with that package.
 */
export function signatures(secrets: string[], id: string, timestamp: number, body: string) {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
      return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
    })
    .join(" ");
}

/** The secrets an endpoint signs with now. */
export function signingSecrets(endpoint: Pick<WebhookEndpointRecord, "secretSealed" | "previousSecretSealed" | "previousSecretUntil">, nowMs = dbNowMs()) {
  const current = open(SECRET_LABEL, endpoint.secretSealed);
  if (!current) throw new Error("The endpoint's signing secret does not open (SESSION_SECRET changed?)");
  const previous =
    endpoint.previousSecretSealed && endpoint.previousSecretUntil && endpoint.previousSecretUntil.getTime() > nowMs
      ? open(SECRET_LABEL, endpoint.previousSecretSealed)
      : null;
  return previous ? [current, previous] : [current];
}

// --- Endpoints (each account's own; an admin's are its own too)

export interface WebhookEndpointJson {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: string | null;
  lastSuccessAt: string | null;
  createdAt: string;
  updatedAt: string;
}

function iso(d: Date): string;
function iso(d?: Date | null): string | null;
function iso(d?: Date | null) {
  return d ? new Date(d).toISOString() : null;
}

function endpointJson(record: WebhookEndpointRecord): WebhookEndpointJson {
  return {
    id: String(record._id),
    url: record.url,
    description: record.description ?? null,
    events: record.events,
    enabled: record.enabled,
    disabledReason: record.disabledReason ?? null,
    disabledAt: iso(record.disabledAt),
    lastSuccessAt: iso(record.lastSuccessAt),
    createdAt: iso(record.createdAt),
    updatedAt: iso(record.updatedAt),
  };
}

export const endpointNotFound = () => new NotFound("Webhook endpoint not found");

/**
 * The outbound rule (app/utils/outbound.server.ts) at save: a host that resolves to a private,
 * loopback, link-local or metadata address is refused unless OUTBOUND_ALLOW lets it. One that does
 * not resolve now is kept (as for a mail server): every delivery checks again.
 */
async function assertUrlAllowed(url: string) {
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, "$1");
  try {
    await resolveOutbound(host, env.OUTBOUND_ALLOW);
  } catch (error) {
    if (error instanceof OutboundRefusedError) throw new Invalid(error.message, { fields: { url: error.message } });
  }
}

export async function listEndpoints(actor: Actor, { updatedSince }: WholeListQuery = {}) {
  return (await findEndpoints({ ownerId: actor.id, since: updatedSince })).map(endpointJson);
}

export async function getEndpoint(actor: Actor, id: string) {
  const record = await findEndpoint({ ownerId: actor.id, id });
  if (!record) throw endpointNotFound();
  return endpointJson(record);
}

/** Adds an endpoint; its signing secret is answered here once and never again. */
export async function createEndpoint(actor: Actor, input: WebhookEndpointCreateInput) {
  authorize(actor, "integrations.manage");
  if ((await countEndpoints({ ownerId: actor.id })) >= MAX_WEBHOOK_ENDPOINTS) {
    throw new Conflict(`You can have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints. Delete one first.`);
  }
  await assertUrlAllowed(input.url);
  const secret = newSecret();
  const record = await insertEndpoint({
    ownerId: actor.id,
    url: input.url,
    events: input.events,
    secretSealed: seal(SECRET_LABEL, secret),
    ...(input.description ? { description: input.description } : {}),
  });
  return { ...endpointJson(record), secret };
}

/** Changes the URL, events, description; `enabled: true` turns it back on (and clears why it was off). */
export async function editEndpoint(actor: Actor, id: string, input: WebhookEndpointUpdateInput) {
  authorize(actor, "integrations.manage");
  if (!(await findEndpoint({ ownerId: actor.id, id }))) throw endpointNotFound();
  if (input.url) await assertUrlAllowed(input.url);
  const set: Record<string, unknown> = {};
  const unset: string[] = [];
  if (input.url) set.url = input.url;
  if (input.events) set.events = input.events;
  if (input.description !== undefined) set.description = input.description;
  if (input.enabled !== undefined) {
    set.enabled = input.enabled;
    if (input.enabled) unset.push("disabledReason", "disabledAt");
  }
  const record = await updateEndpoint({ ownerId: actor.id, id, set, unset });
  if (!record) throw endpointNotFound();
  return endpointJson(record);
}

export async function deleteEndpoint(actor: Actor, id: string) {
  authorize(actor, "integrations.manage");
  if (!(await removeEndpoint({ ownerId: actor.id, id }))) throw endpointNotFound();
}

/** A new signing secret, answered once; the previous one keeps signing for a day beside it. */
export async function rotateSecret(actor: Actor, id: string) {
  authorize(actor, "integrations.manage");
  const current = await findEndpoint({ ownerId: actor.id, id });
  if (!current) throw endpointNotFound();
  const secret = newSecret();
  const record = await updateEndpoint({
    ownerId: actor.id,
    id,
    set: { secretSealed: seal(SECRET_LABEL, secret), previousSecretSealed: current.secretSealed, previousSecretUntil: new Date(dbNowMs() + PREVIOUS_SECRET_GRACE_MS) },
  });
  if (!record) throw endpointNotFound();
  return { ...endpointJson(record), secret };
}

// --- The delivery log

export interface WebhookDeliveryJson {
  id: string;
  endpointId: string;
  /** The webhook-id receivers deduplicate by: the same for every attempt of this event. */
  webhookId: string;
  eventType: string;
  status: string;
  attempts: { at: string; durationMs: number; statusCode: number | null; error: string | null; manual: boolean }[];
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
}

export const webhookIdOf = (eventId: unknown) => `msg_${String(eventId)}`;

function deliveryJson(record: WebhookDeliveryRecord): WebhookDeliveryJson {
  return {
    id: String(record._id),
    endpointId: String(record.endpointId),
    webhookId: webhookIdOf(record.eventId),
    eventType: record.type,
    status: record.status,
    attempts: (record.attempts ?? []).map((a) => ({
      at: iso(a.at),
      durationMs: a.durationMs,
      statusCode: a.statusCode ?? null,
      error: a.error ?? null,
      manual: Boolean(a.manual),
    })),
    lastStatusCode: record.lastStatusCode ?? null,
    lastError: record.lastError ?? null,
    nextAttemptAt: record.status === "pending" ? iso(record.nextAttemptAt) : null,
    deliveredAt: iso(record.deliveredAt),
    createdAt: iso(record.createdAt),
  };
}

/** An endpoint's deliveries, newest first, with how many there are. */
export async function listDeliveries(actor: Actor, endpointId: string, { limit, offset }: { limit: number; offset: number }) {
  if (!(await findEndpoint({ ownerId: actor.id, id: endpointId }))) throw endpointNotFound();
  const [records, total] = await Promise.all([
    findDeliveries({ ownerId: actor.id, endpointId, skip: offset, limit }),
    countDeliveries({ ownerId: actor.id, endpointId }),
  ]);
  return { deliveries: records.map(deliveryJson), total };
}

/** Redeliver: the same event (same webhook-id) to the endpoint again, now; 409 while an attempt is in flight. */
export async function redeliver(actor: Actor, deliveryId: string) {
  authorize(actor, "integrations.manage");
  const found = await findDelivery({ ownerId: actor.id, id: deliveryId });
  if (!found) throw new NotFound("Webhook delivery not found");
  const record = await requeueDelivery({ ownerId: actor.id, id: deliveryId });
  if (!record) throw new Conflict("This delivery is being attempted right now; try again in a moment");
  wakeWebhooks();
  return deliveryJson(record);
}
