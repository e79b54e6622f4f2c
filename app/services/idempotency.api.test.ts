import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IdempotencyKey } from "~/models/idempotency-key.server";
import { client, createTestUser, signIn, tokenFor } from "../../tests/accounts";
import { type RunningApp } from "../../tests/app-server";
import { routes } from "../../tests/route-registry";
import { uploadMedia } from "../../tests/uploads";
import { sweepExpiredIdempotencyKeys } from "./idempotency.server";
import { startTenancyApp } from "../../tests/signed-in-app";

// `Idempotency-Key` on every creating POST (docs/decisions/0017), over HTTP against the running app.

let app: RunningApp;
type Client = ReturnType<typeof client>;
let dealerA: Client;
let dealerB: Client;
let admin: Client;
let vendor: Client;
let vendorId: string;
let aId: string;

beforeAll(async () => {
  ({ app, aId, dealerA, dealerB, admin } = await startTenancyApp());
  const v = await createTestUser({ role: "vendor" });
  vendorId = v.id;
  vendor = client(app, { cookie: await signIn(app, v.username, v.password) });
});
afterAll(() => app?.stop());

let n = 0;
const newKey = () => `key-${Date.now()}-${++n}-${Math.random().toString(36).slice(2)}`;
const withKey = (key: string) => ({ "Idempotency-Key": key });
const count = async (who: Client, list: string) => {
  const res = await who.get(list);
  expect(res.status).toBe(200);
  return (res.json as unknown[]).length;
};

const jane = (email = "jane@example.com") => ({ firstName: "Jane", lastName: "Doe", email });
const template = (name = "Estimate ready") => ({ name, subject: "Your estimate", htmlContent: "<p>Hi {{contact.firstName}}</p>" });
const assessment = async (who: Client, title = "Front bumper") => ({ title, mediaUrls: [await uploadMedia(who)] });

/** The contract, for one creating route with a list to count in. */
async function replays(path: string, list: string, body: () => Promise<Record<string, unknown>>, otherBody: Record<string, unknown>) {
  const key = newKey();
  const sent = await body();
  const before = await count(dealerA, list);
  const first = await dealerA.post(path, sent, withKey(key));
  expect(first.status, first.text).toBe(201);
  expect(first.headers.get("idempotent-replayed")).toBeNull();
  const again = await dealerA.post(path, sent, withKey(key));
  expect(again.status).toBe(201);
  expect(again.headers.get("idempotent-replayed")).toBe("true");
  expect(again.json).toEqual(first.json);
  expect(await count(dealerA, list)).toBe(before + 1);

  const other = await dealerA.post(path, otherBody, withKey(key));
  expect(other.status).toBe(409);
  expect(other.json.message).toBe("This Idempotency-Key was already used with a different request");
  expect(await count(dealerA, list)).toBe(before + 1);

  // The same key from another account is that account's own request.
  const theirs = await dealerB.post(path, path === "/api/assessments" ? await assessment(dealerB) : sent, withKey(key));
  expect(theirs.status).toBe(201);
  expect(theirs.headers.get("idempotent-replayed")).toBeNull();
  expect(theirs.json.id).not.toBe(first.json.id);
}

describe("the same key and body answer the first result", () => {
  it("contacts", () => replays("/api/contacts", "/api/contacts", async () => jane(), jane("john@example.com")));
  it("assessments", () => replays("/api/assessments", "/api/assessments", () => assessment(dealerA), { title: "Rear door", mediaUrls: [] }));
  it("email templates", () => replays("/api/email-templates", "/api/email-templates", async () => template(`T ${newKey()}`), template("Other")));

  it("an email template's copy (no body: the key names the copy)", async () => {
    const original = (await dealerA.post("/api/email-templates", template(`Copied ${newKey()}`))).json;
    const before = await count(dealerA, "/api/email-templates");
    const key = newKey();
    const [first, again] = [await dealerA.post(`/api/email-templates/${original.id}/copy`, undefined, withKey(key)), await dealerA.post(`/api/email-templates/${original.id}/copy`, undefined, withKey(key))];
    expect(first.status).toBe(201);
    expect(again.json).toEqual(first.json);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await count(dealerA, "/api/email-templates")).toBe(before + 1);
    // The same key on another operation is a different request.
    expect((await dealerA.post("/api/email-templates", template("Elsewhere"), withKey(key))).status).toBe(409);
  });
});

