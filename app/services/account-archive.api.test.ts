import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { trusted } from "mongoose";
import tar from "tar-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Assessment } from "~/models/assessment.server";
import { CustomerDecision } from "~/models/customer-decision.server";
import { EmailLog } from "~/models/email-log.server";
import { EstimateLink } from "~/models/estimate-link.server";
import { EstimateQuestion } from "~/models/estimate-question.server";
import { WebhookEndpoint } from "~/models/webhook.server";
import { client, createTestUser, signIn } from "../../tests/accounts";
import { ALLOW_LOCAL_MAIL_SERVERS, startApp, type RunningApp } from "../../tests/app-server";
import { startSmtpServer, type TestSmtpServer } from "../../tests/smtp-server";
import { useTestDb } from "../../tests/test-db";

// Issue 40 item 7, "the archive is the account" (docs/decisions/0064): an account with estimates,
// versions, a customer's approval and decline, a question thread, links, email logs (one still
// pending), estimate settings and a webhook endpoint is exported and imported into a fresh account:
// the dashboard's figures (the API's and the `/` screen's) are the same, the links are revoked, the
// webhook's secret is not the original's (and never in the archive), no email is sent again, and the
// archive is what docs/archive-format.schema.json describes.

type Client = ReturnType<typeof client>;
let app: RunningApp;
let smtp: TestSmtpServer;

beforeAll(async () => {
  await useTestDb();
  smtp = await startSmtpServer();
  app = await startApp({ env: { ...ALLOW_LOCAL_MAIL_SERVERS, SMTP_HOST: "127.0.0.1", SMTP_PORT: String(smtp.port), MAIL_FROM: "DamageIQ <estimates@example.com>", TRUST_PROXY: "1" } });
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await smtp?.close();
});

async function dealer() {
  const user = await createTestUser({ role: "dealer" });
  const cookie = await signIn(app, user.username, user.password);
  return { id: user.id, cookie, api: client(app, { cookie }) };
}

let ip = 0;
async function customerPost(token: string, fields: Record<string, string>) {
  const res = await fetch(`${app.url}/e/${token}`, {
    method: "POST",
    redirect: "manual",
    headers: { "X-Forwarded-For": `198.51.100.${++ip}`, "User-Agent": "TestPhone", "Content-Type": "application/x-www-form-urlencoded", Origin: app.url },
    body: new URLSearchParams(fields).toString(),
  });
  expect(res.status, (await res.text()).slice(0, 300)).toBe(303);
}

async function link(who: Client, id: string) {
  const res = await who.post(`/api/assessments/${id}/links`);
  expect(res.status, res.text).toBe(201);
  return res.json.token as string;
}

async function readArchive(buffer: Buffer) {
  const files = new Map<string, string>();
  const extract = tar.extract();
  const done = new Promise<void>((resolve, reject) => {
    extract.on("entry", (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on("data", (c: unknown) => {
        if (Buffer.isBuffer(c)) chunks.push(c);
      });
      stream.on("end", () => {
        files.set(header.name, Buffer.concat(chunks).toString("utf8"));
        next();
      });
    });
    extract.on("finish", resolve);
    extract.on("error", reject);
  });
  extract.end(gunzipSync(buffer));
  await done;
  return files;
}

/** Ids and a record's write counter (its `revision`, for concurrent edits) are the account's own: everything else is compared. */
const figures = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === "revision" ? undefined : typeof v === "string" && /[a-f0-9]{24}/.test(v) ? v.replace(/[a-f0-9]{24}/g, "<id>") : v)));

async function dashboard(who: { cookie: string; api: Client }) {
  const stats = await who.api.get("/api/dashboard/stats");
  expect(stats.status).toBe(200);
  const screen = await fetch(`${app.url}/?_data=routes%2F_app._index`, { headers: { Cookie: who.cookie } });
  expect(screen.status).toBe(200);
  const data = (await screen.json()) as Record<string, unknown>;
  return { api: figures(stats.json), screen: figures({ stats: data.stats, board: data.board, decisions: data.decisions, unknownEmails: data.unknownEmails, questions: data.questions }) };
}

