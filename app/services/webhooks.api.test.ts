import { Types } from "mongoose";
import { WEBHOOK_EXAMPLE_DATA } from "~/schemas/webhook-events";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmailLog } from "~/models/email-log.server";
import { WebhookDelivery, WebhookEndpoint, WebhookEvent } from "~/models/webhook.server";
import { client, createTestUser, signIn, tokenFor } from "../../tests/accounts";
import type { RunningApp } from "../../tests/app-server";
import { startTokenApp } from "../../tests/signed-in-app";
import { uploadMedia } from "../../tests/uploads";
import { startReceiver, type Received, type TestReceiver } from "../../tests/webhook-receiver";
import { emitEvent } from "./webhooks.server";

// Webhooks end to end: the built app's worker delivers to a local HTTP receiver. Signatures checked
// with the `standardwebhooks` package (a receiver's library, not our code); retries after a 500 and
// a timeout; exactly the subscribed events; the outbound rule at save and at delivery; Redeliver;
// disable after persistent failure with the email; order within an estimate; tenancy.

type Client = ReturnType<typeof client>;
let app: RunningApp;
let receiver: TestReceiver;
let dealer: Client;
let dealerId: string;
let other: Client;

beforeAll(async () => {
  receiver = await startReceiver();
  ({ app, dealerId, dealer } = await startTokenApp({
    env: {
      // Only this one loopback address is allowed: 127.0.0.2 (loopback too) stays refused.
      OUTBOUND_ALLOW: "127.0.0.1",
      WEBHOOK_RETRY_DELAYS: "300,300",
      WEBHOOK_TIMEOUT_MS: "1000",
    },
  }));
  const b = await createTestUser({ role: "dealer" });
  other = client(app, { token: await tokenFor(b.id) });
});
afterAll(async () => {
  await app?.stop();
  await receiver?.close();
});

async function endpoint(path: string, events: string[], who: Client = dealer) {
  const res = await who.post("/api/webhooks", { url: receiver.url(path), events });
  expect(res.status, res.text).toBe(201);
  return res.json as { id: string; secret: string; url: string; events: string[] };
}

async function until<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const verify = (secret: string, r: Received) =>
  new Webhook(secret).verify(r.body, {
    "webhook-id": String(r.headers["webhook-id"]),
    "webhook-timestamp": String(r.headers["webhook-timestamp"]),
    "webhook-signature": String(r.headers["webhook-signature"]),
  }) as { type: string; timestamp: string; data: Record<string, unknown> };

type DeliveryJson = { id: string; status: string; webhookId: string; eventType: string; attempts: { statusCode: number | null; error: string | null; manual: boolean; durationMs: number }[] };
const deliveries = async (id: string, who: Client = dealer) => {
  const res = await who.get(`/api/webhooks/${id}/deliveries`);
  expect(res.status).toBe(200);
  return res.json.deliveries as DeliveryJson[];
};

async function createAssessment(title: string) {
  const res = await dealer.post("/api/assessments", { title, mediaUrls: [await uploadMedia(dealer)] });
  expect(res.status, res.text).toBe(201);
  return res.json.id as string;
}

