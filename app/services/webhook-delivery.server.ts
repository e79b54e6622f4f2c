import { randomBytes } from "node:crypto";
import { Types } from "mongoose";
import {
  cancelPending,
  claimDeliveries,
  deferDeliveries,
  disableEndpoint,
  dueDeliveries,
  endpointsByIds,
  eventsByIds,
  findUnfannedEvents,
  pendingInLines,
  noteEndpointSuccess,
  lineKey,
  recordAttemptFailed,
  recordDeliveredMany,
  releaseAbandoned,
  releaseLines,
  unclaimDeliveries,
  type DeliveryAttemptRecord,
  type WebhookDeliveryRecord,
  type WebhookEndpointRecord,
  type WebhookEventRecord,
} from "~/models/webhook.server";
import { dbNow, dbNowMs } from "~/utils/db-clock.server";
import { env } from "~/utils/env.server";
import type { OutboundAllowList } from "~/utils/outbound.server";
import { LeaseQueue, logFailure, newWorkerId, type LeaseRun, type LeaseTask } from "./lease-queue.server";
import { postWebhook } from "./webhook-post.server";
import { notifyWebhookDisabled } from "./outbox.server";
import { fanOutEvent, onWebhookEmitted, signatures, signingSecrets, webhookIdOf } from "./webhooks.server";
import { errorMessage } from "~/utils/unknown-values";

/**
 * The webhook worker (docs/decisions/0022), one per instance (in the housekeeping process): claims
 * due deliveries with a lease on the database's clock, POSTs each event signed per Standard
 * Webhooks, records the attempt, and schedules the next one (WEBHOOK_RETRY_DELAYS) until a 2xx.
 * At least once: an attempt whose worker died is due again when its lease ends, with the same
 * webhook-id, so receivers deduplicate. Within an estimate (the event's orderKey) an endpoint gets
 * events in the order they happened: only the first undelivered one of the line may go.
 */

export interface WebhookWorkerOptions {
  concurrency?: number;
  timeoutMs?: number;
  retryDelaysMs?: number[];
  pollMs?: number;
  allow?: OutboundAllowList;
}

const RECOVERY_EVERY_MS = 5_000;
/** At most this many deliveries of one line taken by one claim, sent one after another. */
const MAX_CHAIN = 4;
const COALESCE_MS = 20;
/** At most this many 2xx answers recorded in one command. */
const RECORD_BATCH = 128;
/** A fan-out older than this with no deliveries yet was cut short (its process died): finished here. */
const FAN_OUT_GRACE_MS = 10_000;
/**
 * DNS (5 s at most, outbound.server) + the request's own timeout + margin: an attempt never outlives
 * its lease. The n-th of a line's deliveries sent one after another waits for the n - 1 before it.
 */
const leaseFor = (timeoutMs: number, nth = 1) => nth * (timeoutMs + 5_000) + 10_000;
/** A stored reference resolved inside the delivery's account: another account's endpoint or event is as good as gone. */
function ownedBy<T extends { ownerId: Types.ObjectId }>(delivery: WebhookDeliveryRecord, record: T | undefined) {
  return record && String(record.ownerId) === String(delivery.ownerId) ? record : undefined;
}

export class WebhookWorker {
  private readonly timeoutMs: number;
  private readonly retryDelaysMs: number[];
  private readonly allow: OutboundAllowList;
  private readonly workerId = newWorkerId();
  private readonly queue: LeaseQueue;
  private forget: () => void = () => undefined;

  constructor(options: WebhookWorkerOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? env.WEBHOOK_TIMEOUT_MS;
    this.retryDelaysMs = options.retryDelaysMs ?? env.WEBHOOK_RETRY_DELAYS;
    this.allow = options.allow ?? env.OUTBOUND_ALLOW;
    const concurrency = options.concurrency ?? env.WEBHOOK_CONCURRENCY;
    // No heartbeat: each claim's lease is long enough for its attempts (leaseFor).
    this.queue = new LeaseQueue({
      label: "webhooks",
      concurrency,
      pollMs: options.pollMs ?? 500,
      claim: (free) => this.claim(free),
      // Claims go in batches (half the slots at least): each claim costs the same few queries.
      minClaim: Math.ceil(concurrency / 2),
      recover: () => this.recover(),
      recoverEveryMs: RECOVERY_EVERY_MS,
      // An emit wakes the worker: the events emitted in the next moment go in the same claim.
      coalesceMs: COALESCE_MS,
    });
  }