describe("export → import into a fresh account", () => {
  it("keeps every figure of the dashboard; links revoked, webhook secrets new, nothing sent again; the archive matches its JSON Schema", async () => {
    const a = await dealer();
    const contact = await a.api.post("/api/contacts", { firstName: "Jane", lastName: "Doe", email: "jane.archive@example.com" });
    expect(contact.status).toBe(201);
    const base = { ownerId: a.id, contactId: contact.json.id, mediaUrls: [], damages: [], lineItems: [] };
    // Approved by the customer: revenue.
    const approved = await Assessment.create({ ...base, title: "Approved Golf", status: "sent", sentAt: new Date(), estimatedCost: 1162.45, aiEstimatedCost: 1100 });
    // Sent, then a sent supplement (version 2) the customer declines: not revenue.
    const original = await Assessment.create({ ...base, title: "Declined Polo", status: "sent", sentAt: new Date(Date.now() - 86_400_000), estimatedCost: 400 });
    const supplement = await Assessment.create({ ...base, title: "Declined Polo", status: "sent", sentAt: new Date(), estimatedCost: 570.1, supplementOf: original._id, version: 2 });
    await Assessment.updateOne({ _id: original._id }, { $set: { supersededBy: supplement._id } });
    await Assessment.create({ ...base, title: "Waiting Passat", status: "completed", estimatedCost: 320, aiEstimatedCost: 300 });

    const approveToken = await link(a.api, String(approved._id));
    await customerPost(approveToken, { intent: "question", message: "Is the paint included?", replyEmail: "jane.reply@example.com" });
    await customerPost(approveToken, { intent: "question", message: "Can I bring it on Monday?" });
    await customerPost(approveToken, { intent: "approve", signatureName: "Jane Doe", termsAccepted: "on" });
    await customerPost(await link(a.api, String(supplement._id)), { intent: "decline", reason: "Too expensive" });
    const [paint] = (await a.api.get(`/api/assessments/${String(approved._id)}/questions`)).json.questions as { id: string }[];
    expect((await a.api.post(`/api/assessments/${String(approved._id)}/questions/${paint.id}/answer`, { message: "Yes, paint is included." })).status).toBe(201);
    // An email still waiting to be sent when the account was exported.
    const pending = await EmailLog.create({
      ownerId: a.id,
      kind: "estimate",
      idempotencyKey: "pending-at-export",
      recipientEmail: "later@example.com",
      subject: "Sent later",
      html: "<p>later</p>",
      text: "later",
      status: "pending",
      messageId: "<pending-at-export@damageiq.example>",
      nextAttemptAt: new Date(Date.now() + 3_600_000),
    });
    expect((await a.api.put("/api/auth/estimate-settings", { taxParts: 8.25, taxLabour: 0, taxMaterials: 5, terms: "I, {{customer.name}}, accept.", validityDays: 45 })).status).toBe(200);
    const hook = await a.api.post("/api/webhooks", { url: "https://hooks.example.com/damageiq", events: ["estimate.approved", "estimate.question_answered"], description: "DMS" });
    expect(hook.status, hook.text).toBe(201);
    await expect.poll(() => EmailLog.countDocuments({ ownerId: a.id, status: "pending", inFlight: false, _id: trusted({ $ne: pending._id }) }), { timeout: 20_000 }).toBe(0);
    const before = await dashboard(a);
    expect(before.api).toMatchObject({ totalAssessments: 3, totalRevenue: 1162.45 });

    const exported = await fetch(`${app.url}/api/account/export`, { headers: { Cookie: a.cookie } });
    expect(exported.status).toBe(200);
    const archive = Buffer.from(await exported.arrayBuffer());
    const files = await readArchive(archive);

    // The archive is what its JSON Schema says, every record of every collection.
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    const schema = JSON.parse(readFileSync("docs/archive-format.schema.json", "utf8")) as { $defs: Record<string, unknown> };
    ajv.addSchema(schema, "archive");
    const check = (ref: string, value: unknown) => {
      const valid = ajv.validate({ $ref: `archive#/$defs/${ref}` }, value);
      expect(valid, `${ref}: ${JSON.stringify(ajv.errors)}`).toBe(true);
    };
    const manifest = JSON.parse(files.get("manifest.json")!);
    check("manifest", manifest);
    expect(manifest.collections).toMatchObject({ customerDecisions: 2, estimateQuestions: 2, estimateLinks: 2, webhookEndpoints: 1, estimateSettings: 1 });
    for (const [name, text] of files) {
      if (name === "manifest.json") continue;
      if (name === "estimateSettings.json") check("estimateSettings", JSON.parse(text));
      else for (const line of text.split("\n").filter(Boolean)) check(name.replace(/\.ndjson$/, ""), JSON.parse(line));
    }
    // The signing secret and the links' tokens never leave.
    expect(archive.toString("latin1")).not.toContain("whsec_");
    for (const text of files.values()) expect(text).not.toMatch(/secretSealed|tokenHash|tokenSealed/);

    const b = await dealer();
    const sentBefore = smtp.received.length;
    const imported = await fetch(`${app.url}/api/account/import`, { method: "POST", headers: { Cookie: b.cookie, "Content-Type": "application/gzip" }, body: new Uint8Array(archive) });
    const report = await imported.json();
    expect(imported.status, JSON.stringify(report)).toBe(200);
    expect(report.totalErrors, JSON.stringify(report.errors)).toBe(0);
    expect(report.totalDropped, JSON.stringify(report.dropped)).toBe(0);

    // Every figure the dashboard shows, the API's and the screen's.
    const after = await dashboard(b);
    expect(after.api).toEqual(before.api);
    expect(after.screen).toEqual(before.screen);

    // Decisions as they were (immutable evidence: the PDF's hash, the time, the address).
    const decisionsOf = async (ownerId: string) =>
      (await CustomerDecision.find({ ownerId }).sort({ decidedAt: 1 }).lean()).map((d) => ({ decision: d.decision, pdfSha256: d.pdfSha256, decidedAt: d.decidedAt, ip: d.ip, signatureName: d.signatureName }));
    expect(await decisionsOf(b.id)).toEqual(await decisionsOf(a.id));
    expect(await EstimateQuestion.countDocuments({ ownerId: b.id, answeredAt: trusted({ $ne: null }) })).toBe(1);
    // Links: revoked, none opens.
    const links = await EstimateLink.find({ ownerId: b.id }).lean();
    expect(links).toHaveLength(2);
    for (const l of links) expect(l.revokedAt).toBeInstanceOf(Date);
    expect((await fetch(`${app.url}/e/${approveToken}`)).status).toBe(200);
    // Webhook endpoint: the same address and events, a secret of its own, off until the account hands it over.
    const [endpointA] = await WebhookEndpoint.find({ ownerId: a.id }).lean();
    const [endpointB] = await WebhookEndpoint.find({ ownerId: b.id }).lean();
    expect(endpointB).toMatchObject({ url: endpointA.url, events: endpointA.events, enabled: false });
    expect(endpointB.secretSealed).not.toBe(endpointA.secretSealed);
    // Estimate settings.
    expect((await b.api.get("/api/auth/estimate-settings")).json).toMatchObject({ taxRates: { parts: 8.25, materials: 5 }, validityDays: 45, terms: "I, {{customer.name}}, accept." });
    // Email logs: a record only. The pending one is final and not sent; nothing reaches the mail server.
    expect(await EmailLog.countDocuments({ ownerId: b.id })).toBe(await EmailLog.countDocuments({ ownerId: a.id }));
    expect(await EmailLog.countDocuments({ ownerId: b.id, status: "pending" })).toBe(0);
    const copy = await EmailLog.findOne({ ownerId: b.id, messageId: "<pending-at-export@damageiq.example>" }).lean();
    expect(copy).toMatchObject({ status: "failed", lastError: "Imported from an archive: not sent from this account" });
    await new Promise((r) => setTimeout(r, 3000));
    expect(smtp.received.slice(sentBefore).map((m) => m.parsed.subject)).toEqual([]);
  }, 120_000);
});