describe("webhook endpoints", () => {
  it("answers the whsec_ secret once; lists, reads and edits without it", async () => {
    const created = await endpoint("/once", ["assessment.created"]);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const listed = await dealer.get("/api/webhooks");
    expect(listed.text).not.toContain(created.secret);
    expect(listed.json.map((e: { id: string }) => e.id)).toContain(created.id);
    const edited = await dealer.put(`/api/webhooks/${created.id}`, { events: ["email.failed", "email.failed"], description: "CRM" });
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({ events: ["email.failed"], description: "CRM", url: receiver.url("/once") });
    expect(edited.text).not.toContain("whsec_");
    expect((await dealer.get(`/api/webhooks/${created.id}`)).text).not.toContain("whsec_");
  });

  it("refuses bad bodies with the field's message and changes nothing", async () => {
    const cases: [unknown, string][] = [
      [{ url: "ftp://example.com/x", events: ["assessment.created"] }, "url"],
      [{ url: "https://user:pw@example.com/x", events: ["assessment.created"] }, "url"],
      [{ url: receiver.url("/x"), events: [] }, "events"],
      [{ url: receiver.url("/x"), events: ["assessment.exploded"] }, "events.0"],
      [{ url: { $gt: "" }, events: ["assessment.created"] }, "url"],
      [{ url: receiver.url("/x"), events: "assessment.created,email.failed" }, "events.0"],
    ];
    const before = await WebhookEndpoint.countDocuments({ ownerId: dealerId });
    for (const [body, field] of cases) {
      const res = await dealer.post("/api/webhooks", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json.errors)).toContain(field);
    }
    expect(await WebhookEndpoint.countDocuments({ ownerId: dealerId })).toBe(before);
  });

  it("refuses private, loopback, link-local and metadata URLs at save (OUTBOUND_ALLOW names only 127.0.0.1)", async () => {
    for (const url of ["http://127.0.0.2:9/hook", "http://169.254.169.254/latest/meta-data", "http://10.0.0.5/hook", "http://[::1]:9/hook", "http://[::ffff:127.0.0.2]:9/x"]) {
      const res = await dealer.post("/api/webhooks", { url, events: ["assessment.created"] });
      expect(res.status, url).toBe(400);
      expect(res.json.errors.url, url).toMatch(/private or local network/);
    }
  });
});