  start() {
    this.forget = onWebhookEmitted(() => this.queue.wake());
    this.queue.start();
    return this;
  }

  /** Stops claiming and waits up to `graceMs`; an attempt cut off here is due again when its lease ends (at least once). */
  async stop(options?: { graceMs?: number }) {
    this.forget();
    await this.queue.stop(options);
  }

  /** Attempts whose worker died are due again; fan-outs a dead process left are finished. */
  private async recover() {
    await releaseAbandoned(dbNow());
    for (const event of await findUnfannedEvents({ before: new Date(dbNowMs() - FAN_OUT_GRACE_MS) })) await fanOutEvent(event);
  }

  /**
   * Claims up to `free` due deliveries. Per estimate line and endpoint only the first undelivered
   * delivery may go; when the ones after it are due too, the claim takes them with it (up to
   * MAX_CHAIN) and sends them one after another, each once the one before it is delivered. Due
   * deliveries behind a head this claim does not take wait (deferred) until that head is done.
   */
  private async claim(free: number): Promise<LeaseTask[]> {
    const now = dbNow();
    // Four times the free slots: in a full queue of estimates with several events each, most
    // candidates wait behind their line's head, and a claim should still fill its slots.
    const candidates = await dueDeliveries({ now, limit: free * 4 });
    if (candidates.length === 0) return [];
    const lines = await pendingInLines(candidates.flatMap((c) => (c.orderKey ? [{ endpointId: c.endpointId, orderKey: c.orderKey }] : [])));
    const due = new Map(candidates.map((c) => [String(c._id), c]));
    type Candidate = (typeof candidates)[number];
    const chains: Candidate[][] = [];
    const waiting: { delivery: Candidate; head: Types.ObjectId }[] = [];
    const seen = new Set<string>();
    for (const c of candidates) {
      if (!c.orderKey) {
        chains.push([c]);
        continue;
      }
      const line = lines.get(lineKey(c));
      // No line: it stopped being pending since it was read (another worker took it).
      if (!line || seen.has(lineKey(c))) continue;
      seen.add(lineKey(c));
      // The line's undelivered deliveries in order: the due ones from its head on go together.
      const chain: Candidate[] = [];
      for (const id of line) {
        const next = due.get(String(id));
        if (!next || chain.length === MAX_CHAIN) break;
        chain.push(next);
      }
      if (chain.length > 0) chains.push(chain);
      const taken = new Set(chain.map((d) => String(d._id)));
      for (const id of line) {
        const other = due.get(String(id));
        if (other && !taken.has(String(id))) waiting.push({ delivery: other, head: line[0] });
      }
    }
    // Whole lines only, as many as the free slots hold (a line cut short here is taken next time).
    const taking: Candidate[][] = [];
    let slots = free;
    for (const chain of chains) {
      if (slots === 0) break;
      taking.push(chain.slice(0, slots));
      slots -= Math.min(chain.length, slots);
    }
    // Out of the way until their head is done (released then), at the latest a lease from now:
    // other documents than the claim's, so both go at once (the marks and releases keep the order).
    const heads = [...new Map(waiting.map((w) => [String(w.head), w.head])).values()];
    const deferring =
      waiting.length > 0
        ? deferDeliveries({ ids: waiting.map((w) => w.delivery._id), heads, until: new Date(now.getTime() + leaseFor(this.timeoutMs, MAX_CHAIN)), now })
        : null;
    const [tasks, deferred] = await Promise.allSettled([this.take(taking, now), deferring]);
    if (tasks.status === "rejected") throw tasks.reason;
    // The deferral failed: what it would have held back waits for its line's head anyway (pendingInLines).
    if (deferred.status === "rejected") logFailure(deferred.reason, "webhooks");
    return tasks.value;
  }