describe("concurrency", () => {
  it("ten requests sent at once with one key create one record and all answer it", async () => {
    const key = newKey();
    const before = await count(dealerA, "/api/contacts");
    const answers = await Promise.all(Array.from({ length: 10 }, () => dealerA.post("/api/contacts", jane("burst@example.com"), withKey(key))));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((a) => a.json.id)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get("idempotent-replayed") === "true")).toHaveLength(9);
    expect(await count(dealerA, "/api/contacts")).toBe(before + 1);
  });
});

describe("keys and failures", () => {
  it("a malformed key answers 400 and creates nothing", async () => {
    const before = await count(dealerA, "/api/contacts");
    for (const bad of ["", "short", "x".repeat(201), "has a space in it", "tab\tinside-it"]) {
      const res = await dealerA.post("/api/contacts", jane(), withKey(bad));
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.json.errors["Idempotency-Key"]).toMatch(/^Idempotency-Key must be/);
    }
    expect(await count(dealerA, "/api/contacts")).toBe(before);
  });

  it("an error answer is not kept: the key can be used again", async () => {
    const key = newKey();
    const refused = await dealerA.post("/api/contacts", { firstName: "No email" }, withKey(key));
    expect(refused.status).toBe(400);
    const created = await dealerA.post("/api/contacts", jane("later@example.com"), withKey(key));
    expect(created.status).toBe(201);
    expect(created.headers.get("idempotent-replayed")).toBeNull();
  });

  it("a claim left pending by a request that died is taken over after a minute", async () => {
    const key = newKey();
    const body = JSON.stringify(jane("stuck@example.com"));
    await IdempotencyKey.create({
      ownerId: aId,
      key,
      operation: "POST /api/contacts",
      bodyHash: createHash("sha256").update(body).digest("hex"),
      state: "pending",
      createdAt: new Date(Date.now() - 2 * 60 * 1000),
    });
    const res = await dealerA.post("/api/contacts", body, withKey(key));
    expect(res.status).toBe(201);
    expect(res.headers.get("idempotent-replayed")).toBeNull();
    expect(await IdempotencyKey.countDocuments({ key, state: "done" })).toBe(1);
  });

  it("without a key every POST creates", async () => {
    const before = await count(dealerA, "/api/contacts");
    await dealerA.post("/api/contacts", jane("twice@example.com"));
    await dealerA.post("/api/contacts", jane("twice@example.com"));
    expect(await count(dealerA, "/api/contacts")).toBe(before + 2);
  });

  it("housekeeping forgets keys after a day", async () => {
    const key = newKey();
    const first = await dealerA.post("/api/contacts", jane("aged@example.com"), withKey(key));
    await IdempotencyKey.updateOne({ key }, { $set: { createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000) } });
    await sweepExpiredIdempotencyKeys();
    expect(await IdempotencyKey.countDocuments({ key })).toBe(0);
    const again = await dealerA.post("/api/contacts", jane("aged@example.com"), withKey(key));
    expect(again.status).toBe(201);
    expect(again.json.id).not.toBe(first.json.id);
  });
});

