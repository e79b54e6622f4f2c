import { Types, trusted } from "mongoose";
import { WEBHOOK_EXAMPLE_DATA } from "~/schemas/webhook-events";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WebhookDelivery, WebhookEvent, insertEndpoint } from "~/models/webhook.server";
import { parseOutboundAllow, type OutboundAllowList } from "~/utils/outbound.server";
import { createTestUser } from "../../tests/accounts";
import { useTestDb } from "../../tests/test-db";
import { startReceiver, type TestReceiver } from "../../tests/webhook-receiver";
import { seal } from "./secret-box.server";
import { WebhookWorker } from "./webhook-delivery.server";
import { emitEvent, fanOutEvent } from "./webhooks.server";

// Several instances on one database (docs/decisions/0016): workers claim with a lease on the
// database's clock, so two of them never send the same delivery at once; a fan-out cut short by a
// dead process is finished by a worker; an attempt whose worker died is sent again (same webhook-id).

const loopback = (parseOutboundAllow("loopback") as { ok: true; allow: OutboundAllowList }).allow;
let receiver: TestReceiver;
let ownerId: string;
const workers: WebhookWorker[] = [];
const worker = (options: ConstructorParameters<typeof WebhookWorker>[0] = {}) => {
  const w = new WebhookWorker({ allow: loopback, pollMs: 50, timeoutMs: 2_000, retryDelaysMs: [100], concurrency: 8, ...options }).start();
  workers.push(w);
  return w;
};

beforeAll(async () => {
  await useTestDb();
  receiver = await startReceiver();
  ownerId = (await createTestUser({ role: "dealer" })).id;
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop({ graceMs: 100 })));
});
afterAll(async () => {
  await receiver?.close();
});

async function endpoint(path: string, events = ["estimate.updated"]) {
  const record = await insertEndpoint({ ownerId, url: receiver.url(path), events, secretSealed: seal("webhook-secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw") });
  return String(record._id);
}

