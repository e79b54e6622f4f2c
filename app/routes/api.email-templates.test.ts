import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Assessment } from "~/models/assessment.server";
import { User } from "~/models/user.server";
import { client } from "../../tests/accounts";
import { ALLOW_LOCAL_MAIL_SERVERS, type RunningApp } from "../../tests/app-server";
import { startTenancyApp } from "../../tests/signed-in-app";

// The Email Center's API over HTTP, with no mail server configured (the local mail drop):
// templates (CRUD, copy, one default, compile errors, warnings, limits, prototype access, header
// injection), the preview, the send call's validation and tenancy, the logs, the connection test.

let app: RunningApp;
type Client = ReturnType<typeof client>;
let dealerA: Client;
let dealerB: Client;
let admin: Client;
let aId: string;
let bId: string;

const MISSING = "0123456789abcdef01234567";
const template = { name: "Estimate ready", subject: "Your estimate for {{assessment.vehicle}}", htmlContent: "<p>Hi {{contact.firstName}}</p>" };

beforeAll(async () => {
  // The mail server tests save 127.0.0.1 (the suite's own SMTP server) as an account's host.
  ({ app, aId, bId, dealerA, dealerB, admin } = await startTenancyApp({ env: { ...ALLOW_LOCAL_MAIL_SERVERS } }));
});
afterAll(() => app?.stop());

async function contactOf(c: Client, email = "jane@example.com") {
  const res = await c.post("/api/contacts", { firstName: "Jane", lastName: "Doe", email });
  expect(res.status).toBe(201);
  return res.json.id as string;
}

async function assessmentOf(ownerId: string, fields: Record<string, unknown> = {}) {
  const doc = await Assessment.create({
    ownerId,
    title: "Silver Camry",
    vehicleYear: 2019,
    vehicleMake: "Toyota",
    vehicleModel: "Camry",
    status: "completed",
    estimatedCost: 425.5,
    ...fields,
  });
  return String(doc._id);
}

async function waitForLog(c: Client, id: string, done: (log: { status: string }) => boolean) {
  let log: { status: string } & Record<string, unknown> = { status: "" };
  for (let i = 0; i < 200; i++) {
    const res = await c.get(`/api/email-logs/${id}`);
    expect(res.status).toBe(200);
    log = res.json;
    if (done(log)) return log;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`log ${id} stayed ${log.status}`);
}

describe("authentication and roles", () => {
  it("answers 401 to anonymous callers on every email call", async () => {
    const anon = client(app);
    for (const res of [
      await anon.get("/api/email-templates"),
      await anon.post("/api/email-templates", template),
      await anon.put(`/api/email-templates/${MISSING}`, template),
      await anon.del(`/api/email-templates/${MISSING}`),
      await anon.post("/api/email-templates/preview", template),
      await anon.get("/api/email-logs"),
      await anon.get(`/api/email-logs/${MISSING}`),
      await anon.get("/api/email/test"),
      await anon.get("/api/email/settings"),
      await anon.post(`/api/assessments/${MISSING}/send-email`, { contactId: MISSING }),
    ]) {
      expect(res.status).toBe(401);
    }
  });
});

