import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Assessment } from "~/models/assessment.server";
import { User } from "~/models/user.server";
import { startEmbeddedDb, type EmbeddedDb } from "~/utils/embedded-db.server";
import { client, signIn } from "../../tests/accounts";
import { ALLOW_LOCAL_MAIL_SERVERS, startApp, type RunningApp } from "../../tests/app-server";
import { startSmtpServer, type TestSmtpServer } from "../../tests/smtp-server";

// Issue 41 item 5: the mail server accepts an email while the database is away (killed between the
// server's acceptance and the record). The worker keeps the outcome and writes it when the database is
// back: the email ends `sent`, once, with the server's reply — not `unknown`, and never sent twice.
// An engine of this test's own (the shared one serves the other test files), killed and restarted on
// the same data directory and port.

const dataDir = mkdtempSync(path.join(os.tmpdir(), "mail-db-restart-"));
let db: EmbeddedDb;
let app: RunningApp;
let smtp: TestSmtpServer;
let conn: mongoose.Connection;

beforeAll(async () => {
  db = await startEmbeddedDb({ dataDir, supervise: false });
  smtp = await startSmtpServer();
  const uri = `${db.uri}mailrestart`;
  app = await startApp({
    mongoUri: uri,
    env: { ...ALLOW_LOCAL_MAIL_SERVERS, SMTP_HOST: "127.0.0.1", SMTP_PORT: String(smtp.port), MAIL_FROM: "DamageIQ <estimates@example.com>", EMAIL_LEASE_MS: "1000" },
  });
  conn = await mongoose.createConnection(uri).asPromise();
});
afterAll(async () => {
  await app?.stop();
  await conn?.close().catch(() => undefined);
  await smtp?.close();
  await db?.stop();
});

describe("an email the mail server accepted while the database was away", () => {
  it("is recorded sent once the database is back: once, with the server's reply, never sent again", async () => {
    const admin = { username: "mailrestart", password: "password123", email: "m@example.com", firstName: "M", lastName: "R" };
    expect((await client(app).post("/api/admin/create-account", admin)).status).toBe(201);
    const api = client(app, { cookie: await signIn(app, admin.username, admin.password) });
    const owner = await conn.model("User", User.schema).findOne({ username: admin.username }).lean<{ _id: unknown }>();
    // Written as the app writes one, without the test process's models (they use the shared engine).
    const assessment = new (conn.model("Assessment", Assessment.schema))({
      ownerId: owner!._id,
      title: "Silver Camry",
      vehicleYear: 2019,
      vehicleMake: "Toyota",
      vehicleModel: "Camry",
      status: "reviewed",
      estimatedCost: 1234.5,
    });
    await conn.collection("assessments").insertOne(assessment.toObject({ depopulate: true }));
    const contact = await api.post("/api/contacts", { firstName: "Jane", lastName: "Doe", email: "jane@example.com" });
    expect(contact.status).toBe(201);

    // The server has the whole message; before it answers "250", the database goes away.
    let killedAt = 0;
    smtp.onMessage = () => {
      smtp.onMessage = undefined;
      process.kill(db.pid()!, "SIGKILL");
      killedAt = Date.now();
    };
    const sent = await api.post(`/api/assessments/${String(assessment._id)}/send-email`, { contactId: contact.json.id });
    expect(sent.status).toBe(202);
    await expect.poll(() => killedAt, { timeout: 15_000 }).toBeGreaterThan(0);
    // Away well past the lease (1 s) and the driver's server selection (1.5 s): the write "sent" failed.
    await new Promise((r) => setTimeout(r, 4_000));
    db = await startEmbeddedDb({ dataDir, port: db.port, supervise: false });

    const deadline = Date.now() + 30_000;
    let log: { status: string; messageId: string; sentAt: string | null; lastError: string | null; attempts: { outcome: string; response: string | null }[] } | undefined;
    for (;;) {
      const res = await api.get(`/api/email-logs/${sent.json.id}`);
      if (res.status === 200 && res.json.status !== "pending") {
        log = res.json;
        break;
      }
      if (Date.now() > deadline) throw new Error(`still ${res.status} ${JSON.stringify(res.json)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(log!.status).toBe("sent");
    expect(log!.attempts.map((a) => a.outcome)).toEqual(["accepted"]);
    expect(log!.attempts[0].response).toMatch(/^250 .*queued as test1/);
    expect(log!.lastError).toBeNull();
    expect(log!.sentAt).not.toBeNull();
    // Once: the server holds it once, and it stays so (nothing resent, no later rewrite to unknown).
    await new Promise((r) => setTimeout(r, 3_000));
    expect(smtp.withMessageId(log!.messageId)).toHaveLength(1);
    const later = await api.get(`/api/email-logs/${sent.json.id}`);
    expect(later.json).toMatchObject({ status: "sent", sentAt: log!.sentAt });
    expect(later.json.attempts).toHaveLength(1);
    // The assessment followed the email (estimate emailed).
    await expect.poll(async () => (await api.get(`/api/assessments/${String(assessment._id)}`)).json.status, { timeout: 10_000 }).toBe("sent");
  }, 90_000);
});