async function until(what: string, probe: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("webhook workers on several instances", () => {
  it("two workers on one database deliver 150 events once each, in order per estimate", async () => {
    const [a, b] = [worker(), worker()];
    expect(a).not.toBe(b);
    await endpoint("/shared");
    for (let e = 0; e < 50; e++) {
      for (let n = 0; n < 3; n++) await emitEvent({ ownerId, type: "estimate.updated", data: { ...WEBHOOK_EXAMPLE_DATA["estimate.updated"], title: JSON.stringify({ e, n }) }, orderKey: `est-${e}` });
    }
    await until("150 deliveries", async () => (await WebhookDelivery.countDocuments({ ownerId, status: "delivered" })) === 150);
    const got = receiver.on("/shared");
    expect(got).toHaveLength(150);
    expect(new Set(got.map((r) => r.headers["webhook-id"])).size).toBe(150);
    const sequences = new Map<number, number[]>();
    for (const r of got) {
      const { e, n } = JSON.parse((JSON.parse(r.body) as { data: { title: string } }).data.title) as { e: number; n: number };
      sequences.set(e, [...(sequences.get(e) ?? []), n]);
    }
    expect([...sequences.values()].filter((s) => s.join() !== "0,1,2")).toEqual([]);
  }, 90_000);

  it("a delivery waiting behind its estimate's earlier one goes when that one is done, not a lease later", async () => {
    // A 30 s timeout makes a lease 45 s: a waiter left deferred until its lease ran out would miss the 15 s below.
    worker({ timeoutMs: 30_000 });
    worker({ timeoutMs: 30_000 });
    await endpoint("/prompt");
    for (let e = 0; e < 30; e++) {
      for (let n = 0; n < 3; n++) await emitEvent({ ownerId, type: "estimate.updated", data: { ...WEBHOOK_EXAMPLE_DATA["estimate.updated"], title: JSON.stringify({ e, n }) }, orderKey: `prompt-${e}` });
    }
    await until("90 prompt deliveries", () => receiver.on("/prompt").length === 90, 15_000);
  }, 60_000);

  it("two workers claiming large batches of the same due deliveries send each once, recorded once", async () => {
    const paths = ["/batch-a", "/batch-b"];
    const ids: string[] = [];
    for (const path of paths) ids.push(await endpoint(path));
    // Everything due before either worker looks: both claim from the same 300 candidates at once.
    for (let e = 0; e < 50; e++) {
      for (let n = 0; n < 3; n++) await emitEvent({ ownerId, type: "estimate.updated", data: { ...WEBHOOK_EXAMPLE_DATA["estimate.updated"], title: JSON.stringify({ e, n }) }, orderKey: `batch-${e}` });
    }
    worker({ concurrency: 64 });
    worker({ concurrency: 64 });
    const ofBatch = () => WebhookDelivery.find({ endpointId: trusted({ $in: ids }) }).lean();
    await until("300 recorded", async () => (await WebhookDelivery.countDocuments({ endpointId: trusted({ $in: ids }), status: "delivered" })) === 300);
    await new Promise((r) => setTimeout(r, 300));
    for (const path of paths) {
      const got = receiver.on(path);
      expect(got).toHaveLength(150);
      expect(new Set(got.map((r) => r.headers["webhook-id"])).size).toBe(150);
    }
    // Recorded together, each with its own one attempt and nothing left held.
    expect((await ofBatch()).filter((d) => d.status !== "delivered" || d.attempts.length !== 1 || d.inFlight || d.claimToken)).toEqual([]);
  }, 90_000);

  it("keeps each estimate's order when the heads of many lines in one batch are waiting for a retry", async () => {
    receiver.script("/retried-heads", [500, 500, 500, 500, 500, 500, 500, 500, 200]);
    await endpoint("/retried-heads");
    // Eight estimates whose first deliveries fail once (the first eight attempts), all due at once.
    for (let n = 0; n < 3; n++) {
      for (let e = 0; e < 8; e++) await emitEvent({ ownerId, type: "estimate.updated", data: { ...WEBHOOK_EXAMPLE_DATA["estimate.updated"], title: JSON.stringify({ e, n }) }, orderKey: `heads-${e}` });
    }
    worker({ concurrency: 64, retryDelaysMs: [500] });
    await until("32 arrivals", () => receiver.on("/retried-heads").length >= 32);
    const arrivals = receiver.on("/retried-heads").map((r) => JSON.parse((JSON.parse(r.body) as { data: { title: string } }).data.title) as { e: number; n: number });
    for (let e = 0; e < 8; e++) expect(arrivals.filter((a) => a.e === e).map((a) => a.n)).toEqual([0, 0, 1, 2]);
  }, 60_000);

  it("sends an estimate's due deliveries one after another in one claim, and gives back what follows one that failed", async () => {
    receiver.script("/line", [200, 500, 200]);
    const id = await endpoint("/line");
    // Four events of one estimate, all due before the worker looks: one claim takes the line.
    for (let n = 0; n < 4; n++) await emitEvent({ ownerId, type: "estimate.updated", data: { ...WEBHOOK_EXAMPLE_DATA["estimate.updated"], title: JSON.stringify({ n }) }, orderKey: "line-1" });
    worker({ retryDelaysMs: [300] });
    await until("five arrivals", () => receiver.on("/line").length >= 5);
    await until("all recorded", async () => (await WebhookDelivery.countDocuments({ endpointId: new Types.ObjectId(id), status: "delivered" })) === 4);
    await new Promise((r) => setTimeout(r, 300));
    // 1 failed: 2 and 3, already held by the claim, waited for its retry instead of going on.
    expect(receiver.on("/line").map((r) => (JSON.parse((JSON.parse(r.body) as { data: { title: string } }).data.title) as { n: number }).n)).toEqual([0, 1, 1, 2, 3]);
    const records = await WebhookDelivery.find({ endpointId: new Types.ObjectId(id) }).sort({ eventAt: 1 }).lean();
    expect(records.map((d) => d.attempts.map((a) => a.statusCode))).toEqual([[200], [500, 200], [200], [200]]);
    expect(records.filter((d) => d.inFlight || d.claimToken)).toEqual([]);
  });

  it("finishes a fan-out a dead process left, and sends again an attempt whose worker died", async () => {
    const id = await endpoint("/recovered");
    // An event written, its process gone before the deliveries (older than the grace of 10 s).
    const orphan = await WebhookEvent.create({ ownerId, type: "estimate.updated", key: "orphan", data: { orphan: true }, at: new Date(Date.now() - 60_000), fannedOut: false });
    // A delivery held by a worker that died mid-attempt (its lease over).
    const event = await WebhookEvent.create({ ownerId, type: "estimate.updated", key: "held", data: { held: true }, at: new Date(), fannedOut: true });
    await WebhookDelivery.create({
      ownerId,
      endpointId: new Types.ObjectId(id),
      eventId: event._id,
      type: "estimate.updated",
      eventAt: event.at,
      status: "pending",
      inFlight: true,
      claimToken: "dead-worker",
      leaseUntil: new Date(Date.now() - 1_000),
      nextAttemptAt: new Date(Date.now() - 30_000),
    });
    worker();
    await until("both arrive", () => receiver.on("/recovered").length === 2);
    const ids = receiver.on("/recovered").map((r) => r.headers["webhook-id"]).sort();
    expect(ids).toEqual([`msg_${String(orphan._id)}`, `msg_${String(event._id)}`].sort());
    expect((await WebhookEvent.findById(orphan._id).lean())?.fannedOut).toBe(true);
    // A second fan-out of the same event adds nothing (one delivery per endpoint and event).
    const before = await WebhookDelivery.countDocuments({ eventId: orphan._id });
    await fanOutEvent((await WebhookEvent.findById(orphan._id).lean()) as never);
    expect(await WebhookDelivery.countDocuments({ eventId: orphan._id })).toBe(before);
  });

  it("an emit with the same key is one event", async () => {
    await endpoint("/keyed");
    const first = await emitEvent({ ownerId, type: "estimate.updated", data: { ...WEBHOOK_EXAMPLE_DATA["estimate.updated"], title: JSON.stringify({ v: 1 }) }, key: "same" });
    const again = await emitEvent({ ownerId, type: "estimate.updated", data: { ...WEBHOOK_EXAMPLE_DATA["estimate.updated"], title: JSON.stringify({ v: 2 }) }, key: "same" });
    expect(String(again?._id)).toBe(String(first?._id));
    worker();
    await until("one arrival", () => receiver.on("/keyed").length === 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.on("/keyed").map((r) => r.headers["webhook-id"])).toEqual([`msg_${String(first?._id)}`]);
  });

  it("an account with no endpoint subscribed to the event writes nothing", async () => {
    const quiet = (await createTestUser({ role: "dealer" })).id;
    await insertEndpoint({ ownerId: quiet, url: receiver.url("/other"), events: ["email.failed"], secretSealed: seal("webhook-secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw") });
    expect(await emitEvent({ ownerId: quiet, type: "estimate.updated", data: { ...WEBHOOK_EXAMPLE_DATA["estimate.updated"], title: JSON.stringify({ v: 1 }) } })).toBeNull();
    expect(await WebhookEvent.countDocuments({ ownerId: quiet })).toBe(0);
    expect(await WebhookDelivery.countDocuments({ ownerId: quiet })).toBe(0);
  });

  it("never sends another account's event to an endpoint, whatever a stored delivery says", async () => {
    worker();
    const endpointId = await endpoint("/crossed");
    const other = (await createTestUser({ role: "dealer" })).id;
    const event = await WebhookEvent.create({ ownerId: other, type: "estimate.updated", key: "crossed", data: { secret: "other account" }, at: new Date(), fannedOut: true });
    const delivery = await WebhookDelivery.create({
      ownerId,
      endpointId,
      eventId: event._id,
      type: "estimate.updated",
      eventAt: event.at,
      status: "pending",
      nextAttemptAt: new Date(Date.now() - 1_000),
    });
    await until("the delivery to fail", async () => (await WebhookDelivery.findById(delivery._id).lean())?.status === "failed");
    expect(receiver.on("/crossed")).toEqual([]);
    expect((await WebhookDelivery.findById(delivery._id).lean())?.attempts.at(-1)?.error).toBe("The event is gone");
  });
});
