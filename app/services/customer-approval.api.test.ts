import { createHash } from "node:crypto";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Assessment } from "~/models/assessment.server";
import { CustomerDecision } from "~/models/customer-decision.server";
import { EmailLog } from "~/models/email-log.server";
import { EstimateLink } from "~/models/estimate-link.server";
import { RateCounter } from "~/models/rate-counter.server";
import { User } from "~/models/user.server";
import {
  QUESTION_REQUIRED,
  REASON_TOO_LONG,
  SIGNATURE_REQUIRED,
  SIGNATURE_TOO_SHORT,
  TERMS_REQUIRED,
} from "~/schemas/customer-approval";
import { ESTIMATE_LINK_DAYS_MESSAGE } from "~/schemas/settings";
import { client, createTestUser, signIn, tenancyClients } from "../../tests/accounts";
import { ALLOW_LOCAL_MAIL_SERVERS, startApp, type RunningApp } from "../../tests/app-server";
import { startSmtpServer, type TestSmtpServer } from "../../tests/smtp-server";
import { uploadMedia } from "../../tests/uploads";
import { startTenancyApp } from "../../tests/signed-in-app";

// The customer's estimate link (issue 27 item 5, docs/decisions/0019), over HTTP against the built
// app and the real database: the link in the estimate email, the public page (no script, 404/410
// pages), the PDF and photos of exactly that version, approve / decline / question with the server's
// messages, the insert-only decision with the database's time, IP, user agent, version and the PDF's
// SHA-256, the dealer's notice and the dashboard, expiry on the database's clock, revocation,
// supersession, tenancy and the rate limits per address and per token.

type Client = ReturnType<typeof client>;
let app: RunningApp;
let smtp: TestSmtpServer;
let dealerA: Client;
let dealerB: Client;
let admin: Client;
let aId: string;
let bId: string;

const LIMITS = { ip: 60, token: 40, posts: 10 };

beforeAll(async () => {
  smtp = await startSmtpServer();
  ({ app, dealerA, dealerB, admin, aId, bId } = await startTenancyApp({
    env: {
      ...ALLOW_LOCAL_MAIL_SERVERS,
      SMTP_HOST: "127.0.0.1",
      SMTP_PORT: String(smtp.port),
      MAIL_FROM: "DamageIQ <estimates@example.com>",
      // The tests speak for many customers: each one its own address (X-Forwarded-For).
      TRUST_PROXY: "1",
      ESTIMATE_LINK_RATE_IP: String(LIMITS.ip),
      ESTIMATE_LINK_RATE_TOKEN: String(LIMITS.token),
      ESTIMATE_LINK_RATE_POSTS: String(LIMITS.posts),
    },
  }));
});
afterAll(async () => {
  await app?.stop();
  await smtp?.close();
});

let ipCounter = 0;
/** A customer at an address of its own (each test its own, so the per-address limit is its own). */
function customer(ip = `198.51.100.${++ipCounter}`) {
  const call = async (method: string, path: string, body?: Record<string, string>, headers: Record<string, string> = {}) => {
    const res = await fetch(`${app.url}${path}`, {
      method,
      redirect: "manual",
      headers: {
        "X-Forwarded-For": ip,
        "User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) TestPhone",
        ...(body ? { "Content-Type": "application/x-www-form-urlencoded", Origin: app.url } : {}),
        ...headers,
      },
      body: body ? new URLSearchParams(body).toString() : undefined,
    });
    const buffer = Buffer.from(await res.arrayBuffer());
    return { status: res.status, headers: res.headers, text: buffer.toString("utf8"), bytes: buffer };
  };
  return {
    ip,
    get: (path: string, headers?: Record<string, string>) => call("GET", path, undefined, headers),
    post: (path: string, body: Record<string, string>, headers?: Record<string, string>) => call("POST", path, body, headers),
  };
}

/** The database's own clock (what expiry is measured on). */
async function dbTime() {
  const status = (await mongoose.connection.db!.admin().command({ serverStatus: 1 })) as { localTime: Date };
  return status.localTime;
}

async function contactOf(who: Client, email: string) {
  const res = await who.post("/api/contacts", { firstName: "Jane", lastName: "Doe", email });
  expect(res.status).toBe(201);
  return res.json.id as string;
}

/** A sent estimate of account A with one photo and its customer. */
async function sentEstimate(fields: Record<string, unknown> = {}, owner = { id: () => aId, who: () => dealerA }) {
  const mediaUrl = await uploadMedia(owner.who());
  const contactId = await contactOf(owner.who(), `jane.${Math.random().toString(36).slice(2, 8)}@example.com`);
  const doc = await Assessment.create({
    ownerId: owner.id(),
    title: "Silver Camry",
    vehicleYear: 2019,
    vehicleMake: "Toyota",
    vehicleModel: "Camry",
    contactId,
    mediaUrls: [mediaUrl],
    status: "sent",
    sentAt: new Date(),
    estimatedCost: 425.5,
    damages: [{ damageType: "dent", location: "left", severity: "moderate", description: "Door dent", confidence: 0.8, mediaUrl }],
    damageCategories: ["dent"],
    lineItems: [{ damageType: "dent", severity: "moderate", location: "left", priced: true, totalCents: 42550 }],
    ...fields,
  });
  return String(doc._id);
}

