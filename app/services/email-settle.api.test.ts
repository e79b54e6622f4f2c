import { Types } from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Assessment } from "~/models/assessment.server";
import { EmailLog, recordHeldAccepted } from "~/models/email-log.server";
import { tenancyClients } from "../../tests/accounts";
import { ALLOW_LOCAL_MAIL_SERVERS, startApp, type RunningApp } from "../../tests/app-server";
import { startSmtpServer, type TestSmtpServer } from "../../tests/smtp-server";
import { useTestDb } from "../../tests/test-db";

// Settling an email whose delivery is unknown (issue 41 item 5, docs/decisions/0054) over HTTP against
// the running app and the real database: Resend queues one new send (once, however often asked) and
// records who asked; Mark delivered turns it sent; another account's id is a 404, a bad body a 400,
// an email that is not unknown a 409 — and none of them changes anything. The dashboard counts the
// unknown emails until each is settled.

let app: RunningApp;
let smtp: TestSmtpServer;
let clients: Awaited<ReturnType<typeof tenancyClients>>;

beforeAll(async () => {
  await useTestDb();
  smtp = await startSmtpServer();
  app = await startApp({ env: { ...ALLOW_LOCAL_MAIL_SERVERS, SMTP_HOST: "127.0.0.1", SMTP_PORT: String(smtp.port), MAIL_FROM: "DamageIQ <estimates@example.com>" } });
  clients = await tenancyClients(app);
});
afterAll(async () => {
  await app?.stop();
  await smtp?.close();
});

const attemptAt = new Date("2026-11-20T10:00:00Z");

/** An estimate email whose worker stopped while handing it over: unknown, as recovery leaves it. */
async function unknownEmail(ownerId: string, fields: Record<string, unknown> = {}) {
  const _id = new Types.ObjectId();
  const assessment = await Assessment.create({ ownerId, title: "Blue Civic", status: "reviewed", estimatedCost: 900 });
  await EmailLog.create({
    _id,
    ownerId,
    kind: "estimate",
    idempotencyKey: `k-${_id.toHexString()}`,
    recipientEmail: "jane@example.com",
    subject: `Your estimate ${_id.toHexString().slice(-6)}`,
    html: "<p>Hello</p>",
    text: "Hello",
    assessmentId: assessment._id,
    assessmentTitle: "Blue Civic",
    status: "unknown",
    messageId: `<${_id.toHexString()}@example.com>`,
    attempts: [{ at: attemptAt, finishedAt: attemptAt, outcome: "unknown", error: "The worker stopped", workerId: "dead" }],
    lastError: "The worker stopped while handing the message to smtp: not sent again",
    workerId: "dead",
    ...fields,
  });
  return { id: _id.toHexString(), assessmentId: String(assessment._id) };
}

const stored = (id: string) => EmailLog.findById(id).lean<Record<string, unknown>>();

async function dashboardCount(c: (typeof clients)["dealerA"]) {
  const res = await c.get("/");
  const html = res.text;
  const found = /data-testid="unknown-emails-count"[^>]*>(\d+)</.exec(html);
  return found ? Number(found[1]) : 0;
}

