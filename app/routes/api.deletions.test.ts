import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Assessment } from "~/models/assessment.server";
import { TrainingItem } from "~/models/training-item.server";
import { encodeCursor } from "~/schemas/list-cursor";
import { UPDATED_SINCE_INVALID } from "~/schemas/list-query";
import { client, createTestUser, signIn } from "../../tests/accounts";
import { type RunningApp } from "../../tests/app-server";
import { startTenancyApp } from "../../tests/signed-in-app";

// Issue 42 item 6 (docs/decisions/0056): a sync learns what was deleted (GET /api/deletions), the
// small lists answered whole sync too (`updatedSince`, `X-Total-Count`), and a customer's decision
// reaches a sync without moving the estimate's day in Sent Today.
let app: RunningApp;
type Client = ReturnType<typeof client>;
let dealer: Client;
let vendor: Client;
let admin: Client;
let dealerId: string;

beforeAll(async () => {
  ({ app, aId: dealerId, dealerA: dealer, dealerB: vendor, admin } = await startTenancyApp({ otherRole: "vendor", env: { OUTBOUND_ALLOW: "127.0.0.1" } }));
});
afterAll(() => app?.stop());

type Deletion = { kind: string; id: string; deletedAt: string };
const since = (at: string) => `updatedSince=${encodeURIComponent(at)}`;

async function created(who: Client, path: string, body: object) {
  const res = await who.post(path, body);
  expect(res.status, `${path} ${JSON.stringify(res.json)}`).toBe(201);
  return String(res.json.id ?? res.json.user?.id ?? res.json.token?.id);
}

async function deleted(who: Client, path: string) {
  const res = await who.del(path);
  expect(res.status, path).toBeLessThan(300);
}

