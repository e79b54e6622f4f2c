import { randomBytes } from "node:crypto";
import mongoose from "mongoose";
import { Assessment } from "../../app/models/assessment.server";
import { EmailLog } from "../../app/models/email-log.server";
import { WebhookDelivery, WebhookEvent } from "../../app/models/webhook.server";
import { client, createTestUser, signIn } from "../accounts";
import type { RunningApp } from "../app-server";
import type { Caller, Method, Owned, RouteEntry } from "../route-registry";
import { markedJpeg } from "../media-files";
import { uploadMedia } from "../uploads";

type Client = ReturnType<typeof client>;

/**
 * The matrix's callers: the four roles, an admin previewing dealer, and for owner scoping another
 * dealer (dealerB) and another vendor (vendorB) calling with the first ones' ids.
 */
export type CallerName = Caller | "adminAsDealer" | "dealerB" | "vendorB";

export interface Account {
  id: string;
  username: string;
  password: string;
  cookie: string;
  /** Ids of the documents seeded for this account, by kind. */
  docs: Partial<Record<Owned, string>>;
  /** Text only this account's documents hold (a leak check looks for it in others' answers); its upload's bytes hold it too. */
  secret: string;
  /** Bytes from the middle of its upload's thumbnail (what a PDF embeds): no answer to another account may hold them. */
  thumbMark: Buffer;
  /**
   * An assessment of this account naming the first dealer's upload and contact, stored as an import
   * before decision 0012's rules stored one (only for accounts other than the first dealer).
   */
  planted?: { id: string; mark: Buffer };
}

export interface World {
  app: RunningApp;
  accounts: Record<Exclude<CallerName, "anonymous">, Account>;
  /** An account the admin may delete in the matrix. */
  spareUserId: string;
}

const secretOf = () => `Zq${randomBytes(6).toString("hex")}`;