describe("webhook deliveries", () => {
  it("delivers exactly the subscribed events, signed per Standard Webhooks (the standardwebhooks package verifies)", async () => {
    const wanted = await endpoint("/created", ["assessment.created"]);
    const unwanted = await endpoint("/updated-only", ["estimate.updated"]);
    const off = await endpoint("/off", ["assessment.created"]);
    expect((await dealer.put(`/api/webhooks/${off.id}`, { enabled: false })).status).toBe(200);
    const id = await createAssessment("Blue Civic");
    const [got] = await until("the created event", () => receiver.on("/created").length > 0 && receiver.on("/created"));
    const payload = verify(wanted.secret, got);
    expect(payload).toMatchObject({ type: "assessment.created", data: { id, title: "Blue Civic", status: "uploaded" } });
    expect(got.headers["webhook-id"]).toMatch(/^msg_[a-f0-9]{24}$/);
    expect(got.headers["content-type"]).toBe("application/json");
    // Another endpoint's secret does not verify it.
    expect(() => verify(unwanted.secret, got)).toThrow();
    await new Promise((r) => setTimeout(r, 1_000));
    expect(receiver.on("/created")).toHaveLength(1);
    expect(receiver.on("/updated-only")).toHaveLength(0);
    expect(receiver.on("/off")).toHaveLength(0);
    const log = await deliveries(wanted.id);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ status: "delivered", eventType: "assessment.created", webhookId: got.headers["webhook-id"] });
    expect(log[0].attempts[0].statusCode).toBe(200);
    expect(log[0].attempts[0].durationMs).toBeGreaterThanOrEqual(0);
  });

  it("retries after a 500 and after a timeout, with the same webhook-id, until a 2xx", async () => {
    receiver.script("/flaky", [500, "hang", 204]);
    const flaky = await endpoint("/flaky", ["assessment.created"]);
    await createAssessment("Red Golf");
    const log = await until("three attempts", async () => {
      const [d] = await deliveries(flaky.id);
      return d?.status === "delivered" && d;
    });
    expect(log.attempts.map((a) => a.statusCode)).toEqual([500, null, 204]);
    expect(log.attempts[1].error).toMatch(/No answer within 1000 ms/);
    const ids = new Set(receiver.on("/flaky").map((r) => r.headers["webhook-id"]));
    expect(receiver.on("/flaky")).toHaveLength(3);
    expect(ids.size).toBe(1);
    for (const r of receiver.on("/flaky")) expect(verify(flaky.secret, r).type).toBe("assessment.created");
  });

  it("Redeliver sends the same event again now; another account's delivery is not found", async () => {
    const hook = await endpoint("/redeliver", ["assessment.created"]);
    await createAssessment("Grey Polo");
    const [first] = await until("a delivery", async () => (await deliveries(hook.id)).filter((d) => d.status === "delivered").length === 1 && deliveries(hook.id));
    expect((await other.post(`/api/webhook-deliveries/${first.id}/redeliver`)).status).toBe(404);
    expect((await other.post(`/api/webhook-deliveries/${new Types.ObjectId().toHexString()}/redeliver`)).status).toBe(404);
    expect(receiver.on("/redeliver")).toHaveLength(1);
    const res = await dealer.post(`/api/webhook-deliveries/${first.id}/redeliver`);
    expect(res.status).toBe(202);
    await until("the second copy", () => receiver.on("/redeliver").length === 2);
    const [a, b] = receiver.on("/redeliver");
    expect(b.headers["webhook-id"]).toBe(a.headers["webhook-id"]);
    expect(verify(hook.secret, b)).toEqual(verify(hook.secret, a));
    const again = await until("the manual attempt", async () => {
      const [d] = await deliveries(hook.id);
      return d.attempts.length === 2 && d.status === "delivered" && d;
    });
    expect(again.attempts.map((x) => x.manual)).toEqual([false, true]);
  });

  it("a rotated secret signs at once, and the old one beside it for a day", async () => {
    const hook = await endpoint("/rotated", ["assessment.created"]);
    const rotated = await dealer.post(`/api/webhooks/${hook.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.json.secret).toMatch(/^whsec_/);
    expect(rotated.json.secret).not.toBe(hook.secret);
    await createAssessment("White Up");
    const [got] = await until("the event", () => receiver.on("/rotated").length > 0 && receiver.on("/rotated"));
    expect(verify(rotated.json.secret, got).type).toBe("assessment.created");
    expect(verify(hook.secret, got).type).toBe("assessment.created");
    expect(String(got.headers["webhook-signature"]).split(" ")).toHaveLength(2);
  });

  it("never connects to a refused address, even one that was allowed when it was saved", async () => {
    const hook = await endpoint("/sneaky", ["assessment.created"]);
    // As if its name now resolved elsewhere (DNS rebinding): 127.0.0.2 is loopback, not allowed.
    await WebhookEndpoint.updateOne({ _id: hook.id }, { $set: { url: `http://127.0.0.2:${receiver.port}/sneaky` } });
    await createAssessment("Black Astra");
    const [d] = await until("the refused attempt", async () => {
      const [x] = await deliveries(hook.id);
      return x && x.attempts.length > 0 && [x];
    });
    expect(d.attempts[0].statusCode).toBeNull();
    expect(d.attempts[0].error).toMatch(/127\.0\.0\.2 is on a private or local network/);
    expect(receiver.on("/sneaky")).toHaveLength(0);
    await dealer.del(`/api/webhooks/${hook.id}`);
  });

  it("keeps an estimate's events in order when an earlier one has to be retried", async () => {
    receiver.script("/ordered", [500, 200]);
    const hook = await endpoint("/ordered", ["estimate.updated"]);
    const orderKey = new Types.ObjectId().toHexString();
    for (const n of [1, 2, 3]) await emitEvent({ ownerId: dealerId, type: "estimate.updated", data: { ...WEBHOOK_EXAMPLE_DATA["estimate.updated"], title: JSON.stringify({ n }) }, orderKey });
    await until("three deliveries", () => receiver.on("/ordered").length >= 4, 15_000);
    const delivered = receiver.on("/ordered").map((r) => (JSON.parse((verify(hook.secret, r).data as { title: string }).title) as { n: number }).n);
    // The first attempt of 1 failed; 2 and 3 waited for its retry.
    expect(delivered).toEqual([1, 1, 2, 3]);
  });

  it("disables an endpoint after its schedule fails throughout, cancels what waits, and emails the account", async () => {
    receiver.script("/down", [503]);
    const hook = await endpoint("/down", ["assessment.created"]);
    await createAssessment("Green Clio");
    const disabled = await until("the disable", async () => {
      const res = await dealer.get(`/api/webhooks/${hook.id}`);
      return res.json.enabled === false && res.json;
    });
    expect(disabled.disabledReason).toMatch(/HTTP 503/);
    const [d] = await deliveries(hook.id);
    expect(d.status).toBe("failed");
    expect(d.attempts.map((a) => a.statusCode)).toEqual([503, 503, 503]);
    const notice = await until("the notice", () => EmailLog.findOne({ ownerId: dealerId, subject: "Webhook endpoint disabled" }).lean());
    expect(notice!.text).toContain(receiver.url("/down"));
    // Disabled: later events are not queued for it; turned on again, they are.
    await createAssessment("Green Clio 2");
    await new Promise((r) => setTimeout(r, 800));
    expect(receiver.on("/down")).toHaveLength(3);
    receiver.script("/down", [200]);
    const on = await dealer.put(`/api/webhooks/${hook.id}`, { enabled: true });
    expect(on.json).toMatchObject({ enabled: true, disabledReason: null });
    expect((await dealer.post(`/api/webhook-deliveries/${d.id}/redeliver`)).status).toBe(202);
    await until("the redelivered event", () => receiver.on("/down").length === 4);
  });
});

