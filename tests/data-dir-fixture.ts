import { createHash } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { expect } from "vitest";
import { generate } from "otplib";
import { client, signIn } from "./accounts";
import type { RunningApp } from "./app-server";
import { jpeg, photo } from "./media-files";
import type { OpenAiTestServer } from "./openai-server";
import type { TestSmtpServer } from "./smtp-server";
import { uploadMedia } from "./uploads";
import type { TestReceiver } from "./webhook-receiver";

/**
 * A kept installation (issue 41 item 6): a DATA_DIR written by one release through its own API and
 * screens, kept under tests/fixtures/data-dir/<release>/, with what it held when it was written
 * (expected.json). tests/data-dir-fixtures.test.ts opens every kept one with the current code.
 * The secrets a test needs to prove the sealed ones still open are written down here on purpose:
 * they belong to this test installation only.
 */
export const FIXTURE_ROOT = "tests/fixtures/data-dir";

export const PEOPLE = {
  admin: { username: "fixture-admin", password: "fixture-admin-pw-1", email: "admin@fixture.example", firstName: "Ada", lastName: "Admin" },
  dealer: { username: "fixture-dealer", password: "fixture-dealer-pw-1", email: "dealer@fixture.example", firstName: "Dana", lastName: "Dealer" },
  vendor: { username: "fixture-vendor", password: "fixture-vendor-pw-1", email: "vendor@fixture.example", firstName: "Victor", lastName: "Vendor" },
};
export const MAIL_LOGIN = { user: "fixture-mail", pass: "fixture-mail-pw-1" };
export const AI_KEY = "sk-fixture-0123456789";

/** What the writer leaves beside the data: the figures to find again and the secrets to try. */
export interface Expected {
  release: string;
  writtenAt: string;
  totpSecret: string;
  apiToken: string;
  webhook: { id: string; secret: string };
  figures: Figures;
}

type Client = ReturnType<typeof client>;
type Servers = { ai: OpenAiTestServer; smtp: TestSmtpServer; receiver: TestReceiver };