/** Valid bodies for the writes that take one (so an owner check, not validation, decides). */
export function validBody(route: RouteEntry, method: Method, world: World): unknown {
  const key = `${method} ${route.path}`;
  const vendorId = world.accounts.vendor.id;
  const bodies: Record<string, unknown> = {
    "POST /api/contacts": { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" },
    "PUT /api/contacts/:id": { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" },
    "POST /api/packages": { name: "Gold", price: 100 },
    "PUT /api/packages/:id": { name: "Gold", price: 100 },
    "PUT /api/assessments/:id": { title: "Front bumper" },
    "POST /api/assessments/:id/reject": { note: "again" },
    // No change (the seeded estimate has no damages): the owner check decides, and the status stays for approve.
    "PUT /api/assessments/:id/estimate": { damages: [] },
    "POST /api/auth/tokens": { name: "matrix" },
    "POST /api/members": { email: "matrix@example.com", role: "viewer" },
    "PUT /api/members/:id": { role: "estimator" },
    "POST /api/email-templates": { name: "Matrix", subject: "Hello {{contact.firstName}}", htmlContent: "<p>Hi</p>" },
    "PUT /api/email-templates/:id": { name: "Matrix", subject: "Hello {{contact.firstName}}", htmlContent: "<p>Hi</p>" },
    "POST /api/vendor-pricing-rules": { vendorId, damageType: "dent", severity: "minor", basePrice: 100, laborRate: 80, isActive: false },
    "PUT /api/vendor-pricing-rules/:id": { damageType: "dent", severity: "minor", basePrice: 100, laborRate: 80, isActive: false },
    "POST /api/vendor-packages": { vendorId, packageName: "Standard", serviceTypes: ["paint"], pricingModel: "flat_rate" },
    "PUT /api/vendor-packages/:id": { packageName: "Standard", serviceTypes: ["paint"], pricingModel: "flat_rate" },
    "POST /api/ai-pricing-learning": { vendorId, damageType: "dent", severity: "minor", originalEstimate: 100, finalCost: 120 },
    "POST /api/vendors/:vendorId/quote": { damages: [{ damageType: "dent", severity: "minor" }] },
    "POST /api/objects/upload": { filename: "dent.jpg", type: "image/jpeg" },
    "POST /api/uploads/s3/multipart": { filename: "dent.jpg", type: "image/jpeg" },
    // Never fetched: a private address, refused by the outbound rule once the caller is admitted.
    "POST /api/uploads/import": { url: "http://10.0.0.1/dent.jpg" },
    "POST /api/uploads/url/meta": { url: "http://10.0.0.1/dent.jpg" },
    "POST /api/uploads/url/get": { url: "http://10.0.0.1/dent.jpg" },
  };
  return bodies[key];
}

let seeds = 0;

/** Seeds the documents one account owns, over the API as a client would. */
async function seedOwnDocs(who: Client, secret: string) {
  const contact = await who.post("/api/contacts", { firstName: secret, lastName: "Owner", email: "owner@example.com", notes: secret });
  const pkg = await who.post("/api/packages", { name: `${secret} package`, price: 10, description: secret });
  // A picture of its own, with the secret in its bytes: raw media leaks show up as the secret.
  const upload = (await uploadMedia(who, { bytes: await markedJpeg(secret, (seeds += 1)) })).split("/").pop() ?? "";
  const assessment = await who.post("/api/assessments", { title: `${secret} car`, notes: secret, mediaUrls: [await uploadMedia(who)] });
  await who.post("/api/auth/tokens", { name: secret });
  const tokens = await who.get("/api/auth/tokens");
  const template = await who.post("/api/email-templates", { name: `${secret} template`, subject: secret, htmlContent: `<p>${secret}</p>` });
  for (const res of [contact, pkg, assessment, template]) {
    if (res.status !== 201) throw new Error(`seeding failed: ${res.status} ${res.text}`);
  }
  return {
    contact: contact.json.id as string,
    package: pkg.json.id as string,
    assessment: assessment.json.id as string,
    upload,
    emailTemplate: template.json.id as string,
    token: (tokens.json as { id: string; name: string }[]).find((t) => t.name === secret)?.id,
  };
}

async function account(app: RunningApp, role: "dealer" | "vendor" | "admin"): Promise<Account> {
  const user = await createTestUser({ role });
  const cookie = await signIn(app, user.username, user.password);
  return { id: user.id, username: user.username, password: user.password, cookie, docs: {}, secret: secretOf(), thumbMark: Buffer.alloc(0) };
}

export const sameSite = (app: RunningApp) => ({ Origin: app.url });

/** A cookie client whose writes come from the app's own origin, as the app's pages send them. */
export const cookieClient = (app: RunningApp, cookie: string) => {
  const c = client(app, { cookie });
  const h = sameSite(app);
  return {
    get: (path: string) => c.get(path),
    post: (path: string, body?: unknown) => c.post(path, body, h),
    put: (path: string, body?: unknown) => c.put(path, body, h),
    del: (path: string) => c.del(path, h),
  };
};

/** Starts the admin previewing dealer on a session of its own. */
export async function previewAsDealer(app: RunningApp, username: string, password: string) {
  const cookie = await signIn(app, username, password);
  const res = await cookieClient(app, cookie).post("/api/admin/switch-role", { targetRole: "dealer" });
  if (res.status !== 200) throw new Error(`switch-role failed: ${res.status} ${res.text}`);
  return res.headers.get("set-cookie")?.split(";")[0] ?? cookie;
}

export async function seedWorld(app: RunningApp): Promise<World> {
  const [dealer, dealerB, vendor, vendorB, admin, adminAsDealer] = await Promise.all([
    account(app, "dealer"),
    account(app, "dealer"),
    account(app, "vendor"),
    account(app, "vendor"),
    account(app, "admin"),
    account(app, "admin"),
  ]);
  adminAsDealer.cookie = await previewAsDealer(app, adminAsDealer.username, adminAsDealer.password);
  const accounts = { dealer, dealerB, vendor, vendorB, admin, adminAsDealer };

  // Every signed-in account owns contacts, packages, uploads, assessments and tokens.
  await Promise.all(
    Object.values(accounts).map(async (a) => {
      a.docs = { ...a.docs, ...(await seedOwnDocs(cookieClient(app, a.cookie), a.secret)) };
    }),
  );

  // Each account's thumbnail mark, read as its owner sees it.
  await Promise.all(
    Object.values(accounts).map(async (a) => {
      a.thumbMark = await thumbMarkOf(app, a.cookie, `/media/${a.docs.upload}`);
    }),
  );

  // An email log each (sent already: the app's outbox leaves it alone), written as the outbox writes one.
  await Promise.all(
    Object.values(accounts).map(async (a) => {
      const log = await EmailLog.create({
        ownerId: a.id,
        kind: "notification",
        idempotencyKey: `seed-${a.secret}`,
        recipientEmail: "owner@example.com",
        subject: `${a.secret} mail`,
        html: `<p>${a.secret}</p>`,
        text: a.secret,
        status: "sent",
        messageId: `<seed-${a.secret}@example.com>`,
      });
      a.docs.emailLog = String(log._id);
    }),
  );

  // A webhook endpoint each (a name that resolves nowhere: saved, and never reached), with one
  // delivery already made, written as the worker writes one.
  await Promise.all(
    Object.values(accounts).map(async (a) => {
      const endpoint = await cookieClient(app, a.cookie).post("/api/webhooks", { url: `https://${a.secret}.hooks.invalid/in`, events: ["assessment.created"], description: a.secret });
      if (endpoint.status !== 201) throw new Error(`seeding failed: ${endpoint.status} ${endpoint.text}`);
      const event = await WebhookEvent.create({ ownerId: a.id, type: "assessment.created", key: `seed-${a.secret}`, data: { title: a.secret }, at: new Date(), fannedOut: true });
      const delivery = await WebhookDelivery.create({
        ownerId: a.id,
        endpointId: endpoint.json.id,
        eventId: event._id,
        type: "assessment.created",
        eventAt: event.at,
        status: "delivered",
        attempts: [{ at: new Date(), durationMs: 12, statusCode: 200 }],
        deliveredAt: new Date(),
        inFlight: false,
      });
      a.docs.webhook = endpoint.json.id as string;
      a.docs.webhookDelivery = String(delivery._id);
    }),
  );

  // Vendors own pricing rules and packages; learning records are added for them by an admin.
  const root = cookieClient(app, admin.cookie);
  for (const v of [vendor, vendorB]) {
    const own = cookieClient(app, v.cookie);
    const rule = await own.post("/api/vendor-pricing-rules", { damageType: "dent", severity: "minor", basePrice: 100, laborRate: 80, notes: v.secret });
    const pkg = await own.post("/api/vendor-packages", { packageName: `${v.secret} pack`, serviceTypes: ["paint"], pricingModel: "flat_rate", description: v.secret });
    const record = await root.post("/api/ai-pricing-learning", { vendorId: v.id, damageType: "dent", severity: "minor", originalEstimate: 100, finalCost: 110, adjustmentReason: v.secret });
    for (const res of [rule, pkg, record]) if (res.status !== 201) throw new Error(`seeding failed: ${res.status} ${res.text}`);
    v.docs = { ...v.docs, pricingRule: rule.json.id, vendorPackage: pkg.json.id, learningRecord: record.json.id, vendor: v.id };
  }
  // Dealers and vendors have a member each (an invite): the owner's to change and remove (docs/decisions/0067).
  for (const a of [dealer, dealerB, vendor, vendorB]) {
    const invited = await cookieClient(app, a.cookie).post("/api/members", { email: `${a.secret}@example.com`, role: "viewer" });
    if (invited.status !== 201) throw new Error(`seeding failed: ${invited.status} ${invited.text}`);
    a.docs.member = invited.json.member.id as string;
  }
  const image = await uploadMedia(root);
  const item = await root.post("/api/admin/ai-training-data", { imageUrl: image, damageType: "dent", severity: "minor", description: admin.secret, estimatedCost: 100 });
  if (item.status !== 201) throw new Error(`seeding failed: ${item.status} ${item.text}`);
  admin.docs.trainingItem = item.json.id;
  const spare = await createTestUser({ role: "dealer" });
  return { app, accounts, spareUserId: spare.id };
}

/** Bytes from the middle of an upload's thumbnail, as its owner gets it (what a PDF embeds). */
async function thumbMarkOf(app: RunningApp, cookie: string, mediaUrl: string) {
  const thumb = await fetch(`${app.url}${mediaUrl}/thumb`, { headers: { Cookie: cookie } });
  if (thumb.status !== 200) throw new Error(`seeding failed: thumbnail ${thumb.status}`);
  const bytes = Buffer.from(await thumb.arrayBuffer());
  return bytes.subarray(Math.floor(bytes.length / 2), Math.floor(bytes.length / 2) + 48);
}

/**
 * Every account but the first dealer gets an assessment naming the first dealer's photo and contact
 * next to a photo of its own (a new upload, `plantedMark` its thumbnail's bytes), stored as an import
 * before decision 0012's rules stored one: such a stored reference must resolve in its owner's scope
 * (its PDF, analysis and deletion must not reach the first dealer's upload).
 */
export async function plantForeignReferences(world: World) {
  const { dealer } = world.accounts;
  await Promise.all(
    Object.values(world.accounts)
      .filter((a) => a !== dealer)
      .map(async (a) => {
        const own = await uploadMedia(cookieClient(world.app, a.cookie), { bytes: await markedJpeg(a.secret, (seeds += 1)) });
        const _id = new mongoose.Types.ObjectId();
        await Assessment.collection.insertOne({
          _id,
          ownerId: new mongoose.Types.ObjectId(a.id),
          title: `${a.secret} planted`,
          contactId: new mongoose.Types.ObjectId(dealer.docs.contact),
          mediaUrls: [`/media/${dealer.docs.upload}`, own],
          status: "completed",
          lineItems: [],
          damages: [],
          audit: [],
          createdAt: new Date(),
          updatedAt: new Date(),
        });
        a.planted = { id: String(_id), mark: await thumbMarkOf(world.app, a.cookie, own) };
      }),
  );
}

/** Documents in every collection but the ones sign-ins write (sessions, login attempts). */
export async function documentCounts() {
  const collections = (await mongoose.connection.db?.collections()) ?? [];
  const counted = await Promise.all(
    collections
      // An accepted import's own record (`imports`, decision 0059) is bookkeeping, like a session, not the account's data.
      .filter((c) => !/^(sessions|loginattempts|imports)$/i.test(c.collectionName))
      .map(async (c) => [c.collectionName, await c.countDocuments()] as const),
  );
  // In name order, so two counts compare as text.
  return Object.fromEntries(counted.sort(([a], [b]) => a.localeCompare(b)));
}

/** A request's answer: status, Location and body (as text, and as bytes for binary answers: media, PDFs). */
export interface Answer {
  status: number;
  location: string | null;
  text: string;
  bytes: Buffer;
}

/** One HTTP call as a browser or API client makes it (no redirects followed). */
export async function call(
  app: RunningApp,
  method: string,
  path: string,
  { cookie, body, headers = {} }: { cookie?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const res = await fetch(`${app.url}${path}`, {
    method,
    redirect: "manual",
    headers: { ...(cookie ? { Cookie: cookie } : {}), ...headers },
    body,
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, location: res.headers.get("location"), text: bytes.toString("utf8"), bytes };
}

/** Runs tasks with at most `limit` at once (the app and its database share two cores with the runner). */
export async function pool<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await task(items[i]);
      }
    }),
  );
  return results;
}
