import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Types } from "mongoose";
import { Assessment } from "~/models/assessment.server";
import { Contact } from "~/models/contact.server";
import { EmailLog } from "~/models/email-log.server";
import { User } from "~/models/user.server";
import { client, createTestUser, signIn, tokenFor } from "../../tests/accounts";
import { ALLOW_LOCAL_MAIL_SERVERS, startApp, type RunningApp } from "../../tests/app-server";
import { startSmtpServer, type TestSmtpServer } from "../../tests/smtp-server";
import { startTokenApp } from "../../tests/signed-in-app";
import { uploadMedia } from "../../tests/uploads";

// Delivery through the outbox to a real SMTP server (smtp-server, read back with mailparser): the
// PDF attached and the variables filled, the server down then up (one message after a retry), a
// refused login (failed with the reason, and the delivery-status notice), a repeated
// Idempotency-Key (one message), and the worker killed between the server's acceptance and the
// record (no second message), plus recovery of attempts abandoned at the other steps.

type Client = ReturnType<typeof client>;
let smtp: TestSmtpServer;
let app: RunningApp;
let dealer: Client;
let dealerId: string;

const ENV = (port: number) => ({
  ...ALLOW_LOCAL_MAIL_SERVERS,
  SMTP_HOST: "127.0.0.1",
  SMTP_PORT: String(port),
  MAIL_FROM: "DamageIQ <estimates@example.com>",
  // Milliseconds: a retry 1.5 s after a failure; a dead worker's attempt is looked at after 1 s.
  EMAIL_RETRY_DELAYS: "1500,1500,1500",
  EMAIL_LEASE_MS: "1000",
});

beforeAll(async () => {
  smtp = await startSmtpServer();
  ({ app, dealerId, dealer } = await startTokenApp({ env: ENV(smtp.port) }));
});
afterAll(async () => {
  await app?.stop();
  await smtp?.close();
});

async function contact(email = "jane@example.com") {
  const res = await dealer.post("/api/contacts", { firstName: "Jane", lastName: "Doe", email });
  expect(res.status).toBe(201);
  return res.json.id as string;
}

async function assessment(fields: Record<string, unknown> = {}) {
  const doc = await Assessment.create({
    ownerId: dealerId,
    title: "Silver Camry",
    vehicleYear: 2019,
    vehicleMake: "Toyota",
    vehicleModel: "Camry",
    status: "reviewed",
    estimatedCost: 1234.5,
    ...fields,
  });
  return String(doc._id);
}

type Log = { id: string; status: string; messageId: string; lastError: string | null; attempts: { outcome: string; error: string | null; response: string | null }[] };