describe("GET /api/deletions", () => {
  const mine: Record<string, string> = {};
  const theirs: Record<string, string> = {};
  const platform: Record<string, string> = {};
  let start: string;

  beforeAll(async () => {
    start = new Date().toISOString();
    mine.contact = await created(dealer, "/api/contacts", { firstName: "Gone", lastName: "Soon", email: "gone@sync.test" });
    mine.package = await created(dealer, "/api/packages", { name: "Gone package", description: "Wash", price: 10 });
    mine.emailTemplate = await created(dealer, "/api/email-templates", { name: "Gone template", subject: "Hi", htmlContent: "<p>Hi</p>" });
    mine.webhookEndpoint = await created(dealer, "/api/webhooks", { url: "http://127.0.0.1:9/gone", events: ["assessment.created"] });
    mine.apiToken = (await dealer.post("/api/auth/tokens", { name: "Gone token" })).json.id;
    mine.assessment = String((await Assessment.create({ ownerId: dealerId, title: "Gone estimate", mediaUrls: [] }))._id);
    theirs.pricingRule = await created(vendor, "/api/vendor-pricing-rules", { damageType: "dent", severity: "minor", basePrice: 100, laborRate: 80, notes: "Gone" });
    theirs.vendorPackage = await created(vendor, "/api/vendor-packages", { packageName: "Gone", description: "Gone", serviceTypes: ["dent"], pricingModel: "flat_rate", basePrice: 199 });
    platform.trainingItem = String(
      (await TrainingItem.create({ createdBy: dealerId, imageUrl: "/media/6650c0ffee0123456789abcd", damageType: "dent", severity: "minor", description: "Gone", estimatedCost: 100 }))._id,
    );
    platform.user = await created(admin, "/api/admin/users", { username: "gone-user", password: "123456", email: "gone@example.com", firstName: "Gone", lastName: "User", role: "dealer" });

    await deleted(dealer, `/api/contacts/${mine.contact}`);
    await deleted(dealer, `/api/packages/${mine.package}`);
    await deleted(dealer, `/api/email-templates/${mine.emailTemplate}`);
    await deleted(dealer, `/api/webhooks/${mine.webhookEndpoint}`);
    await deleted(dealer, `/api/auth/tokens/${mine.apiToken}`);
    await deleted(dealer, `/api/assessments/${mine.assessment}`);
    await deleted(vendor, `/api/vendor-pricing-rules/${theirs.pricingRule}`);
    await deleted(vendor, `/api/vendor-packages/${theirs.vendorPackage}`);
    await deleted(admin, `/api/admin/ai-training-data/${platform.trainingItem}`);
    await deleted(admin, `/api/admin/users/${platform.user}`);
  });

  it("lists each of the caller's deletions once, oldest first, with its kind and id, and nobody else's", async () => {
    const res = await dealer.get(`/api/deletions?${since(start)}`);
    expect(res.status).toBe(200);
    expect(res.json.map((d: Deletion) => [d.kind, d.id])).toEqual(Object.entries(mine));
    expect(res.headers.get("x-total-count")).toBe(String(Object.keys(mine).length));
    const times = res.json.map((d: Deletion) => Date.parse(d.deletedAt));
    expect(times).toEqual([...times].sort((a, b) => a - b));

    const vendors = await vendor.get(`/api/deletions?${since(start)}`);
    expect(vendors.json.map((d: Deletion) => [d.kind, d.id])).toEqual(Object.entries(theirs));
    // An admin reads every account's, and the platform's own (training items, accounts).
    const admins = await admin.get(`/api/deletions?${since(start)}`);
    expect(admins.json.map((d: Deletion) => [d.kind, d.id])).toEqual(Object.entries({ ...mine, ...theirs, ...platform }));
    expect((await client(app).get("/api/deletions")).status).toBe(401);
  });

  it("pages by X-Next-Cursor, answers only deletions at or after updatedSince, and keeps its cursor to the caller", async () => {
    const seen: Deletion[] = [];
    let path: string | null = `/api/deletions?limit=4&${since(start)}`;
    while (path) {
      const res = await admin.get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-total-count")).toBe("10");
      seen.push(...res.json);
      const next = res.headers.get("x-next-cursor");
      path = next ? `/api/deletions?limit=4&${since(start)}&cursor=${next}` : null;
    }
    expect(seen).toHaveLength(10);
    const after = seen[5].deletedAt;
    const later = await admin.get(`/api/deletions?${since(after)}`);
    expect(later.json.map((d: Deletion) => d.id)).toEqual(seen.filter((d) => d.deletedAt >= after).map((d) => d.id));
    expect((await dealer.get("/api/deletions?updatedSince=2999-01-01T00:00:00Z")).json).toEqual([]);

    // Another account following the admin's cursor reads only its own.
    const page = await admin.get(`/api/deletions?limit=1&${since(start)}`);
    const cursor = page.headers.get("x-next-cursor");
    const followed = await dealer.get(`/api/deletions?limit=50&cursor=${cursor}`);
    expect(followed.json.every((d: Deletion) => Object.values(mine).includes(d.id))).toBe(true);
  });

  it("refuses a bad updatedSince, a screen's cursor and a malformed limit with a 400 naming the field", async () => {
    for (const bad of ["yesterday", "1700000000", ""]) {
      const res = await dealer.get(`/api/deletions?updatedSince=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(400);
      expect(res.json.errors.updatedSince).toBe(UPDATED_SINCE_INVALID);
    }
    const screenCursor = encodeCursor({ direction: "older", at: new Date(), id: "6650c0ffee0123456789abcd" });
    const mixed = await dealer.get(`/api/deletions?cursor=${screenCursor}`);
    expect(mixed.status).toBe(400);
    expect(mixed.json.errors.cursor).toMatch(/^cursor is not a cursor of this list/);
    expect((await dealer.get("/api/deletions?limit=0")).status).toBe(400);
  });
});

describe("the small lists answered whole sync too", () => {
  // One active rule per damage type and severity.
  const severities = ["minor", "moderate", "major"];
  const lists = () => [
    { who: dealer, path: "/api/webhooks", create: () => created(dealer, "/api/webhooks", { url: "http://127.0.0.1:9/kept", events: ["assessment.created"] }) },
    { who: dealer, path: "/api/auth/tokens", create: async () => String((await dealer.post("/api/auth/tokens", { name: "Kept token" })).json.id) },
    { who: vendor, path: "/api/vendor-pricing-rules", create: () => created(vendor, "/api/vendor-pricing-rules", { damageType: "scratch", severity: severities.shift(), basePrice: 90, laborRate: 80, notes: "Kept" }) },
    { who: vendor, path: "/api/vendor-packages", create: () => created(vendor, "/api/vendor-packages", { packageName: "Kept", description: "Kept", serviceTypes: ["dent"], pricingModel: "flat_rate", basePrice: 99 }) },
    { who: admin, path: "/api/admin/users", create: () => created(admin, "/api/admin/users", { username: `kept-${Date.now()}`, password: "123456", email: "kept@example.com", firstName: "Kept", lastName: "User", role: "dealer" }) },
  ];

  it("answer X-Total-Count, and with updatedSince only what changed since, oldest change first", async () => {
    for (const { who, path, create } of lists()) {
      const older = await create();
      const whole = await who.get(path);
      expect(whole.json.map((r: { id: string }) => r.id), path).toContain(older);
      expect(whole.status, path).toBe(200);
      expect(whole.headers.get("x-total-count"), path).toBe(String(whole.json.length));
      expect(whole.headers.get("x-next-cursor"), path).toBeNull();
      const mark = new Date().toISOString();
      await new Promise((resolve) => setTimeout(resolve, 5));
      const first = await create();
      const second = await create();
      const synced = await who.get(`${path}?${since(mark)}`);
      expect(synced.status, path).toBe(200);
      expect(synced.json.map((r: { id: string }) => r.id), path).toEqual([first, second]);
      expect(synced.headers.get("x-total-count"), path).toBe("2");
      const bad = await who.get(`${path}?updatedSince=yesterday`);
      expect(bad.status, path).toBe(400);
      expect(bad.json.errors.updatedSince, path).toBe(UPDATED_SINCE_INVALID);
    }
  });
});

describe("a customer's decision reaches a sync", () => {
  it("moves the estimate's updatedAt, and Sent Today still counts it on the day it was sent", async () => {
    const yesterday = new Date(Date.now() - 36 * 3600_000);
    const estimate = await Assessment.create({
      ownerId: dealerId, title: "Decided estimate", mediaUrls: [], status: "sent", sentAt: yesterday, estimatedCost: 120,
      lineItems: [{ damageType: "dent", severity: "minor", location: "left", priced: true, totalCents: 12000 }],
    });
    const id = String(estimate._id);
    // Last changed yesterday too: today's figures do not count it.
    await Assessment.updateOne({ _id: id }, { $set: { updatedAt: yesterday } }, { timestamps: false });
    const summary = async () => (await dealer.get("/estimates?_data=routes%2F_app.estimates")).json.summary.sentToday as number;
    const sentToday = await summary();
    const link = await dealer.post(`/api/assessments/${id}/links`);
    expect(link.status, link.text).toBe(201);
    const mark = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const decided = await fetch(`${app.url}/e/${link.json.token}`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: app.url },
      body: new URLSearchParams({ intent: "approve", signatureName: "Jane Doe", termsAccepted: "on" }).toString(),
    });
    expect(decided.status).toBeLessThan(400);

    const synced = await dealer.get(`/api/assessments?${since(mark)}`);
    expect(synced.status).toBe(200);
    const found = synced.json.find((a: { id: string }) => a.id === id);
    expect(found?.customerDecision?.decision).toBe("approved");
    expect(await summary()).toBe(sentToday);
  });
});

describe("tokens revoked together reach a sync", () => {
  it("a new password revokes every API token, and each is a deletion like a token deleted by hand", async () => {
    const person = await createTestUser({ role: "dealer" });
    const own = client(app, { cookie: await signIn(app, person.username, person.password) });
    const start = new Date().toISOString();
    const ids = [await created(own, "/api/auth/tokens", { name: "DMS" }), await created(own, "/api/auth/tokens", { name: "CRM" })];
    const changed = await own.put("/api/auth/password", { currentPassword: person.password, newPassword: "new-password-1", confirmPassword: "new-password-1" });
    expect(changed.status, changed.text).toBe(200);
    const again = client(app, { cookie: await signIn(app, person.username, "new-password-1") });
    expect((await again.get("/api/auth/tokens")).json).toEqual([]);
    const res = await again.get(`/api/deletions?${since(start)}`);
    expect(res.json.map((d: Deletion) => [d.kind, d.id]).sort()).toEqual(ids.map((id) => ["apiToken", id]).sort());
  });
});