async function newLink(who: Client, id: string) {
  const res = await who.post(`/api/assessments/${id}/links`);
  expect(res.status, res.text).toBe(201);
  return res.json as { id: string; token: string; url: string; version: number; state: string; expiresAt: string; createdAt: string; pdfSha256: string };
}

const pagePath = (token: string) => `/e/${token}`;

describe("the estimate email carries the link", () => {
  it("the built-in template's link opens the page of that version; a custom template gets {{estimateLink}}", async () => {
    const id = await sentEstimate({ status: "reviewed", sentAt: undefined });
    const contactId = (await Assessment.findById(id).lean<{ contactId: unknown }>())!.contactId as string;
    const res = await dealerA.post(`/api/assessments/${id}/send-email`, { contactId: String(contactId) });
    expect(res.status).toBe(202);
    const mail = await vi.waitFor(
      () => {
        const found = smtp.received.find((m) => m.parsed.headers.get("x-damageiq-log") === res.json.id);
        expect(found).toBeDefined();
        return found!;
      },
      { timeout: 15_000 },
    );
    const url = /https?:\/\/[^\s"<]+\/e\/([A-Za-z0-9_-]{43})/.exec(mail.parsed.text ?? "");
    expect(url, mail.parsed.text).not.toBeNull();
    expect(mail.parsed.html).toContain(`/e/${url![1]}`);
    const page = await customer().get(pagePath(url![1]));
    expect(page.status).toBe(200);
    expect(page.text).toContain("Silver Camry");
    expect(page.text).toContain("$425.50");

    const template = await dealerA.post("/api/email-templates", {
      name: "With link",
      subject: "Your estimate",
      htmlContent: '<p>Hello {{contact.firstName}}, <a href="{{estimateLink}}">open your estimate</a></p>',
    });
    expect(template.status).toBe(201);
    const second = await dealerA.post(`/api/assessments/${id}/send-email`, { contactId: String(contactId), templateId: template.json.id });
    expect(second.status).toBe(202);
    const log = await EmailLog.findById(second.json.id).lean<{ html: string }>();
    const link = /href="(https?:\/\/[^"]+\/e\/[A-Za-z0-9_-]{43})"/.exec(log!.html);
    expect(link).not.toBeNull();
    // Once: the template placed it, nothing appended.
    expect(log!.html.match(/\/e\//g)).toHaveLength(1);
  });
});

describe("one send, one live link", () => {
  it("a send repeated with its Idempotency-Key leaves one active link (a twin that lost the race revokes its own)", async () => {
    const id = await sentEstimate();
    const contactId = String((await Assessment.findById(id).lean<{ contactId: unknown }>())!.contactId);
    const key = `links-${Math.random().toString(36).slice(2, 10)}`;
    const answers = await Promise.all([1, 2, 3].map(() => dealerA.post(`/api/assessments/${id}/send-email`, { contactId }, { "Idempotency-Key": key })));
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202]);
    expect(new Set(answers.map((a) => a.json.id)).size).toBe(1);
    const again = await dealerA.post(`/api/assessments/${id}/send-email`, { contactId }, { "Idempotency-Key": key });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const states = (await dealerA.get(`/api/assessments/${id}/links`)).json.links.map((l: { state: string }) => l.state);
    expect(states.filter((s: string) => s === "active")).toHaveLength(1);
    expect(states.every((s: string) => s === "active" || s === "revoked")).toBe(true);
    // The active one is the one in the email.
    const log = await EmailLog.findById(answers[0].json.id).lean<{ html: string }>();
    const token = /\/e\/([A-Za-z0-9_-]{43})/.exec(log!.html)![1];
    expect((await customer().get(pagePath(token))).status).toBe(200);
  });
});