const created = async (who: Client, path: string, body: unknown) => {
  const res = await who.post(path, body);
  expect(res.status, `${path}: ${res.text}`).toBe(201);
  return res.json as { id: string } & Record<string, unknown>;
};

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A form post to a screen, as a browser without JavaScript makes it. */
export async function screenForm(app: RunningApp, cookie: string, path: string, fields: Record<string, string>) {
  return fetch(`${app.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded", Origin: app.url },
    body: new URLSearchParams(fields).toString(),
  });
}

/** Signs in with the second factor when the account has one. */
export async function signInWithCode(app: RunningApp, who: { username: string; password: string }, totpSecret: string) {
  const res = await client(app).post("/api/admin/login", { username: who.username, password: who.password, totp: await generate({ secret: totpSecret }) });
  expect(res.status, res.text).toBe(200);
  return res.headers.get("set-cookie")!.split(";")[0];
}

/**
 * Fills a fresh installation as people would: the first admin, a dealer and a vendor, the AI provider
 * and the dealer's mail server with their sealed secrets, contacts, a package, a template, an analysed
 * estimate with photos sent by email and approved by the customer, a webhook endpoint with a delivery,
 * an API token, the vendor's pricing and a package, a training image, a deletion and two-factor.
 */
export async function writeInstallation(app: RunningApp, { ai, smtp, receiver }: Servers): Promise<{ secrets: Omit<Expected, "release" | "writtenAt" | "figures">; cookies: Cookies }> {
  const anon = client(app);
  expect((await anon.post("/api/admin/create-account", PEOPLE.admin)).status).toBe(201);
  const admin = client(app, { cookie: await signIn(app, PEOPLE.admin.username, PEOPLE.admin.password) });
  await created(admin, "/api/admin/users", { ...PEOPLE.dealer, role: "dealer" });
  await created(admin, "/api/admin/users", { ...PEOPLE.vendor, role: "vendor", companyName: "Fixture Body Works" });
  expect((await admin.put("/api/admin/ai-provider", { baseURL: ai.baseURL, model: "vision-fixture", apiKey: AI_KEY })).status).toBe(200);
  const training = await uploadMedia(admin, { bytes: await photo(160, 120, 7) });
  await created(admin, "/api/admin/ai-training-data", { imageUrl: training, damageType: "dent", severity: "minor", description: "Door ding", estimatedCost: 150 });

  const vendorCookie = await signIn(app, PEOPLE.vendor.username, PEOPLE.vendor.password);
  const vendor = client(app, { cookie: vendorCookie });
  const vendorId = String((await vendor.get("/api/auth/user")).json.id);
  await created(vendor, "/api/vendor-pricing-rules", { damageType: "dent", severity: "moderate", basePrice: 120, laborRate: 85, notes: "Paintless where possible" });
  await created(vendor, "/api/vendor-pricing-rules", { damageType: "scratch", severity: "minor", basePrice: 60, laborRate: 85 });
  await created(vendor, "/api/vendor-packages", { packageName: "Door care", description: "Dent and scratch", serviceTypes: ["dent", "scratch"], pricingModel: "flat_rate", basePrice: 249 });

  const cookie = await signIn(app, PEOPLE.dealer.username, PEOPLE.dealer.password);
  const dealer = client(app, { cookie });
  expect((await dealer.put("/api/email/settings", { host: smtp.host, port: smtp.port, user: MAIL_LOGIN.user, password: MAIL_LOGIN.pass, from: "service@fixture.example" }, { Origin: app.url })).status).toBe(200);
  const jane = await created(dealer, "/api/contacts", { firstName: "Jane", lastName: "Łukasiewicz", email: "jane@fixture.example", phone: "555-0100" });
  await created(dealer, "/api/contacts", { firstName: "Omar", lastName: "Haddad", email: "omar@fixture.example", company: "Haddad Fleet" });
  const gone = await created(dealer, "/api/contacts", { firstName: "Gone", lastName: "Soon", email: "gone@fixture.example" });
  expect((await dealer.del(`/api/contacts/${gone.id}`)).status).toBeLessThan(300);
  await created(dealer, "/api/packages", { name: "Premium detail", description: "Wash, polish and wax", price: 189.5 });
  await created(dealer, "/api/email-templates", { name: "Estimate ready", subject: "Your estimate for {{assessment.title}}", htmlContent: "<p>Hello {{contact.firstName}},</p><p>{{estimate.number}}</p>" });
  const webhook = await created(dealer, "/api/webhooks", { url: receiver.url("/fixture"), events: ["assessment.created", "assessment.completed", "estimate.approved"] });

  ai.script({
    json: {
      damages: [
        { damageType: "dent", location: "left", severity: "moderate", description: "Dent in the driver's door", confidence: 0.84, photo: 1 },
        { damageType: "scratch", location: "front", severity: "minor", description: "Scratch on the front bumper", confidence: 0.72, photo: 2 },
      ],
      summary: "A door dent and a bumper scratch.",
      confidence: 0.8,
    },
  });
  const mediaUrls = [await uploadMedia(dealer, { bytes: await photo(200, 150, 1) }), await uploadMedia(dealer, { bytes: await jpeg({ width: 180, height: 120 }) })];
  const estimate = await created(dealer, "/api/assessments", { title: "Silver Civic", vehicleMake: "Honda", vehicleModel: "Civic", vehicleYear: 2019, mediaUrls, vendorId, contactId: jane.id });
  expect((await dealer.post(`/api/assessments/${estimate.id}/analyze`)).status).toBeLessThan(300);
  await until("the analysis", async () => ["completed", "reviewed"].includes((await dealer.get(`/api/assessments/${estimate.id}`)).json.status));
  const sent = await dealer.post(`/api/assessments/${estimate.id}/send-email`, { contactId: jane.id }, { Origin: app.url });
  expect(sent.status, sent.text).toBe(202);
  await until("the email", async () => (await dealer.get(`/api/email-logs/${sent.json.id}`)).json.status === "sent");
  const link = await dealer.post(`/api/assessments/${estimate.id}/links`);
  expect(link.status, link.text).toBeLessThan(300);
  const approved = await fetch(`${app.url}/e/${link.json.token}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: app.url, "User-Agent": "FixturePhone/1.0" },
    body: new URLSearchParams({ intent: "approve", signatureName: "Jane Łukasiewicz", termsAccepted: "on" }).toString(),
  });
  expect(approved.status, await approved.text()).toBe(303);
  await created(dealer, "/api/assessments", { title: "Red Golf", vehicleMake: "Volkswagen", mediaUrls: [await uploadMedia(dealer, { bytes: await photo(200, 150, 2) })] });
  await until("the webhook deliveries", async () => receiver.on("/fixture").length >= 3);

  // Two-factor through the Security tab, as a browser turns it on.
  expect((await screenForm(app, cookie, "/settings?tab=security", { intent: "2fa-begin" })).status).toBe(302);
  const html = await (await fetch(`${app.url}/settings?tab=security`, { headers: { Cookie: cookie } })).text();
  const totpSecret = /data-testid="totp-key"[^>]*>([A-Z2-7 ]+)</.exec(html)?.[1]?.replace(/ /g, "") ?? "";
  const confirmed = await screenForm(app, cookie, "/settings?tab=security", { intent: "2fa-confirm", code: await generate({ secret: totpSecret }), currentPassword: PEOPLE.dealer.password });
  expect(confirmed.status).toBe(200);
  // After two-factor: turning it on revokes the tokens made before.
  const token = await created(dealer, "/api/auth/tokens", { name: "Fixture DMS" });

  return {
    secrets: { totpSecret, apiToken: String(token.token), webhook: { id: webhook.id, secret: String(webhook.secret) } },
    // The dealer's session from before two-factor stays valid; a new sign-in would replay the code just used.
    cookies: { admin: await signIn(app, PEOPLE.admin.username, PEOPLE.admin.password), dealer: cookie, vendor: vendorCookie },
  };
}