async function waitForLog(c: Client, id: string, done: (log: Log) => boolean, timeoutMs = 15_000): Promise<Log> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await c.get(`/api/email-logs/${id}`);
    expect(res.status).toBe(200);
    if (done(res.json)) return res.json;
    if (Date.now() > deadline) throw new Error(`log ${id}: ${JSON.stringify(res.json)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("delivery to a real SMTP server", () => {
  it("sends the estimate with its PDF and the variables filled; the assessment turns sent only then", async () => {
    const id = await assessment();
    const contactId = await contact("jane.doe@example.com");
    const template = await dealer.post("/api/email-templates", {
      name: "Estimate",
      subject: "Estimate for {{contact.firstName}} {{contact.lastName}}: {{assessment.vehicle}}",
      htmlContent: "<p>{{contact.email}} · {{assessment.title}} · {{assessment.estimatedCost}} · {{date}}</p>",
    });
    const res = await dealer.post(`/api/assessments/${id}/send-email`, { contactId, templateId: template.json.id, additionalMessage: "Thanks <3" });
    expect(res.status).toBe(202);
    expect(res.json.status).toBe("pending");
    const log = await waitForLog(dealer, res.json.id, (l) => l.status === "sent");
    expect(log.attempts).toHaveLength(1);
    expect(log.attempts[0].response).toMatch(/^250 .*queued as/);

    const [mail] = smtp.withMessageId(log.messageId);
    expect(mail.envelope).toEqual({ from: "estimates@example.com", to: ["jane.doe@example.com"] });
    // The customer's inbox names the dealership (its name, as the PDF's header does); the address stays MAIL_FROM's.
    const owner = await User.findById(dealerId).lean<{ firstName: string; lastName: string }>();
    expect(mail.parsed.from?.value).toEqual([{ name: `${owner!.firstName} ${owner!.lastName}`, address: "estimates@example.com" }]);
    expect(mail.parsed.subject).toBe("Estimate for Jane Doe: 2019 Toyota Camry");
    expect(mail.parsed.headers.has("auto-submitted")).toBe(false); // a person sent it
    expect(mail.parsed.html).toContain("jane.doe@example.com · Silver Camry · $1,234.50 · ");
    expect(mail.parsed.html).toContain("Thanks &lt;3");
    expect(mail.parsed.text).toContain("Thanks <3");
    const [pdf] = mail.parsed.attachments;
    // Named by the estimate's number and its vehicle, not an internal id.
    expect(pdf).toMatchObject({ contentType: "application/pdf", filename: `Estimate ${id.slice(-8).toUpperCase()} - 2019 Toyota Camry.pdf` });
    expect(pdf.content.subarray(0, 5).toString()).toBe("%PDF-");
    // The log is recorded sent first, the assessment right after it.
    const after = await vi.waitFor(async () => {
      const found = await Assessment.findById(id).lean<{ status: string; audit: { action: string }[] }>();
      expect(found?.status).toBe("sent");
      return found;
    });
    expect(after?.audit.at(-1)?.action).toBe("estimate emailed");
  });

  it("a repeated Idempotency-Key answers the first send: one message", async () => {
    const id = await assessment();
    const contactId = await contact();
    const key = `retry-${new Types.ObjectId().toHexString()}`;
    const answers = await Promise.all([1, 2, 3].map(() => dealer.post(`/api/assessments/${id}/send-email`, { contactId }, { "Idempotency-Key": key })));
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202]);
    expect(new Set(answers.map((a) => a.json.id)).size).toBe(1);
    const log = await waitForLog(dealer, answers[0].json.id, (l) => l.status === "sent");
    const later = await dealer.post(`/api/assessments/${id}/send-email`, { contactId }, { "Idempotency-Key": key });
    expect(later.json).toMatchObject({ id: log.id, status: "sent" });
    expect(later.headers.get("idempotent-replayed")).toBe("true");
    expect(await EmailLog.countDocuments({ ownerId: dealerId, idempotencyKey: key })).toBe(1);
    expect(smtp.withMessageId(log.messageId)).toHaveLength(1);
  });

  it("the same Idempotency-Key with another body or assessment is 409 and queues nothing", async () => {
    const id = await assessment();
    const otherId = await assessment();
    const contactId = await contact();
    const key = `reuse-${new Types.ObjectId().toHexString()}`;
    const first = await dealer.post(`/api/assessments/${id}/send-email`, { contactId }, { "Idempotency-Key": key });
    expect(first.status).toBe(202);
    const refusals = [
      await dealer.post(`/api/assessments/${id}/send-email`, { contactId, additionalMessage: "Another note" }, { "Idempotency-Key": key }),
      // Another body even if the send would not differ: the key names the bytes (docs/decisions/0017).
      await dealer.post(`/api/assessments/${id}/send-email`, { contactId, extra: 1 }, { "Idempotency-Key": key }),
      await dealer.post(`/api/assessments/${otherId}/send-email`, { contactId }, { "Idempotency-Key": key }),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(409);
      expect(res.json).toEqual({
        message: "This Idempotency-Key was already used with a different request",
        errors: { "Idempotency-Key": "This Idempotency-Key was already used with a different request" },
      });
    }
    // The same request again still answers the first send.
    const again = await dealer.post(`/api/assessments/${id}/send-email`, { contactId }, { "Idempotency-Key": key });
    expect(again.status).toBe(202);
    expect(again.json.id).toBe(first.json.id);
    expect(await EmailLog.countDocuments({ ownerId: dealerId, idempotencyKey: key })).toBe(1);
    expect(await EmailLog.countDocuments({ ownerId: dealerId, assessmentId: otherId })).toBe(0);
  });

  it("keeps a message while the server is down and delivers it once after a retry", async () => {
    const id = await assessment();
    const contactId = await contact();
    await smtp.down();
    let log: Log;
    try {
      const res = await dealer.post(`/api/assessments/${id}/send-email`, { contactId });
      log = await waitForLog(dealer, res.json.id, (l) => l.attempts.some((a) => a.outcome === "failed"));
      expect(log.status).toBe("pending");
      expect(log.lastError).toMatch(/ECONNREFUSED/);
      expect((await Assessment.findById(id).lean<{ status: string }>())?.status).toBe("reviewed");
    } finally {
      await smtp.up();
    }
    log = await waitForLog(dealer, log.id, (l) => l.status === "sent");
    expect(log.attempts.map((a) => a.outcome)).toEqual(["failed", "accepted"]);
    expect(smtp.withMessageId(log.messageId)).toHaveLength(1);
    // The log records the server's acceptance first, then the assessment moves: a moment apart.
    await vi.waitFor(async () => expect((await Assessment.findById(id).lean<{ status: string }>())?.status).toBe("sent"), { timeout: 5000, interval: 50 });
  });

  it("fails with the server's reason when the login is refused, and tells the account (delivery status)", async () => {
    const guarded = await startSmtpServer({ auth: { user: "shop", pass: "right" } });
    try {
      const saved = await dealer.put("/api/email/settings", { host: "127.0.0.1", port: guarded.port, user: "shop", password: "wrong" });
      expect(saved.status).toBe(200);
      const test = await dealer.get("/api/email/test");
      expect(test.json).toMatchObject({ connected: false, via: "account" });
      // Our words, not the server's reply.
      expect(test.json.reason).toBe(`127.0.0.1:${guarded.port}: the mail server did not accept the user name or password`);

      const id = await assessment();
      const customer = await contact();
      const res = await dealer.post(`/api/assessments/${id}/send-email`, { contactId: customer });
      const log = await waitForLog(dealer, res.json.id, (l) => l.status === "failed");
      expect(log.attempts).toHaveLength(1); // a refused login is not retried
      expect(log.lastError).toMatch(/535 Authentication failed/);
      expect((await Assessment.findById(id).lean<{ status: string }>())?.status).toBe("reviewed");
      // The notice is queued right after the failure is recorded.
      const notice = await vi.waitFor(async () => {
        const found = await EmailLog.findOne({ ownerId: dealerId, idempotencyKey: `delivery-failed:${log.id}` }).lean<{ recipientEmail: string; subject: string }>();
        expect(found).toBeTruthy();
        return found;
      });
      expect(notice?.subject).toBe(`Email delivery failed: ${res.json.subject}`);

      // The right password (stored encrypted) gets through.
      await dealer.put("/api/email/settings", { host: "127.0.0.1", port: guarded.port, user: "shop", password: "right" });
      expect((await dealer.get("/api/email/test")).json).toMatchObject({ connected: true, via: "account" });
      // Sent again to the customer it was sent to (now its customer of record).
      const ok = await dealer.post(`/api/assessments/${id}/send-email`, { contactId: customer });
      const sent = await waitForLog(dealer, ok.json.id, (l) => l.status === "sent");
      expect(guarded.withMessageId(sent.messageId)).toHaveLength(1);
    } finally {
      await dealer.put("/api/email/settings", { clearPassword: true });
      await guarded.close();
    }
  });

  it("honours the delivery-status switch: off, a failure sends no notice", async () => {
    const guarded = await startSmtpServer({ auth: { user: "shop", pass: "right" } });
    await User.updateOne({ _id: dealerId }, { $set: { "notifications.deliveryStatus": false } });
    try {
      await dealer.put("/api/email/settings", { host: "127.0.0.1", port: guarded.port, user: "shop", password: "wrong" });
      const res = await dealer.post(`/api/assessments/${await assessment()}/send-email`, { contactId: await contact() });
      const log = await waitForLog(dealer, res.json.id, (l) => l.status === "failed");
      expect(await EmailLog.countDocuments({ idempotencyKey: `delivery-failed:${log.id}` })).toBe(0);
    } finally {
      await User.updateOne({ _id: dealerId }, { $set: { "notifications.deliveryStatus": true } });
      await dealer.put("/api/email/settings", { clearPassword: true });
      await guarded.close();
    }
  });
});

describe("mail abuse: whose name a message carries, and to how many", () => {
  const fromOf = (mail: { parsed: { from?: { value: { address?: string }[] }; replyTo?: { value: { address?: string }[] } } }) => ({
    from: mail.parsed.from?.value.map((a) => a.address),
    replyTo: mail.parsed.replyTo?.value.map((a) => a.address),
  });

  it("through the operator's relay: From the operator's MAIL_FROM, the account's address in Reply-To", async () => {
    // The account names itself as someone else in Settings → Email but has no server of its own.
    const saved = await dealer.put("/api/email/settings", { from: "ceo@bank.example" });
    expect(saved.status).toBe(200);
    try {
      const res = await dealer.post(`/api/assessments/${await assessment()}/send-email`, { contactId: await contact() });
      const log = await waitForLog(dealer, res.json.id, (l) => l.status === "sent");
      const [mail] = smtp.withMessageId(log.messageId);
      expect(fromOf(mail)).toEqual({ from: ["estimates@example.com"], replyTo: ["ceo@bank.example"] });
      expect(mail.envelope.from).toBe("estimates@example.com");
    } finally {
      await dealer.put("/api/email/settings", {});
    }
    // Without a From of its own: the account's email answers.
    const res = await dealer.post(`/api/assessments/${await assessment()}/send-email`, { contactId: await contact() });
    const log = await waitForLog(dealer, res.json.id, (l) => l.status === "sent");
    const account = await User.findById(dealerId).lean<{ email: string }>();
    expect(fromOf(smtp.withMessageId(log.messageId)[0])).toEqual({ from: ["estimates@example.com"], replyTo: [account?.email] });
  });

  it("through the account's own server: its own From", async () => {
    const own = await startSmtpServer();
    try {
      await dealer.put("/api/email/settings", { host: "127.0.0.1", port: own.port, from: "service@shop.example" });
      const res = await dealer.post(`/api/assessments/${await assessment()}/send-email`, { contactId: await contact() });
      const log = await waitForLog(dealer, res.json.id, (l) => l.status === "sent");
      expect(fromOf(own.withMessageId(log.messageId)[0]).from).toEqual(["service@shop.example"]);
    } finally {
      await dealer.put("/api/email/settings", {});
      await own.close();
    }
  });

  const LISTS = ["a@example.com, b@example.com", "a@example.com;b@example.com", "a@example.com b@example.com", "Team: a@example.com, b@example.com;", "Jane <a@example.com>", "a@example.com\nBcc: b@example.com"];

  it.each(LISTS)("a contact's email that is not one address (%j) is a 400 on create and update", async (email) => {
    const created = await dealer.post("/api/contacts", { firstName: "List", lastName: "Contact", email });
    expect(created.status).toBe(400);
    expect(created.json.errors.email).toBe("Invalid email address");
    const id = await contact("one@example.com");
    const updated = await dealer.put(`/api/contacts/${id}`, { firstName: "List", lastName: "Contact", email });
    expect(updated.status).toBe(400);
    expect((await dealer.get(`/api/contacts/${id}`)).json.email).toBe("one@example.com");
  });

  it("a stored contact whose email is a list is refused at send: 400, nothing queued", async () => {
    const listed = await Contact.create({ ownerId: dealerId, firstName: "Many", lastName: "People", email: LISTS[0] });
    const before = await EmailLog.countDocuments({ ownerId: dealerId });
    const res = await dealer.post(`/api/assessments/${await assessment()}/send-email`, { contactId: String(listed._id) });
    expect(res.status).toBe(400);
    expect(res.json.errors.contactId).toBe("The contact's email is not a single valid address");
    expect(await EmailLog.countDocuments({ ownerId: dealerId })).toBe(before);
  });
});

describe("never twice: a worker that dies mid-delivery", () => {
  it("killed after the server accepted but before recording it: the message is not sent again", async () => {
    const id = await assessment();
    const contactId = await contact();
    const killed = new Promise<void>((resolve) => {
      smtp.onMessage = () => {
        smtp.onMessage = undefined;
        app.process.kill("SIGKILL");
        resolve();
      };
    });
    const res = await dealer.post(`/api/assessments/${id}/send-email`, { contactId });
    expect(res.status).toBe(202);
    await killed;
    await new Promise<void>((resolve) => (app.process.exitCode !== null || app.process.signalCode ? resolve() : app.process.once("exit", () => resolve())));
    const inFlight = await EmailLog.findById(res.json.id).lean<{ inFlight: boolean; status: string }>();
    expect(inFlight).toMatchObject({ inFlight: true, status: "pending" });

    // The next start finds the abandoned attempt once its lease ran out.
    await app.stop();
    app = await startApp({ env: ENV(smtp.port) });
    dealer = client(app, { token: await tokenFor(dealerId) });
    const log = await waitForLog(dealer, res.json.id, (l) => l.status !== "pending");
    expect(log.status).toBe("unknown");
    expect(log.lastError).toMatch(/not sent again/);
    expect(log.attempts.map((a) => a.outcome)).toEqual(["unknown"]);
    // The server holds it exactly once, and nothing arrives later.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(smtp.withMessageId(log.messageId)).toHaveLength(1);
    // The assessment was not marked sent on a guess, and the account was alerted (system alerts).
    expect((await Assessment.findById(id).lean<{ status: string }>())?.status).toBe("reviewed");
    expect(await EmailLog.countDocuments({ idempotencyKey: `delivery-unknown:${log.id}` })).toBe(1);
  });

  it("the connection breaks after the whole message left, before the server's reply: unknown, not sent again", async () => {
    const id = await assessment();
    smtp.onMessage = () => {
      smtp.onMessage = undefined;
      smtp.breakConnections();
    };
    const res = await dealer.post(`/api/assessments/${id}/send-email`, { contactId: await contact() });
    const log = await waitForLog(dealer, res.json.id, (l) => l.status !== "pending");
    expect(log.status).toBe("unknown");
    expect(log.attempts.map((a) => a.outcome)).toEqual(["unknown"]);
    expect(log.lastError).toMatch(/not sent again/);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(smtp.withMessageId(log.messageId)).toHaveLength(1);
    expect((await Assessment.findById(id).lean<{ status: string }>())?.status).toBe("reviewed");
  });

  it("died before anything left (no route recorded): recovery sends it, once", async () => {
    const res = await dealer.post(`/api/assessments/${await assessment()}/send-email`, { contactId: await contact() });
    const log = await waitForLog(dealer, res.json.id, (l) => l.status === "sent");
    // Rewind it to an attempt claimed by a worker that died before choosing a route.
    const past = new Date(Date.now() - 60_000);
    await EmailLog.updateOne(
      { _id: log.id },
      {
        $set: { status: "pending", inFlight: true, workerId: "dead-worker", leaseUntil: past, messageId: `<rewound-${log.id}@example.com>`, attempts: [{ at: past, outcome: "sending", workerId: "dead-worker" }] },
        $unset: { sentAt: 1 },
      },
    );
    const again = await waitForLog(dealer, log.id, (l) => l.status === "sent" && l.attempts.length === 2);
    expect(again.attempts.map((a) => a.outcome)).toEqual(["failed", "accepted"]);
    expect(smtp.withMessageId(`<rewound-${log.id}@example.com>`)).toHaveLength(1);
  });
});

describe("notifications and sign-in notices", () => {
  it("tells the account when an analysis completes, unless it turned that off", async () => {
    const analysed = async (title: string) => {
      const created = await dealer.post("/api/assessments", { title, mediaUrls: [await uploadMedia(dealer)] });
      expect(created.status).toBe(201);
      expect((await dealer.post(`/api/assessments/${created.json.id}/analyze`)).json.status).toBe("completed");
    };
    await analysed("Hail Civic");
    const notice = await EmailLog.findOne({ ownerId: dealerId, subject: "Assessment completed: Hail Civic" }).lean<{ recipientEmail: string; kind: string }>();
    expect(notice).toMatchObject({ kind: "notification", recipientEmail: (await User.findById(dealerId).lean<{ email: string }>())?.email });
    await User.updateOne({ _id: dealerId }, { $set: { "notifications.assessmentCompleted": false } });
    try {
      await analysed("Quiet Civic");
      expect(await EmailLog.countDocuments({ ownerId: dealerId, subject: "Assessment completed: Quiet Civic" })).toBe(0);
    } finally {
      await User.updateOne({ _id: dealerId }, { $set: { "notifications.assessmentCompleted": true } });
    }
  });

  it("queues a login notification only when the account turned it on", async () => {
    const user = await createTestUser({ role: "dealer" });
    await signIn(app, user.username, user.password);
    expect(await EmailLog.countDocuments({ ownerId: user.id })).toBe(0);
    await User.updateOne({ _id: user.id }, { $set: { loginNotifications: true } });
    await signIn(app, user.username, user.password);
    const [notice] = await EmailLog.find({ ownerId: user.id }).lean<{ subject: string; recipientEmail: string; _id: unknown }[]>();
    expect(notice).toMatchObject({ subject: "New sign-in to your DamageIQ account", recipientEmail: `${user.username}@example.com` });
    const owner = client(app, { token: await tokenFor(user.id) });
    const log = await waitForLog(owner, String(notice._id), (l) => l.status === "sent");
    const [mail] = smtp.withMessageId(log.messageId);
    expect(mail.parsed.text).toMatch(/If this was not you/);
    // RFC 3834: an automatic notice says so, so an auto-responder does not answer it.
    expect(mail.parsed.headers.get("auto-submitted")).toBe("auto-generated");
  });

  it("writes a notice in the account's language", async () => {
    const user = await createTestUser({ role: "dealer" });
    await User.updateOne({ _id: user.id }, { $set: { loginNotifications: true, language: "es" } });
    await signIn(app, user.username, user.password);
    const [notice] = await EmailLog.find({ ownerId: user.id }).lean<{ subject: string; _id: unknown }[]>();
    expect(notice.subject).toBe("Nuevo inicio de sesión en su cuenta de DamageIQ");
    const owner = client(app, { token: await tokenFor(user.id) });
    const log = await waitForLog(owner, String(notice._id), (l) => l.status === "sent");
    const { text } = smtp.withMessageId(log.messageId)[0].parsed;
    expect(text).toMatch(/Se inició sesión en su cuenta el /);
    expect(text).toMatch(/Si no fue usted, cambie su contraseña ahora\./);
    expect(text).not.toMatch(/If this was not you/);
  });
});