/** Every POST under /api is either creating (and checked here) or listed with why it is not. */
const creating: Record<string, { who: () => Client; body: () => Promise<Record<string, unknown>> }> = {
  "/api/contacts": { who: () => dealerA, body: async () => jane() },
  "/api/packages": { who: () => dealerA, body: async () => ({ name: `Package ${newKey()}`, description: "Wash", price: 50 }) },
  "/api/assessments": { who: () => dealerA, body: () => assessment(dealerA) },
  "/api/email-templates": { who: () => dealerA, body: async () => template(`Loop ${newKey()}`) },
  "/api/email-templates/:id/copy": { who: () => dealerA, body: async () => ({}) },
  "/api/vendor-pricing-rules": { who: () => vendor, body: async () => ({ damageType: "scratch", severity: "major", basePrice: 100, laborRate: 80 }) },
  "/api/vendor-packages": { who: () => vendor, body: async () => ({ packageName: `Express ${newKey()}`, serviceTypes: ["dent"], pricingModel: "flat_rate", basePrice: 199 }) },
  "/api/ai-pricing-learning": { who: () => admin, body: async () => ({ vendorId, damageType: "dent", severity: "minor", originalEstimate: 200, finalCost: 300 }) },
  "/api/admin/ai-training-data": {
    who: () => admin,
    body: async () => ({ imageUrl: await uploadMedia(admin), damageType: "dent", severity: "moderate", description: "Door dent", estimatedCost: 100 }),
  },
  "/api/admin/users": {
    who: () => admin,
    body: async () => {
      const username = `made${Math.random().toString(36).slice(2, 8)}`;
      return { username, password: "secret1", email: `${username}@example.com`, firstName: "M", lastName: "U", role: "dealer" };
    },
  },
  "/api/admin/create-user": {
    who: () => admin,
    body: async () => {
      const username = `made${Math.random().toString(36).slice(2, 8)}`;
      return { username, password: "secret123", email: `${username}@example.com`, firstName: "M", lastName: "U" };
    },
  },
};
const notCreating = new Set([
  "/api/admin/login", // signs in
  "/api/logout",
  "/api/admin/create-account", // first-run setup: no account yet to scope a key by, and once only
  "/api/admin/switch-role",
  "/api/auth/tokens", // its answer carries the token's secret, which is never stored
  "/api/assessments/:id/links", // as tokens: its answer carries the link's token, which is never stored
  "/api/webhooks", // as tokens: its answer carries the endpoint's signing secret, shown once
  "/api/members", // as tokens: its answer carries the invite link's token, which is stored only hashed
  "/api/webhooks/:id/rotate-secret", // the same: a new secret, shown once
  "/api/webhook-deliveries/:id/redeliver", // sends an existing event again; its webhook-id lets receivers deduplicate
  "/api/email-logs/:id/resend", // settles an unknown email once: asked again, the same new entry (docs/decisions/0054)
  "/api/email-logs/:id/mark-delivered", // settles an unknown email: a transition, not a creation
  "/api/auth/logo", // replaces the account's one logo: the same file twice leaves the same state
  "/api/account/import", // an archive: import already skips records that are there
  "/api/account/import/resume", // finishes the one interrupted import once; again is 409 (docs/decisions/0059)
  "/api/account/import/discard", // removes the one interrupted import's records once; again is 404
  "/api/assessments/:id/questions/:questionId/answer", // takes Idempotency-Key: checked in estimate-questions.api.test.ts (its set-up is a customer's question)
  "/api/assessments/:id/analyze", // transitions, not creations
  "/api/assessments/:id/approve",
  "/api/assessments/:id/reject",
  "/api/assessments/:id/send-email", // its own key on the email log (same header, same contract)
  "/api/email-templates/preview", // renders only
  "/api/objects/upload", // short-lived signed URLs; an unused upload is swept
  "/api/objects/complete", // already idempotent (issue 25)
  "/api/objects/signed",
  "/api/uploads/import", // takes Idempotency-Key: checked in remote-import.api.test.ts (its set-up is a file served from a link)
  "/api/uploads/url/meta", // Companion protocol: reads what a link declares, stores nothing
  "/api/uploads/url/get", // Companion protocol: starts one import and answers its short-lived token (the widget asks once per file)
  "/api/uploads/s3/multipart", // Companion protocol: short-lived upload ids; an abandoned one is swept
  "/api/uploads/s3/multipart/:uploadId/complete",
  "/api/uploads/s3/multipart/:uploadId/batch",
  "/api/vendors/:vendorId/quote", // computes a price, stores nothing
  "/api/admin/ai-provider/test", // one request to the provider, stores nothing
  "/api/ai-pricing-learning/validate/:id",
]);

describe("every creating POST in the route registry", () => {
  const posts = routes.filter((r) => r.kind === "api" && r.methods.POST).map((r) => r.path);

  it("is either checked here or listed as not creating", () => {
    expect(posts.filter((p) => !(p in creating) && !notCreating.has(p))).toEqual([]);
  });

  it.each(Object.keys(creating))("%s replays, refuses another body and never answers another account", async (path) => {
    const { who, body } = creating[path];
    let url = path;
    if (path.includes(":id")) url = path.replace(":id", (await dealerA.post("/api/email-templates", template(`Src ${newKey()}`))).json.id);
    const key = newKey();
    const sent = await body();
    const first = await who().post(url, sent, withKey(key));
    expect(first.status, first.text).toBe(201);
    const again = await who().post(url, sent, withKey(key));
    expect(again.status).toBe(201);
    expect(again.json).toEqual(first.json);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await IdempotencyKey.countDocuments({ key })).toBe(1);
    expect((await who().post(url, { ...sent, extra: 1 }, withKey(key))).status).toBe(409);
    // Another account (a fresh one of any role) with the same key is never answered the first result.
    const stranger = client(app, { token: await tokenFor((await createTestUser({ role: "admin" })).id) });
    const theirs = await stranger.post(url, sent, withKey(key));
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
  });
});