/** The figures a person sees, read from the API; none depends on the day it is read. */
export type Figures = Awaited<ReturnType<typeof figuresOf>>;

export type Cookies = { admin: string; dealer: string; vendor: string };

export async function figuresOf(app: RunningApp, cookies: Cookies) {
  const admin = client(app, { cookie: cookies.admin });
  const dealer = client(app, { cookie: cookies.dealer });
  const vendor = client(app, { cookie: cookies.vendor });
  const total = async (who: Client, path: string) => {
    const res = await who.get(path);
    expect(res.status, path).toBe(200);
    return Number(res.headers.get("x-total-count"));
  };
  const stats = (await dealer.get("/api/dashboard/stats")).json as { totalAssessments: number; pendingReviews: number; totalRevenue: number; aiAccuracy: number; workflow: Record<string, number>; recentAssessments: { id: string }[] };
  const estimates = (await dealer.get("/api/assessments?limit=100")).json as { id: string; title: string; status: string; estimatedCost: number | null; mediaUrls: string[]; customerDecision?: { decision: string } | null }[];
  const media: Record<string, string> = {};
  for (const url of estimates.flatMap((e) => e.mediaUrls)) {
    const res = await fetch(`${app.url}${url}`, { headers: { Cookie: cookies.dealer } });
    expect(res.status, url).toBe(200);
    media[url] = createHash("sha256").update(Buffer.from(await res.arrayBuffer())).digest("hex");
  }
  const dashboard = await (await fetch(`${app.url}/`, { headers: { Cookie: cookies.dealer } })).text();
  const cards = [...dashboard.matchAll(/aria-label="([^"]+)"><div[^>]*><div[^>]*><p[^>]*>[^<]*<\/p><p[^>]*data-testid="stat-value">([^<]*)</g)].map((m) => [m[1], m[2]]);
  const emails = (await dealer.get("/api/email-logs")).json as { subject: string; status: string; recipientEmail: string }[];
  return {
    dashboard: { totalAssessments: stats.totalAssessments, pendingReviews: stats.pendingReviews, totalRevenue: stats.totalRevenue, aiAccuracy: stats.aiAccuracy, workflow: stats.workflow, recent: stats.recentAssessments.map((a) => a.id) },
    dashboardScreen: Object.fromEntries(cards),
    estimates: estimates.map((e) => ({ id: e.id, title: e.title, status: e.status, estimatedCost: e.estimatedCost, decision: e.customerDecision?.decision ?? null })),
    media,
    emails: emails.map((e) => ({ subject: e.subject, status: e.status, recipient: e.recipientEmail })),
    totals: {
      contacts: await total(dealer, "/api/contacts"),
      packages: await total(dealer, "/api/packages"),
      templates: await total(dealer, "/api/email-templates"),
      emailLogs: await total(dealer, "/api/email-logs"),
      webhooks: await total(dealer, "/api/webhooks"),
      tokens: await total(dealer, "/api/auth/tokens"),
      pricingRules: await total(vendor, "/api/vendor-pricing-rules"),
      vendorPackages: await total(vendor, "/api/vendor-packages"),
      users: await total(admin, "/api/admin/users"),
      deletions: await total(dealer, "/api/deletions?updatedSince=2000-01-01T00:00:00.000Z"),
    },
  };
}