describe("templates", () => {
  it("creates, lists, reads, updates and deletes the caller's templates", async () => {
    const created = await dealerA.post("/api/email-templates", { ...template, ownerId: bId, id: MISSING });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ ...template, isDefault: false, ownerId: aId, warnings: [] });
    const id = created.json.id;
    expect((await dealerA.get("/api/email-templates")).json.map((t: { id: string }) => t.id)).toContain(id);
    expect((await dealerA.get(`/api/email-templates/${id}`)).json.name).toBe(template.name);
    const updated = await dealerA.put(`/api/email-templates/${id}`, { ...template, name: "Renamed" });
    expect(updated.status).toBe(200);
    expect(updated.json.name).toBe("Renamed");
    expect((await dealerA.get("/api/email-templates?q=renamed")).json).toHaveLength(1);
    expect((await dealerA.del(`/api/email-templates/${id}`)).status).toBe(200);
    expect((await dealerA.get(`/api/email-templates/${id}`)).status).toBe(404);
  });

  it("says which field is missing, with the spec's messages", async () => {
    const res = await dealerA.post("/api/email-templates", { name: " ", subject: "", htmlContent: "" });
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual({ name: "Template name is required", subject: "Subject is required", htmlContent: "Content is required" });
  });

  it("keeps one default per account, and copies as a non-default '(Copy)'", async () => {
    const first = (await dealerA.post("/api/email-templates", { ...template, name: "First", isDefault: true })).json;
    const second = (await dealerA.post("/api/email-templates", { ...template, name: "Second", isDefault: true })).json;
    const theirs = (await dealerB.post("/api/email-templates", { ...template, name: "Theirs", isDefault: true })).json;
    expect((await dealerA.get(`/api/email-templates/${first.id}`)).json.isDefault).toBe(false);
    expect((await dealerA.get(`/api/email-templates/${second.id}`)).json.isDefault).toBe(true);
    expect((await dealerB.get(`/api/email-templates/${theirs.id}`)).json.isDefault).toBe(true);
    const copy = await dealerA.post(`/api/email-templates/${second.id}/copy`);
    expect(copy.status).toBe(201);
    expect(copy.json).toMatchObject({ name: "Second (Copy)", isDefault: false, subject: template.subject });
  });

  it("answers 404 for another account's template, by any method, and leaves it as it was", async () => {
    const theirs = (await dealerB.post("/api/email-templates", { ...template, name: "B's own" })).json;
    expect((await dealerA.get(`/api/email-templates/${theirs.id}`)).status).toBe(404);
    expect((await dealerA.put(`/api/email-templates/${theirs.id}`, template)).status).toBe(404);
    expect((await dealerA.post(`/api/email-templates/${theirs.id}/copy`)).status).toBe(404);
    expect((await dealerA.del(`/api/email-templates/${theirs.id}`)).status).toBe(404);
    expect((await dealerA.get("/api/email-templates")).json.some((t: { id: string }) => t.id === theirs.id)).toBe(false);
    expect((await dealerB.get(`/api/email-templates/${theirs.id}`)).json.name).toBe("B's own");
    // An admin reaches every account's.
    expect((await admin.get(`/api/email-templates/${theirs.id}`)).json.owner).toMatchObject({ id: bId });
  });

  it("refuses a template that does not compile with 400 and the line of the error", async () => {
    const res = await dealerA.post("/api/email-templates", { ...template, htmlContent: "<p>Hi</p>\n<p>{{contact.firstName</p>" });
    expect(res.status).toBe(400);
    expect(res.json.errors.htmlContent).toMatch(/parse error on line 2/);
    const unescaped = await dealerA.post("/api/email-templates", { ...template, htmlContent: "{{{contact.firstName}}}" });
    expect(unescaped.status).toBe(400);
  });

  it("lists unknown variables as warnings", async () => {
    const res = await dealerA.post("/api/email-templates", { ...template, htmlContent: "<p>{{contact.phone}}</p>" });
    expect(res.status).toBe(201);
    expect(res.json.warnings).toEqual(["Unknown variable {{contact.phone}} on line 1: it renders empty"]);
  });

  it("refuses a 1 MB template with 413, and a line break in the subject (header injection) with 400", async () => {
    const big = await dealerA.post("/api/email-templates", { ...template, htmlContent: "x".repeat(1024 * 1024) });
    expect(big.status).toBe(413);
    const injected = await dealerA.post("/api/email-templates", { ...template, subject: "Hello\r\nBcc: victim@example.com" });
    expect(injected.status).toBe(400);
    expect(injected.json.errors.subject).toBe("Subject must be a single line (no line breaks)");
    expect((await dealerA.post("/api/email-templates/preview", { subject: "a\nb", htmlContent: "x" })).status).toBe(200);
  });

  it("previews with sample data; prototype access renders empty", async () => {
    const res = await dealerA.post("/api/email-templates/preview", {
      subject: "For {{contact.firstName}}",
      htmlContent: "<p>{{contact.firstName}} {{assessment.estimatedCost}}</p>[{{constructor}}][{{__proto__}}][{{contact.constructor.name}}][{{lookup this 'constructor'}}]",
    });
    expect(res.status).toBe(200);
    expect(res.json.subject).toBe("For Jane");
    expect(res.json.html).toBe("<p>Jane $1,250.00</p>[][][][]");
    const bad = await dealerA.post("/api/email-templates/preview", { subject: "", htmlContent: "{{#if}}" });
    expect(bad.status).toBe(400);
  });
});