describe("the public page", () => {
  it("is plain HTML without script, shows the version's lines, photos and PDF, and records the openings", async () => {
    const id = await sentEstimate();
    const link = await newLink(dealerA, id);
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.url).toBe(`${new URL(link.url).origin}/e/${link.token}`);
    const phone = customer();
    const page = await phone.get(pagePath(link.token));
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.headers.get("cache-control")).toBe("no-store");
    // No Referer carries the token to another site (and the page links nowhere else).
    expect(page.headers.get("referrer-policy")).toBe("same-origin");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(page.text).not.toMatch(/<script/i);
    expect(page.text).not.toMatch(/<link[^>]+stylesheet/i);
    expect(page.text).toContain("Door dent");
    expect(page.text).toContain('data-testid="public-total">$425.50');
    expect(page.text).toContain(`/e/${link.token}/photos/0`);
    expect(page.bytes.length).toBeLessThan(20_000);

    const photo = await phone.get(`/e/${link.token}/photos/0`);
    expect(photo.status).toBe(200);
    expect(photo.headers.get("content-type")).toBe("image/jpeg");
    expect((await phone.get(`/e/${link.token}/photos/1`)).status).toBe(404);
    expect((await phone.get(`/e/${link.token}/photos/-1`)).status).toBe(404);

    const pdf = await phone.get(`/e/${link.token}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    // Named by the estimate's number, as the dealer's copy and the email's attachment are.
    const number = String(id).slice(-8).toUpperCase();
    expect(pdf.headers.get("content-disposition")).toBe(`inline; filename="estimate-${number}.pdf"; filename*=UTF-8''estimate-${number}.pdf`);
    expect(pdf.bytes.subarray(0, 5).toString()).toBe("%PDF-");
    expect(createHash("sha256").update(pdf.bytes).digest("hex")).toBe(link.pdfSha256);

    const listed = await dealerA.get(`/api/assessments/${id}/links`);
    expect(listed.status).toBe(200);
    const first = listed.json.links.find((l: { id: string }) => l.id === link.id);
    expect(first).toMatchObject({ state: "active", version: 1, views: 1, via: "api" });
    expect(first.firstViewedAt).toBe(first.lastViewedAt);
    expect(first).not.toHaveProperty("token");
    await new Promise((r) => setTimeout(r, 20));
    await phone.get(pagePath(link.token));
    const again = (await dealerA.get(`/api/assessments/${id}/links`)).json.links.find((l: { id: string }) => l.id === link.id);
    expect(again.views).toBe(2);
    expect(again.firstViewedAt).toBe(first.firstViewedAt);
    expect(new Date(again.lastViewedAt).getTime()).toBeGreaterThan(new Date(first.lastViewedAt).getTime());
  });

  it("shows the version's sheet: lines grouped by operation with their part, and the totals block equal to the API's sheet.totals", async () => {
    const estimateSheet = {
      lines: [
        { id: "d0-1", damage: 0, operation: "replace", description: "Door shell", labour: { category: "body", hours: 2.5, rateCents: 6000 }, part: { type: "oem", number: "67001-06900", description: "Front door shell", quantity: 1, unitPriceCents: 48999 }, amountCents: 0, note: "" },
        { id: "d0-2", damage: 0, operation: "refinish", description: "Door", labour: { category: "refinish", hours: 1.75, rateCents: 6500 }, part: null, amountCents: 0, note: "" },
        { id: "x-1", damage: null, operation: "sublet", description: "Wheel alignment", labour: null, part: null, amountCents: 8900, note: "" },
      ],
      rates: { body: 6000, refinish: 6500, mechanical: 6000, frame: 6000 },
      materialsRateCents: 3800,
      taxRates: { parts: 8.875, labour: 4, materials: 8.875 },
      deductibleCents: 50000,
      language: null,
      mileage: 41000,
    };
    const id = await sentEstimate({ estimateSheet, estimatedCost: 1 });
    const t = (await dealerA.get(`/api/assessments/${id}`)).json.sheet.totals;
    // As the edit service stores it: the estimate's cost is the sheet's total.
    await Assessment.updateOne({ _id: id }, { $set: { estimatedCost: t.totalCents / 100 } });
    expect(t.taxTotalCents).toBeGreaterThan(0);
    const money = (cents: number) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);
    const link = await newLink(dealerA, id);
    const page = await customer().get(pagePath(link.token));
    expect(page.status).toBe(200);
    expect(page.text).not.toMatch(/<script/i);
    // Grouped by operation in the PDF's order: Replace, Refinish, Sublet.
    const groups = [...page.text.matchAll(/class="group">([^<]+)</g)].map((m) => m[1]);
    expect(groups).toEqual(["Replace", "Refinish", "Sublet"]);
    expect(page.text).toMatch(/data-testid="public-line-part">Part: OEM 67001-06900 Front door shell × 1 @ \$489\.99</);
    const taxes = [...page.text.matchAll(/<th scope="row">(Tax[^<]*)<\/th><td class="amount"[^>]*>([^<]+)</g)].map((m) => [m[1], m[2]]);
    expect(taxes).toEqual([
      ["Tax on parts (8.875%)", money(t.taxCents.parts)],
      ["Tax on labour (4%)", money(t.taxCents.labour)],
      ["Tax on paint materials (8.875%)", money(t.taxCents.materials)],
    ]);
    expect(page.text).toContain(`data-testid="public-total">${money(t.totalCents)}<`);
    expect(page.text).toContain(`data-testid="headline-total">${money(t.totalCents)}<`);
    expect(page.text).toContain(`data-testid="public-subtotal">${money(t.subtotalCents)}<`);
    expect(page.text).toContain(`data-testid="public-customer-pays">${money(t.customerPaysCents)}<`);
    expect(page.text).toContain(`data-testid="public-insurer-pays">${money(t.insurerPaysCents)}<`);
    expect(t.customerPaysCents).toBe(50000);
  });

  it("says why each price, in a <details> that opens without script: the vendor's rule and a reviewer's total", async () => {
    const estimateSheet = {
      lines: [
        {
          id: "d0-1",
          damage: 0,
          operation: "repair",
          description: "Door dent",
          labour: { category: "body", hours: 2, rateCents: 5000, amountCents: 13421 },
          part: null,
          amountCents: 8000,
          note: "",
          basis: [
            { kind: "rule", damageType: "dent", severity: "moderate" },
            { kind: "base", cents: 5000 },
            { kind: "adjustment", make: 1.1, location: 1, seasonal: 1, markupPercent: 20, cents: 3000 },
            { kind: "reviewer", fromCents: 19000, toCents: 21421 },
          ],
        },
      ],
      rates: { body: 5000, refinish: 5000, mechanical: 5000, frame: 5000 },
      materialsRateCents: 0,
      taxRates: { parts: 0, labour: 0, materials: 0 },
      deductibleCents: null,
      language: null,
      mileage: null,
    };
    const id = await sentEstimate({ estimateSheet, estimatedCost: 214.21 });
    const page = await customer().get(pagePath((await newLink(dealerA, id)).token));
    expect(page.status).toBe(200);
    expect(page.text).not.toMatch(/<script/i);
    const basis = page.text.match(/<details class="basis" data-testid="public-line-basis"><summary>Why this price<\/summary><ul>(.*?)<\/ul><\/details>/)?.[1] ?? "";
    expect([...basis.matchAll(/<li>([^<]*)<\/li>/g)].map((m) => m[1].replace(/&#x27;/g, "'"))).toEqual([
      "The vendor's price for dent (moderate)",
      "Base price $50.00",
      "Modifiers and markup on the whole repair (vehicle make × 1.1, markup 20%): +$30.00",
      "A reviewer set this damage's total from $190.00 to $214.21, spread over its labour, parts and flat amounts in proportion",
    ]);
    expect(page.text).toMatch(/Labour \(body\): 2 h × \$50\.00 = \$100\.00(<!-- -->)?, set to \$134\.21/);
    expect(page.text).toMatch(/Flat amount(<!-- -->)?: (<!-- -->)?\$80\.00/);
    expect(page.text).not.toContain("Other charges");
  });

  it("stores only the token's hash; unknown, altered and malformed tokens are 404 pages", async () => {
    const id = await sentEstimate();
    const link = await newLink(dealerA, id);
    const stored = await EstimateLink.findById(link.id).lean<Record<string, unknown>>();
    expect(stored?.tokenHash).toBe(createHash("sha256").update(link.token).digest("hex"));
    expect(JSON.stringify(stored)).not.toContain(link.token);
    const phone = customer();
    const altered = `${link.token.slice(0, -1)}${link.token.endsWith("A") ? "B" : "A"}`;
    for (const token of [altered, "x".repeat(43), "short", link.id, createHash("sha256").update(link.token).digest("hex")]) {
      const res = await phone.get(pagePath(token));
      expect(res.status, token).toBe(404);
      expect(res.text).toContain("Link not found");
      expect(res.text).not.toContain("Silver Camry");
      expect((await phone.get(`/e/${token}/pdf`)).status).toBe(404);
      expect((await phone.get(`/e/${token}/photos/0`)).status).toBe(404);
    }
  });

  it("a link is only for the latest version of a completed, reviewed or sent estimate", async () => {
    expect((await dealerA.post(`/api/assessments/${await sentEstimate({ status: "uploaded" })}/links`)).status).toBe(409);
    expect((await dealerA.post(`/api/assessments/${await sentEstimate()}/links`, { expiresAt: "2099-01-01" })).status).toBe(400);
  });
});

describe("approve, decline, ask", () => {
  it("approve: the server's messages, then the decision recorded once with time, IP, user agent, version and the PDF's hash", async () => {
    const id = await sentEstimate();
    const link = await newLink(dealerA, id);
    const phone = customer();
    const path = pagePath(link.token);

    const cases: [Record<string, string>, string][] = [
      [{ intent: "approve", termsAccepted: "on" }, SIGNATURE_REQUIRED],
      [{ intent: "approve", signatureName: "   ", termsAccepted: "on" }, SIGNATURE_REQUIRED],
      [{ intent: "approve", signatureName: "J", termsAccepted: "on" }, SIGNATURE_TOO_SHORT],
      [{ intent: "approve", signatureName: "Jane Doe" }, TERMS_REQUIRED],
    ];
    for (const [body, message] of cases) {
      const res = await phone.post(path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.text).toContain(message);
    }
    expect(await CustomerDecision.countDocuments({ assessmentId: id })).toBe(0);
    // What was typed is kept.
    expect((await phone.post(path, { intent: "approve", signatureName: "Jane Q. Doe" })).text).toContain('value="Jane Q. Doe"');

    const before = await dbTime();
    const ok = await phone.post(path, { intent: "approve", signatureName: "Jane Doe", termsAccepted: "on" });
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe(`${path}?done=approved`);
    const after = await dbTime();

    const [decision] = await CustomerDecision.find({ assessmentId: id }).lean<Record<string, unknown>[]>();
    expect(decision).toMatchObject({ decision: "approved", signatureName: "Jane Doe", termsAccepted: true, version: 1, ip: phone.ip, pdfSha256: link.pdfSha256, estimatedCost: 425.5 });
    expect(decision.userAgent).toContain("TestPhone");
    const at = (decision.decidedAt as Date).getTime();
    expect(at).toBeGreaterThanOrEqual(before.getTime() - 1000);
    expect(at).toBeLessThanOrEqual(after.getTime() + 1000);

    const estimate = await dealerA.get(`/api/assessments/${id}`);
    expect(estimate.json.status).toBe("sent");
    expect(estimate.json.customerDecision).toMatchObject({ decision: "approved", decisionId: String(decision._id) });
    const shown = await phone.get(`${path}?done=approved`);
    expect(shown.text).toContain("signed as Jane Doe");
    expect(shown.text).not.toContain('value="approve"');

    // Once: neither a second approval nor a decline changes it.
    expect((await phone.post(path, { intent: "decline", reason: "Changed my mind" })).status).toBe(409);
    expect((await phone.post(path, { intent: "approve", signatureName: "Someone Else", termsAccepted: "on" })).status).toBe(409);
    expect(await CustomerDecision.countDocuments({ assessmentId: id })).toBe(1);
    // Insert-only: the model refuses to change or remove one.
    await expect(CustomerDecision.updateOne({ _id: decision._id }, { $set: { decision: "declined" } })).rejects.toThrow(/insert-only/);
    await expect(CustomerDecision.deleteOne({ _id: decision._id })).rejects.toThrow(/insert-only/);

    // The dealer hears of it by email (through the outbox) and in the links answer.
    const notice = await vi.waitFor(
      async () => {
        const found = await EmailLog.findOne({ ownerId: aId, kind: "notification", subject: "Estimate approved: Silver Camry" }).lean<{ text: string }>();
        expect(found).not.toBeNull();
        return found!;
      },
      { timeout: 10_000 },
    );
    expect(notice.text).toContain("Signed as: Jane Doe");
    const listed = await dealerA.get(`/api/assessments/${id}/links`);
    expect(listed.json.decisions).toEqual([expect.objectContaining({ decision: "approved", ip: phone.ip, pdfSha256: link.pdfSha256, estimateId: id, version: 1 })]);
  });

  it("decline with an optional reason; a question goes to the dealer; both validated", async () => {
    const id = await sentEstimate({ title: "Blue Civic" });
    const link = await newLink(dealerA, id);
    const phone = customer();
    const path = pagePath(link.token);
    const question = await phone.post(path, { intent: "question", message: "  " });
    expect(question.status).toBe(400);
    expect(question.text).toContain(QUESTION_REQUIRED);
    expect((await phone.post(path, { intent: "question", message: "Does it include paint?", replyEmail: "not-an-email" })).status).toBe(400);
    const asked = await phone.post(path, { intent: "question", message: "Does it include paint?", replyEmail: "jane@example.com" });
    expect(asked.status).toBe(303);
    const mail = await vi.waitFor(
      async () => {
        const found = await EmailLog.findOne({ ownerId: aId, subject: "Question about your estimate: Blue Civic" }).lean<{ text: string }>();
        expect(found).not.toBeNull();
        return found!;
      },
      { timeout: 10_000 },
    );
    expect(mail.text).toContain("Does it include paint?");
    expect(mail.text).toContain("Reply to: jane@example.com");

    expect((await phone.post(path, { intent: "decline", reason: "x".repeat(1001) })).text).toContain(REASON_TOO_LONG);
    const declined = await phone.post(path, { intent: "decline", reason: "Too expensive" });
    expect(declined.status).toBe(303);
    expect(await CustomerDecision.findOne({ assessmentId: id }).lean()).toMatchObject({ decision: "declined", reason: "Too expensive" });
    expect((await dealerA.get(`/api/assessments/${id}`)).json.customerDecision.decision).toBe("declined");
    expect((await phone.get(path)).text).toContain("Declined on");
  });

  it("Total Revenue counts sent estimates not declined and approved ones; the dashboard lists the decisions", async () => {
    const { dealerA: own, aId: ownId } = await tenancyClients(app);
    const owner = { id: () => ownId, who: () => own };
    const approved = await sentEstimate({ estimatedCost: 100, status: "reviewed" }, owner);
    const declined = await sentEstimate({ estimatedCost: 20 }, owner);
    await sentEstimate({ estimatedCost: 3 }, owner);
    expect((await own.get("/api/dashboard/stats")).json.totalRevenue).toBe(23);
    const phone = customer();
    await phone.post(pagePath((await newLink(own, approved)).token), { intent: "approve", signatureName: "Jane Doe", termsAccepted: "on" });
    await phone.post(pagePath((await newLink(own, declined)).token), { intent: "decline" });
    // Approved (though only reviewed: saved to the drop, say) 100 + sent 3; the declined 20 is out.
    expect((await own.get("/api/dashboard/stats")).json.totalRevenue).toBe(103);
    const dashboard = await own.get("/?_data=routes%2F_app._index");
    expect(dashboard.status).toBe(200);
    expect(dashboard.json.decisions.map((d: { decision: string; estimateId: string }) => [d.decision, d.estimateId])).toEqual([
      ["declined", declined],
      ["approved", approved],
    ]);
  });
});

describe("revocation, expiry, supersession", () => {
  it("a revoked link is a 410 page saying so; its PDF and photos are gone too", async () => {
    const id = await sentEstimate();
    const link = await newLink(dealerA, id);
    const revoked = await dealerA.del(`/api/assessments/${id}/links/${link.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.json).toMatchObject({ id: link.id, state: "revoked" });
    const phone = customer();
    const page = await phone.get(pagePath(link.token));
    expect(page.status).toBe(410);
    expect(page.text).toContain("This estimate link has been withdrawn by");
    expect(page.text).not.toContain("Door dent");
    expect((await phone.get(`/e/${link.token}/pdf`)).status).toBe(410);
    expect((await phone.get(`/e/${link.token}/photos/0`)).status).toBe(410);
    expect((await phone.post(pagePath(link.token), { intent: "approve", signatureName: "Jane Doe", termsAccepted: "on" })).status).toBe(410);
    expect(await CustomerDecision.countDocuments({ assessmentId: id })).toBe(0);
    expect((await dealerA.del(`/api/assessments/${id}/links/${"0".repeat(24)}`)).status).toBe(404);
  });

  it("expires after the account's days, measured on the database's clock", async () => {
    const { dealerA: own, aId: ownId } = await tenancyClients(app);
    expect((await own.put("/api/auth/preferences", { estimateLinkDays: 0 })).json.errors.estimateLinkDays).toBe(ESTIMATE_LINK_DAYS_MESSAGE);
    expect((await own.put("/api/auth/preferences", { estimateLinkDays: "7; drop" })).status).toBe(400);
    expect((await own.put("/api/auth/preferences", { estimateLinkDays: 2 })).status).toBe(200);
    const id = await sentEstimate({}, { id: () => ownId, who: () => own });
    const link = await newLink(own, id);
    const days = (new Date(link.expiresAt).getTime() - new Date(link.createdAt).getTime()) / (24 * 3600 * 1000);
    expect(days).toBe(2);
    // Created on the database's time.
    expect(Math.abs(new Date(link.createdAt).getTime() - (await dbTime()).getTime())).toBeLessThan(5_000);

    const phone = customer();
    // Just before the end (by the database's clock) it opens; just after, 410.
    await EstimateLink.collection.updateOne({ _id: new mongoose.Types.ObjectId(link.id) }, { $set: { expiresAt: new Date((await dbTime()).getTime() + 60_000) } });
    expect((await phone.get(pagePath(link.token))).status).toBe(200);
    await EstimateLink.collection.updateOne({ _id: new mongoose.Types.ObjectId(link.id) }, { $set: { expiresAt: new Date((await dbTime()).getTime() - 1_000) } });
    const page = await phone.get(pagePath(link.token));
    expect(page.status).toBe(410);
    expect(page.text).toContain("This estimate link has expired");
    expect((await own.get(`/api/assessments/${id}/links`)).json.links[0].state).toBe("expired");
  });

  it("Settings → Security sets the days without JavaScript, with the field's message on a bad value", async () => {
    const user = await createTestUser({ role: "dealer" });
    const cookie = await signIn(app, user.username, user.password);
    const post = (body: Record<string, string>) =>
      fetch(`${app.url}/settings?tab=security`, {
        method: "POST",
        redirect: "manual",
        headers: { Cookie: cookie, Origin: app.url, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(body),
      });
    const page = await (await fetch(`${app.url}/settings?tab=security`, { headers: { Cookie: cookie } })).text();
    expect(page).toContain("Customer estimate links");
    expect(page).toMatch(/name="estimateLinkDays"[^>]*value="30"|value="30"[^>]*name="estimateLinkDays"/);
    const bad = await post({ intent: "update-estimate-links", estimateLinkDays: "400" });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain(ESTIMATE_LINK_DAYS_MESSAGE);
    expect((await post({ intent: "update-estimate-links", estimateLinkDays: "45" })).status).toBe(302);
    expect((await User.findById(user.id).lean<{ estimateLinkDays: number }>())?.estimateLinkDays).toBe(45);
  });

  it("an app whose own clock runs two days fast still keeps a one-day link open (the database's clock decides)", async () => {
    const { dealerA: own, aId: ownId } = await tenancyClients(app);
    expect((await own.put("/api/auth/preferences", { estimateLinkDays: 1 })).status).toBe(200);
    const id = await sentEstimate({}, { id: () => ownId, who: () => own });
    const link = await newLink(own, id);
    const skewed = await startApp({
      env: {
        TRUST_PROXY: "1",
        CLOCK_SKEW_MS: String(2 * 24 * 3600 * 1000),
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import=${new URL("../../tests/clock-skew.mjs", import.meta.url).href}`.trim(),
      },
    });
    try {
      const res = await fetch(`${skewed.url}${pagePath(link.token)}`, { headers: { "X-Forwarded-For": "203.0.113.77" } });
      expect(res.status).toBe(200);
    } finally {
      await skewed.stop();
    }
  });

  it("a newer version supersedes the old link at once; an API-made link for it is not pointed to", async () => {
    const v1 = await sentEstimate();
    const old = await newLink(dealerA, v1);
    const record = await Assessment.findById(v1).lean<Record<string, unknown>>();
    const rest = Object.fromEntries(Object.entries(record!).filter(([key]) => !["_id", "createdAt", "updatedAt", "audit"].includes(key)));
    const v2 = await Assessment.create({ ...rest, status: "sent", supplementOf: v1, version: 2, estimatedCost: 600 });
    await Assessment.updateOne({ _id: v1 }, { $set: { supersededBy: v2._id } });
    // The old version can no longer get a link, and its link is revised at once (docs/decisions/0035).
    expect((await dealerA.post(`/api/assessments/${v1}/links`)).status).toBe(409);
    const phone = customer();
    expect((await phone.get(pagePath(old.token))).status).toBe(410);
    const fresh = await newLink(dealerA, String(v2._id));
    expect(fresh.version).toBe(2);
    const page = await phone.get(pagePath(old.token));
    expect(page.status).toBe(410);
    expect(page.text).toContain("This estimate has been revised");
    expect(page.text).not.toContain(fresh.token);
    expect(page.text).not.toMatch(/href=/);
    const now = await phone.get(pagePath(fresh.token));
    expect(now.status).toBe(200);
    expect(now.text).toContain("$600.00");
    expect(now.text).toContain(`Revised estimate S01 No. ${v1.slice(-8).toUpperCase()}-S01`);
    // Listed from either version: both links, the old one superseded.
    const listed = (await dealerA.get(`/api/assessments/${v1}/links`)).json.links as { id: string; state: string }[];
    expect(listed.map((l) => [l.id, l.state])).toEqual([
      [fresh.id, "active"],
      [old.id, "superseded"],
    ]);
  });
});

describe("tenancy", () => {
  it("another account can neither list, create nor revoke an estimate's links (404); an admin can", async () => {
    const id = await sentEstimate();
    const link = await newLink(dealerA, id);
    expect((await dealerB.get(`/api/assessments/${id}/links`)).status).toBe(404);
    expect((await dealerB.post(`/api/assessments/${id}/links`)).status).toBe(404);
    expect((await dealerB.del(`/api/assessments/${id}/links/${link.id}`)).status).toBe(404);
    // Its own estimate's id with A's link id: not found either.
    const theirs = await sentEstimate({}, { id: () => bId, who: () => dealerB });
    expect((await dealerB.del(`/api/assessments/${theirs}/links/${link.id}`)).status).toBe(404);
    expect((await EstimateLink.findById(link.id).lean<{ revokedAt?: Date }>())?.revokedAt).toBeUndefined();
    expect((await admin.get(`/api/assessments/${id}/links`)).json.links).toHaveLength(1);
    expect((await client(app).get(`/api/assessments/${id}/links`)).status).toBe(401);
  });

  it("a token reaches its own version's photos only: a stored reference to another account's upload is not served", async () => {
    const foreign = await uploadMedia(dealerB);
    const own = await uploadMedia(dealerA);
    const id = await sentEstimate({ mediaUrls: [own, foreign] });
    const link = await newLink(dealerA, id);
    const other = await newLink(dealerA, await sentEstimate({ title: "Other car" }));
    const phone = customer();
    const first = await phone.get(`/e/${link.token}/photos/0`);
    expect(first.status).toBe(200);
    expect((await phone.get(`/e/${link.token}/photos/1`)).status).toBe(404);
    // The other link's photo 0 is its own photo, not this one's.
    const otherPhoto = await phone.get(`/e/${other.token}/photos/0`);
    expect(otherPhoto.status).toBe(200);
    const page = await phone.get(pagePath(other.token));
    expect(page.text).toContain("Other car");
    expect(page.text).not.toContain(link.token);
    // A decision through one token lands on its own version only.
    await phone.post(pagePath(other.token), { intent: "decline" });
    expect(await CustomerDecision.countDocuments({ assessmentId: id })).toBe(0);
  });
});

describe("the page shows what the customer signs for (issue 40 item 8)", () => {
  // Account B's estimates: account A's uploads are near their limit by now, and the rate limits below need some.
  const ownerB = { id: () => bId, who: () => dealerB };
  it("shows the account's terms as the PDF prints them, and the box accepts 'the terms above' (not 'see the PDF')", async () => {
    const put = await dealerB.put("/api/auth/estimate-settings", {
      taxParts: 0,
      taxLabour: 0,
      taxMaterials: 0,
      validityDays: 30,
      terms: "Work starts once {{customer.name}} approves.\n\nPayment of {{estimate.total}} is due on collection from {{account.name}}.",
    });
    expect(put.status, put.text).toBe(200);
    try {
      const id = await sentEstimate({}, ownerB);
      const link = await newLink(dealerB, id);
      const page = await customer().get(pagePath(link.token));
      expect(page.status).toBe(200);
      const terms = /data-testid="public-terms"[^>]*>([^<]*)</.exec(page.text);
      expect(terms?.[1]).toBe("Work starts once Jane Doe approves.\n\nPayment of $425.50 is due on collection from " + /data-testid="dealer-name">([^<]+)</.exec(page.text)?.[1] + ".");
      expect(page.text).toContain("I accept this estimate and the terms above, for a total of $425.50");
      expect(page.text).not.toContain("see the PDF");
    } finally {
      await dealerB.put("/api/auth/estimate-settings", { taxParts: 0, taxLabour: 0, taxMaterials: 0, validityDays: 30, terms: "" });
    }
  }, 60_000);

  it("the customer's link and the dealer's notices of their answers point to one origin (PUBLIC_URL unset)", async () => {
    const id = await sentEstimate({ title: "Origin Corolla" }, ownerB);
    const link = await newLink(dealerB, id);
    const origin = new URL(link.url).origin;
    const phone = customer();
    expect((await phone.post(pagePath(link.token), { intent: "question", message: "Is the bumper included?" })).status).toBe(303);
    expect((await phone.post(pagePath(link.token), { intent: "approve", signatureName: "Jane Doe", termsAccepted: "on" })).status).toBe(303);
    const notices = await vi.waitFor(
      async () => {
        const found = await EmailLog.find({ ownerId: bId, kind: "notification", subject: /Origin Corolla/ }).lean<{ text: string }[]>();
        expect(found).toHaveLength(2);
        return found;
      },
      { timeout: 15_000 },
    );
    // The approval's notice says "Open it in Estimates", the question's "Answer it in Estimates": both link to the customer's origin.
    for (const notice of notices) expect(notice.text).toContain(`it in Estimates: ${origin}/estimates?view=${id}`);
  }, 60_000);

  it("shows the dealer's logo (the PDF's), served by the link in the owner's scope; none without one", async () => {
    const id = await sentEstimate({}, ownerB);
    const before = await newLink(dealerB, id);
    const plain = await customer().get(pagePath(before.token));
    expect(plain.text).not.toContain('data-testid="dealer-logo"');
    expect((await customer().get(`${pagePath(before.token)}/logo`)).status).toBe(404);

    const logoUrl = await uploadMedia(dealerB);
    await User.updateOne({ _id: bId }, { $set: { "estimateSettings.logoUrl": logoUrl } });
    try {
      const page = await customer().get(pagePath(before.token));
      expect(page.text).toMatch(new RegExp(`<img class="logo" src="/e/${before.token}/logo" alt="[^"]+ logo" data-testid="dealer-logo"/>`));
      const logo = await customer().get(`${pagePath(before.token)}/logo`);
      expect(logo.status).toBe(200);
      expect(logo.headers.get("content-type")).toBe("image/jpeg");
      expect(logo.bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
      // A revoked link serves no logo either.
      expect((await dealerB.del(`/api/assessments/${id}/links/${before.id}`)).status).toBeLessThan(300);
      expect((await customer().get(`${pagePath(before.token)}/logo`)).status).toBe(410);
    } finally {
      await User.updateOne({ _id: bId }, { $unset: { "estimateSettings.logoUrl": "" } });
    }
  }, 60_000);
});

describe("rate limits", () => {
  it("per address: guessing tokens from one address is stopped with 429 and Retry-After; others go on", async () => {
    const guesser = customer("192.0.2.10");
    let refused: Awaited<ReturnType<typeof guesser.get>> | null = null;
    for (let i = 0; i < LIMITS.ip + 1; i += 1) {
      const res = await guesser.get(pagePath(createHash("sha256").update(String(i)).digest("base64url").slice(0, 43)));
      if (res.status === 429) {
        refused = res;
        break;
      }
      expect(res.status).toBe(404);
    }
    expect(refused?.status).toBe(429);
    expect(Number(refused?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused?.text).toContain("Too many requests");
    const link = await newLink(dealerA, await sentEstimate());
    expect((await guesser.get(pagePath(link.token))).status).toBe(429);
    expect((await customer("192.0.2.11").get(pagePath(link.token))).status).toBe(200);
  });

  it("guessed tokens and throttled requests add no documents: one counter per address, whatever the number of guesses", async () => {
    const counters = () => RateCounter.countDocuments({ key: /^estimate-link-/ });
    const before = await counters();
    const guesser = customer("192.0.2.20");
    const statuses = new Set<number>();
    for (let i = 0; i < LIMITS.ip * 2; i += 1) {
      statuses.add((await guesser.get(pagePath(createHash("sha256").update(`guess-${i}`).digest("base64url").slice(0, 43)))).status);
    }
    expect([...statuses].sort()).toEqual([404, 429]);
    // One counter for the address (two if its window turned during the loop), none per guess.
    expect(await counters()).toBeLessThanOrEqual(before + 2);
  });

  it("per token: many addresses on one link are stopped too; answers have a lower limit", async () => {
    const link = await newLink(dealerA, await sentEstimate());
    // The windows are fixed (ESTIMATE_LINK_RATE_WINDOW_S): one may turn during a loop and start the
    // count again, so each loop may go on for a second window's worth before its 429.
    let sent = 0;
    let status = 0;
    while (status !== 429 && sent < 2 * (LIMITS.token + 1)) {
      sent += 1;
      status = (await customer(`203.0.113.${sent}`).get(pagePath(link.token))).status;
      if (status !== 429) expect(status).toBe(200);
    }
    expect(status).toBe(429);
    expect(sent).toBeGreaterThan(LIMITS.token);

    const asking = await newLink(dealerA, await sentEstimate());
    const statuses: number[] = [];
    while (statuses.at(-1) !== 429 && statuses.length < 2 * (LIMITS.posts + 1)) {
      statuses.push((await customer(`203.0.114.${statuses.length + 1}`).post(pagePath(asking.token), { intent: "question", message: "" })).status);
    }
    expect(statuses.length).toBeGreaterThan(LIMITS.posts);
    expect(statuses.slice(0, -1).every((s) => s === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