  /** Claims these lines' deliveries, reading their events and endpoints meanwhile, and sends each line in order. */
  private async take(chains: { _id: Types.ObjectId; endpointId: Types.ObjectId; eventId: Types.ObjectId }[][], now: Date): Promise<LeaseTask[]> {
    if (chains.length === 0) return [];
    const chosen = chains.flat();
    const claimToken = `${this.workerId}:${randomBytes(6).toString("hex")}`;
    const unique = (list: Types.ObjectId[]) => [...new Map(list.map((id) => [String(id), id])).values()];
    // The n-th of each line gets a lease long enough for the n attempts up to it.
    const longest = Math.max(...chains.map((c) => c.length));
    const groups = Array.from({ length: longest }, (_, n) => ({
      ids: chains.flatMap((c) => (c[n] ? [c[n]._id] : [])),
      leaseUntil: new Date(now.getTime() + leaseFor(this.timeoutMs, n + 1)),
    }));
    const [claimed, endpoints, events] = await Promise.all([
      claimDeliveries({ groups, claimToken, now }),
      endpointsByIds(unique(chosen.map((c) => c.endpointId))),
      eventsByIds(unique(chosen.map((c) => c.eventId))),
    ]);
    if (claimed.length === 0) return [];
    const endpointById = new Map(endpoints.map((e) => [String(e._id), e]));
    const eventById = new Map(events.map((e) => [String(e._id), e]));
    const heldById = new Map(claimed.map((d) => [String(d._id), d]));
    return chains.flatMap((chain) => {
      const mine = chain.flatMap((c) => heldById.get(String(c._id)) ?? []);
      if (mine.length === 0) return [];
      // Recording failed (database away): the lease runs out and the attempt is due again.
      return [{ slots: mine.length, run: (run: LeaseRun) => this.sendInOrder(mine, chain, endpointById, eventById, claimToken, run) }];
    });
  }

  /**
   * A line's deliveries this claim holds, one after another while each is delivered. Held ones after
   * a gap (one another worker took) or after one that failed are given back unsent: they wait for it.
   */
  private async sendInOrder(
    mine: WebhookDeliveryRecord[],
    chain: { _id: Types.ObjectId }[],
    endpointById: Map<string, WebhookEndpointRecord>,
    eventById: Map<string, WebhookEventRecord>,
    claimToken: string,
    { stopping, free }: LeaseRun,
  ) {
    let n = 0;
    try {
      for (; n < mine.length; n++) {
        const delivery = mine[n];
        if (String(delivery._id) !== String(chain[n]._id) || stopping()) break;
        const delivered = await this.deliver(delivery, ownedBy(delivery, endpointById.get(String(delivery.endpointId))), ownedBy(delivery, eventById.get(String(delivery.eventId))));
        free(1);
        if (!delivered) {
          n += 1;
          break;
        }
      }
    } finally {
      const rest = mine.slice(n);
      if (rest.length > 0) {
        free(rest.length);
        await unclaimDeliveries({ ids: rest.map((d) => d._id), claimToken });
      }
    }
  }