describe("webhook tenancy", () => {
  it("a deleted account leaves no endpoint, event or delivery behind", async () => {
    const c = await createTestUser({ role: "dealer" });
    const root = await createTestUser({ role: "admin" });
    const hook = await endpoint("/deleted", ["assessment.created"], client(app, { token: await tokenFor(c.id) }));
    await emitEvent({ ownerId: c.id, type: "assessment.created", data: WEBHOOK_EXAMPLE_DATA["assessment.created"] });
    await until("its delivery", () => receiver.on("/deleted").length === 1);
    const admin = client(app, { cookie: await signIn(app, root.username, root.password) });
    expect((await admin.del(`/api/admin/users/${c.id}`, { Origin: app.url })).status).toBe(200);
    const left = await Promise.all([WebhookEndpoint, WebhookEvent, WebhookDelivery].map((m) => (m as typeof WebhookEndpoint).countDocuments({ ownerId: c.id })));
    expect(left).toEqual([0, 0, 0]);
    expect(await WebhookEndpoint.findById(hook.id).lean()).toBeNull();
  });


  it("another account's endpoints and logs are not found, by any method, and unchanged", async () => {
    const mine = await endpoint("/mine", ["assessment.created"]);
    const theirs = await endpoint("/theirs", ["assessment.created"], other);
    const paths = [`/api/webhooks/${mine.id}`, `/api/webhooks/${mine.id}/deliveries`];
    for (const path of paths) expect((await other.get(path)).status, path).toBe(404);
    expect((await other.put(`/api/webhooks/${mine.id}`, { url: receiver.url("/stolen") })).status).toBe(404);
    expect((await other.post(`/api/webhooks/${mine.id}/rotate-secret`)).status).toBe(404);
    expect((await other.del(`/api/webhooks/${mine.id}`)).status).toBe(404);
    expect((await other.get(`/api/webhooks/not-an-id`)).status).toBe(404);
    const list = await other.get("/api/webhooks");
    expect(list.json.map((e: { id: string }) => e.id)).toEqual([theirs.id]);
    expect(list.text).not.toContain(receiver.url("/mine"));
    const still = await dealer.get(`/api/webhooks/${mine.id}`);
    expect(still.json.url).toBe(receiver.url("/mine"));
    // Ids are ours: a client-chosen id or owner in the body is ignored.
    const forged = await other.post("/api/webhooks", { url: receiver.url("/forged"), events: ["email.failed"], id: mine.id, ownerId: dealerId });
    expect(forged.status).toBe(201);
    expect(forged.json.id).not.toBe(mine.id);
    expect(await WebhookEndpoint.countDocuments({ ownerId: dealerId, url: receiver.url("/forged") })).toBe(0);
    // B's events never reach A's endpoints.
    const before = receiver.on("/mine").length;
    await emitEvent({ ownerId: (await WebhookEndpoint.findById(theirs.id).lean())!.ownerId, type: "assessment.created", data: WEBHOOK_EXAMPLE_DATA["assessment.created"] });
    await until("B's own delivery", () => receiver.on("/theirs").length === 1);
    expect(receiver.on("/mine")).toHaveLength(before);
  });
});