describe("POST /api/assessments/{id}/send-email", () => {
  it("needs a contact ('Contact is required'), one of the owner's, and a sendable assessment", async () => {
    const id = await assessmentOf(aId);
    expect((await dealerA.post(`/api/assessments/${id}/send-email`, {})).json.errors).toEqual({ contactId: "Contact is required" });
    const theirContact = await contactOf(dealerB);
    const foreign = await dealerA.post(`/api/assessments/${id}/send-email`, { contactId: theirContact });
    expect(foreign.status).toBe(400);
    expect(foreign.json.errors).toEqual({ contactId: "Contact not found" });
    const mine = await contactOf(dealerA);
    const noTemplate = await dealerA.post(`/api/assessments/${id}/send-email`, { contactId: mine, templateId: MISSING });
    expect(noTemplate.json.errors).toEqual({ templateId: "Template not found" });
    const uploaded = await assessmentOf(aId, { status: "uploaded" });
    expect((await dealerA.post(`/api/assessments/${uploaded}/send-email`, { contactId: mine })).status).toBe(409);
    expect((await dealerA.post(`/api/assessments/${id}/send-email`, { contactId: mine }, { "Idempotency-Key": "x" })).status).toBe(400);
  });

  it("answers 404 for another account's assessment, whatever the body", async () => {
    const theirs = await assessmentOf(bId);
    expect((await dealerA.post(`/api/assessments/${theirs}/send-email`, {})).status).toBe(404);
    expect((await dealerA.post(`/api/assessments/${MISSING}/send-email`, { contactId: MISSING })).status).toBe(404);
  });

  it("with no mail server, saves to the local mail drop: 202 pending via drop, then 'saved' (not sent) with the .eml file; the assessment is not sent", async () => {
    const id = await assessmentOf(aId, { title: "Blue Civic" });
    const contactId = await contactOf(dealerA, "drop@example.com");
    const res = await dealerA.post(`/api/assessments/${id}/send-email`, { contactId, additionalMessage: "See you Monday" });
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({ status: "pending", recipientEmail: "drop@example.com", assessmentTitle: "Blue Civic", via: "drop" });
    const log = await waitForLog(dealerA, res.json.id, (l) => l.status !== "pending");
    expect(log).toMatchObject({ status: "saved", localDrop: true, statusLabel: "saved (local drop, not sent)", sentAt: null });
    const file = path.join(app.dataDir, "objects", "outbox", aId, `${res.json.id}.eml`);
    expect(existsSync(file)).toBe(true);
    const mail = await simpleParser(readFileSync(file));
    expect(`<${mail.messageId?.replace(/^<|>$/g, "")}>`).toBe(log.messageId);
    expect(mail.html).toContain("See you Monday");
    expect(mail.attachments.map((a) => a.contentType)).toEqual(["application/pdf"]);
    // Nothing left the server: the estimate is not "sent".
    expect((await Assessment.findById(id).lean<{ status: string }>())?.status).toBe("completed");
  });

  it("lists the logs, 404 for another account's, and the connection test says why it is disconnected", async () => {
    const mine = (await dealerA.get("/api/email-logs")).json as { id: string; ownerId: string }[];
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((l) => l.ownerId === aId)).toBe(true);
    expect((await dealerB.get(`/api/email-logs/${mine[0].id}`)).status).toBe(404);
    expect((await dealerB.get("/api/email-logs")).json.some((l: { id: string }) => l.id === mine[0].id)).toBe(false);
    const test = await dealerA.get("/api/email/test");
    expect(test.status).toBe(200);
    expect(test.json).toMatchObject({ connected: false, via: "drop" });
    expect(test.json.reason).toMatch(/local mail drop/);
  });
});

describe("mail server settings", () => {
  it("stores the password encrypted, never answers it, and keeps it when left blank", async () => {
    const saved = await dealerA.put("/api/email/settings", { host: "127.0.0.1", port: "2525", user: "me", password: "s3cret-pass", from: "shop@example.com" });
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({ host: "127.0.0.1", port: 2525, secure: false, user: "me", passwordSet: true, from: "shop@example.com" });
    expect(saved.text).not.toContain("s3cret-pass");
    const stored = await User.findById(aId).select("+mailServer").lean<{ mailServer: { passwordEnc: string } }>();
    expect(stored?.mailServer.passwordEnc).toMatch(/^v1\./);
    expect(JSON.stringify(stored)).not.toContain("s3cret-pass");
    const again = await dealerA.put("/api/email/settings", { host: "127.0.0.1", port: 2525, user: "me" });
    expect(again.json.passwordSet).toBe(true);
    expect((await dealerA.get("/api/auth/user")).text).not.toContain("passwordEnc");
    expect((await dealerA.put("/api/email/settings", { port: "abc" })).json.errors).toEqual({ port: "Port must be a number" });
    const defaults = await dealerA.put("/api/email/settings", { clearPassword: true });
    expect(defaults.json).toMatchObject({ host: "", port: 587, secure: false, passwordSet: false });
  });
});