  /** One attempt, recorded; true when the receiver answered 2xx. */
  private async deliver(delivery: WebhookDeliveryRecord, endpoint: WebhookEndpointRecord | undefined, event: WebhookEventRecord | undefined): Promise<boolean> {
    const started = Date.now();
    const at = dbNow();
    const manual = Boolean(delivery.manual);
    if (!endpoint || !event) {
      const attempt = { at, durationMs: 0, error: endpoint ? "The event is gone" : "The endpoint is gone", ...(manual ? { manual } : {}) };
      await recordAttemptFailed({ delivery, attempt, retryAt: null });
      return false;
    }
    const id = webhookIdOf(event._id);
    const timestamp = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ type: event.type, timestamp: event.at.toISOString(), data: event.data });
    let secrets: string[];
    try {
      secrets = signingSecrets(endpoint);
    } catch (error) {
      const recorded = await recordAttemptFailed({ delivery, attempt: { at, durationMs: 0, error: errorMessage(error), ...(manual ? { manual } : {}) }, retryAt: null });
      if (recorded) await this.nextInLine(recorded);
      return false;
    }
    const outcome = await postWebhook(
      endpoint.url,
      {
        "Content-Type": "application/json",
        "User-Agent": "DamageIQ-Webhooks/1",
        "webhook-id": id,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": signatures(secrets, id, timestamp, body),
      },
      body,
      { timeoutMs: this.timeoutMs, allow: this.allow },
    );
    const attempt: DeliveryAttemptRecord = {
      at,
      durationMs: Date.now() - started,
      ...("statusCode" in outcome ? { statusCode: outcome.statusCode } : { error: outcome.error }),
      ...(manual ? { manual } : {}),
    };
    if ("statusCode" in outcome && outcome.statusCode >= 200 && outcome.statusCode < 300) {
      await Promise.all([this.recordDelivered(delivery, attempt), this.noteSuccess(endpoint, at)]);
      return true;
    }
    // The n-th failed attempt waits the n-th delay; a Redeliver is one attempt, no schedule after it.
    const failedBefore = delivery.attempts.filter((a) => !a.manual).length;
    const delay = manual ? undefined : this.retryDelaysMs[failedBefore];
    const retryAt = delay === undefined ? null : new Date(dbNowMs() + delay);
    const recorded = await recordAttemptFailed({ delivery, attempt, retryAt });
    if (recorded && !retryAt) {
      await this.nextInLine(recorded);
      if (!manual) await this.maybeDisable(endpoint, recorded);
    }
    return false;
  }

  /**
   * The endpoint's last success, written at most once a second per endpoint and process (it only
   * decides a disable, after a day of failures): a busy endpoint is not one more write per delivery.
   */
  private readonly successNoted = new Map<string, number>();
  private async noteSuccess(endpoint: WebhookEndpointRecord, at: Date) {
    const key = String(endpoint._id);
    if (Date.now() - (this.successNoted.get(key) ?? 0) < 1_000) return;
    this.successNoted.set(key, Date.now());
    await noteEndpointSuccess(endpoint._id, at);
  }

  /** A line's head is done: what waits behind it (if anything was deferred) is due now. */
  private async nextInLine(delivery: WebhookDeliveryRecord) {
    if (delivery.orderKey && delivery.blocking) await releaseLines({ lines: [delivery], now: dbNow() });
  }

  /**
   * 2xx answers wait here while one record is being written and go together in the next: one
   * command for many deliveries when they finish close together (a burst), one each when they do
   * not. Each caller learns when its own delivery is recorded (or that recording failed).
   */
  private readonly toRecord: { delivery: WebhookDeliveryRecord; attempt: DeliveryAttemptRecord; done: (error?: unknown) => void }[] = [];
  private recording = false;
  private recordDelivered(delivery: WebhookDeliveryRecord, attempt: DeliveryAttemptRecord) {
    return new Promise<void>((resolve, reject) => {
      this.toRecord.push({ delivery, attempt, done: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!this.recording) void this.recordWaiting();
    });
  }

  private async recordWaiting() {
    this.recording = true;
    while (this.toRecord.length > 0) {
      const batch = this.toRecord.splice(0, RECORD_BATCH);
      try {
        const blocking = await recordDeliveredMany(batch);
        await releaseLines({ lines: blocking, now: dbNow() });
        for (const item of batch) item.done();
      } catch (error) {
        // Not recorded: each attempt's lease runs out and it is due again (at least once).
        for (const item of batch) item.done(error ?? new Error("not recorded"));
      }
    }
    this.recording = false;
  }

  /**
   * A delivery failed its whole schedule (about a day) and the endpoint answered no delivery with a
   * 2xx since that delivery's first attempt: it is disabled, its waiting deliveries cancelled, and
   * the account told by email.
   */
  private async maybeDisable(endpoint: WebhookEndpointRecord, delivery: WebhookDeliveryRecord) {
    const firstAttempt = delivery.attempts.find((a) => !a.manual)?.at ?? delivery.createdAt;
    const fresh = (await endpointsByIds([endpoint._id]))[0];
    if (!fresh || (fresh.lastSuccessAt && fresh.lastSuccessAt >= firstAttempt)) return;
    const last = delivery.attempts[delivery.attempts.length - 1];
    const reason = `Every attempt failed since ${firstAttempt.toISOString()} (last: ${last?.statusCode ? `HTTP ${last.statusCode}` : (last?.error ?? "no answer")})`;
    if (!(await disableEndpoint({ id: fresh._id, reason }))) return;
    await cancelPending({ endpointId: fresh._id, reason: "Not sent: the endpoint was disabled after persistent failure" });
    await notifyWebhookDisabled({ ownerId: String(fresh.ownerId), endpointId: String(fresh._id), url: fresh.url, reason });
  }
}

/** Starts this process's webhook worker; returns its stop function. */
export function startWebhookWorker(options: WebhookWorkerOptions = {}) {
  const worker = new WebhookWorker(options).start();
  return (stopOptions?: { graceMs?: number }) => worker.stop(stopOptions);
}