/**
 * Every secret sealed with the installation's session secret opens: the API token, the webhook's
 * signing secret (a delivery signed with it), the mail server's password (a connection test) and the
 * AI provider's key (an analysis sent with it).
 */
export async function expectSealedSecretsOpen(
  app: RunningApp,
  cookies: Cookies,
  expected: Expected,
  { ai, smtp, receiver }: { ai: OpenAiTestServer; smtp: TestSmtpServer; receiver: TestReceiver },
) {
  const byToken = await client(app, { token: expected.apiToken }).get("/api/auth/user");
  expect(byToken.status).toBe(200);
  expect(byToken.json.username).toBe(PEOPLE.dealer.username);

  const dealer = client(app, { cookie: cookies.dealer });
  // The servers moved (new ports); the stored secrets stay: a blank password keeps the sealed one.
  expect((await dealer.put(`/api/webhooks/${expected.webhook.id}`, { url: receiver.url("/kept") })).status).toBe(200);
  expect((await dealer.put("/api/email/settings", { host: smtp.host, port: smtp.port, user: MAIL_LOGIN.user, from: "service@fixture.example" }, { Origin: app.url })).status).toBe(200);
  expect((await dealer.get("/api/email/test")).json).toEqual({ connected: true, via: "account" });
  const admin = client(app, { cookie: cookies.admin });
  expect((await admin.put("/api/admin/ai-provider", { baseURL: ai.baseURL, model: "vision-fixture" })).status).toBe(200);

  const waiting = expected.figures.estimates.find((e) => e.estimatedCost === null)!;
  expect((await dealer.post(`/api/assessments/${waiting.id}/analyze`)).status).toBeLessThan(300);
  await expect.poll(() => ai.requests.length, { timeout: 30_000 }).toBeGreaterThan(0);
  expect(ai.requests[0].headers.authorization).toBe(`Bearer ${AI_KEY}`);
  await expect.poll(() => receiver.on("/kept").length, { timeout: 30_000 }).toBeGreaterThan(0);
  const delivery = receiver.on("/kept")[0];
  const event = new Webhook(expected.webhook.secret).verify(delivery.body, {
    "webhook-id": String(delivery.headers["webhook-id"]),
    "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
    "webhook-signature": String(delivery.headers["webhook-signature"]),
  }) as { type: string };
  expect(event.type).toBe("assessment.completed");
}