describe("an email of unknown delivery", () => {
  it("Resend queues one new send of the same message, once however often asked, and the old one says who resent it", async () => {
    const { id } = await unknownEmail(clients.aId);
    const first = await clients.dealerA.post(`/api/email-logs/${id}/resend`);
    expect(first.status).toBe(202);
    expect(first.json).toMatchObject({ status: "pending", recipientEmail: "jane@example.com", kind: "estimate", settlement: null });
    expect(first.json.id).not.toBe(id);
    const again = await clients.dealerA.post(`/api/email-logs/${id}/resend`);
    expect(again.status).toBe(202);
    expect(again.json.id).toBe(first.json.id);

    const old = (await clients.dealerA.get(`/api/email-logs/${id}`)).json;
    expect(old.status).toBe("unknown");
    expect(old.statusLabel).toBe("unknown (resent)");
    expect(old.settlement).toMatchObject({ action: "resent", byId: clients.aId, resentAs: first.json.id });
    // The new send goes out, once.
    await expect.poll(async () => (await clients.dealerA.get(`/api/email-logs/${first.json.id}`)).json.status, { timeout: 15_000 }).toBe("sent");
    const sent = (await clients.dealerA.get(`/api/email-logs/${first.json.id}`)).json;
    expect(smtp.withMessageId(sent.messageId)).toHaveLength(1);
    expect(await EmailLog.countDocuments({ ownerId: clients.aId, idempotencyKey: `resend:${id}` })).toBe(1);
    // Settled: Mark delivered is refused now, and nothing changes.
    const refused = await clients.dealerA.post(`/api/email-logs/${id}/mark-delivered`);
    expect(refused.status).toBe(409);
    expect((await stored(id))?.status).toBe("unknown");
  });

  it("Mark delivered turns it sent at its attempt's time, and its estimate sent; asked again, the same", async () => {
    const { id, assessmentId } = await unknownEmail(clients.aId);
    const res = await clients.dealerA.post(`/api/email-logs/${id}/mark-delivered`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id, status: "sent", sentAt: attemptAt.toISOString(), lastError: null, settlement: { action: "delivered", byId: clients.aId, resentAs: null } });
    const again = await clients.dealerA.post(`/api/email-logs/${id}/mark-delivered`);
    expect(again.status).toBe(200);
    expect(again.json.settlement.at).toBe(res.json.settlement.at);
    expect((await Assessment.findById(assessmentId).lean<{ status: string }>())?.status).toBe("sent");
    // Resend is refused now: it arrived.
    expect((await clients.dealerA.post(`/api/email-logs/${id}/resend`)).status).toBe(409);
    expect(await EmailLog.countDocuments({ idempotencyKey: `resend:${id}` })).toBe(0);
  });

  it("another account's id is a 404, a body with fields a 400, an email that is not unknown a 409: nothing changes", async () => {
    const { id } = await unknownEmail(clients.aId);
    const before = await stored(id);
    for (const op of ["resend", "mark-delivered"]) {
      expect((await clients.dealerB.post(`/api/email-logs/${id}/${op}`)).status).toBe(404);
      expect((await clients.dealerA.post(`/api/email-logs/not-an-id/${op}`)).status).toBe(404);
      expect((await clients.dealerA.post(`/api/email-logs/${new Types.ObjectId().toHexString()}/${op}`)).status).toBe(404);
      const bad = await clients.dealerA.post(`/api/email-logs/${id}/${op}`, { force: true });
      expect(bad.status).toBe(400);
    }
    expect(await stored(id)).toEqual(before);
    expect(await EmailLog.countDocuments({ idempotencyKey: `resend:${id}` })).toBe(0);

    const { id: sentId } = await unknownEmail(clients.aId, { status: "sent", sentAt: attemptAt });
    const sentBefore = await stored(sentId);
    expect((await clients.dealerA.post(`/api/email-logs/${sentId}/resend`)).status).toBe(409);
    expect((await clients.dealerA.post(`/api/email-logs/${sentId}/mark-delivered`)).status).toBe(409);
    expect(await stored(sentId)).toEqual(sentBefore);
    // An admin settles any account's.
    expect((await clients.admin.post(`/api/email-logs/${id}/mark-delivered`)).status).toBe(200);
  });

  it("a worker's held acceptance is not written over the dealer's settlement", async () => {
    const { id } = await unknownEmail(clients.aId);
    expect((await clients.dealerA.post(`/api/email-logs/${id}/resend`)).status).toBe(202);
    const claim = { id: new Types.ObjectId(id), workerId: "dead", attempt: 0 };
    expect(await recordHeldAccepted({ claim, response: "250 Ok", localDrop: false, at: new Date() })).toBeNull();
    expect((await stored(id))?.status).toBe("unknown");
    // Unsettled, the held acceptance is written (the worker held what the server answered).
    const { id: other } = await unknownEmail(clients.aId);
    const written = await recordHeldAccepted({ claim: { ...claim, id: new Types.ObjectId(other) }, response: "250 Ok", localDrop: false, at: attemptAt });
    expect(written).toMatchObject({ status: "sent" });
    expect(written?.attempts[0]).toMatchObject({ outcome: "accepted", response: "250 Ok" });
  });

  it("is counted on the dashboard until it is settled", async () => {
    // A fresh account of its own (cookie: the dashboard is a screen).
    const fresh = await tenancyClients(app);
    const dealerA = fresh.dealerA;
    const ownerId = fresh.aId;
    expect(await dashboardCount(dealerA)).toBe(0);
    const one = await unknownEmail(ownerId);
    const two = await unknownEmail(ownerId);
    expect(await dashboardCount(dealerA)).toBe(2);
    await dealerA.post(`/api/email-logs/${one.id}/resend`);
    expect(await dashboardCount(dealerA)).toBe(1);
    await dealerA.post(`/api/email-logs/${two.id}/mark-delivered`);
    expect(await dashboardCount(dealerA)).toBe(0);
  });
});
