import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Job } from "~/models/job.server";
import { PricingRule } from "~/models/pricing-rule.server";
import { client, createTestUser, signIn } from "../../tests/accounts";
import { startApp, type RunningApp } from "../../tests/app-server";
import sharp from "sharp";
import { jpeg, photo, scene } from "../../tests/media-files";
import { startOpenAiTestServer, type OpenAiTestServer } from "../../tests/openai-server";
import { vehiclePhoto } from "../../tests/vehicle-pictures";
import { uploadMedia } from "../../tests/uploads";
import { startTenancyApp } from "../../tests/signed-in-app";

let app: RunningApp;
let ai: OpenAiTestServer;
type Client = ReturnType<typeof client>;
let dealerA: Client;
let dealerB: Client;
let admin: Client;
let vendorId: string;

const DENT = { damageType: "dent", location: "front", severity: "moderate", description: "Dent in the front bumper", confidence: 0.82, photo: 1 };
const SCRATCH = { damageType: "scratch", location: "left", severity: "minor", description: "Scratch on the driver's door", confidence: 0.7, photo: 2 };
// Every app of this file shares the database and the stored files, as instances behind a load balancer
// do: whichever takes up a job can read its photos.
const dataDir = mkdtempSync(path.join(os.tmpdir(), "analysis-test-"));
const openAiEnv = () => ({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: ai.baseURL, OPENAI_MODEL: "vision-test", ANALYSIS_ATTEMPTS: "1", DATA_DIR: dataDir });

beforeAll(async () => {
  ai = await startOpenAiTestServer();
  ({ app, dealerA, dealerB, admin } = await startTenancyApp({ env: openAiEnv() }));
  const vendor = await createTestUser({ role: "vendor" });
  vendorId = vendor.id;
  const rule = { vendorId, basePrice: 50, laborRate: 80, markupPercentage: 10, minimumCharge: 75, isActive: true };
  await PricingRule.create([
    { ...rule, damageType: "dent", severity: "moderate", vehicleMakeModifier: { Toyota: 1.1 } },
    { ...rule, damageType: "scratch", severity: "minor" },
  ]);
});
afterAll(async () => {
  await app?.stop();
  await ai?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A new assessment of `who` with `photos` distinct uploaded pictures. */
async function create(who: Client, body: Record<string, unknown> = {}, photos = 2) {
  const mediaUrls: string[] = [];
  for (let i = 0; i < photos; i++) mediaUrls.push(await uploadMedia(who, { bytes: await jpeg({ width: 64 + i * 7, height: 48 }) }));
  const res = await who.post("/api/assessments", { title: "Front bumper", vehicleMake: "Toyota", mediaUrls, ...body });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json as { id: string; mediaUrls: string[] };
}

async function waitForStatus(who: Client, id: string, statuses: string[], timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await who.get(`/api/assessments/${id}`);
    if (statuses.includes(res.json.status) || Date.now() > deadline) return res.json;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("POST /api/assessments/{id}/analyze with an OpenAI-compatible provider", () => {
  it("answers the completed assessment: damages on their photos, worst severity, the vendor's price, the audit trail", async () => {
    ai.script({ json: { damages: [DENT, SCRATCH], summary: "Front dent and a door scratch.", confidence: 0.78 } });
    const before = ai.requests.length;
    const created = await create(dealerA, { vendorId });
    const res = await dealerA.post(`/api/assessments/${created.id}/analyze`, { mediaUrls: created.mediaUrls });
    expect(res.status).toBe(200);
    const a = res.json;
    expect(a.status).toBe("completed");
    expect(a.severity).toBe("moderate");
    expect(a.damageCategories).toEqual(["dent", "scratch"]);
    expect(a.aiAnalysis).toEqual({ confidence: 0.78, description: "Front dent and a door scratch.", provider: "openai", model: "vision-test" });
    expect(a.damages.map((d: { mediaUrl: string }) => d.mediaUrl)).toEqual(created.mediaUrls);
    // The figure is the pricing engine's for the same damages, vendor and make.
    const quote = await dealerA.post(`/api/vendors/${vendorId}/quote`, {
      damages: [
        { damageType: "dent", severity: "moderate", location: "front" },
        { damageType: "scratch", severity: "minor", location: "left" },
      ],
      vehicleMake: "Toyota",
    });
    expect(quote.json.complete).toBe(true);
    expect(a.estimatedCost).toBe(quote.json.total);
    expect(a.aiEstimatedCost).toBe(quote.json.total);
    expect(a.lineItems).toHaveLength(2);
    expect(a.costNote).toBeNull();
    expect(a.audit.map((e: { action: string; to: string }) => `${e.action}→${e.to}`)).toEqual([
      "created→uploaded",
      "analysis requested→processing",
      "analysis started→analyzing",
      "analysis completed→completed",
    ]);
    // One request with both photos as data URLs of downscaled copies.
    expect(ai.requests.length - before).toBe(1);
    const images = ai.imagesOf(ai.requests[ai.requests.length - 1]);
    expect(images).toHaveLength(2);
    for (const url of images) expect(url).toMatch(/^data:image\/jpeg;base64,/);
  });

  it("retries a 429 from the provider and completes once", async () => {
    ai.script({ status: 429, headers: { "retry-after-ms": "10" } }, { json: { damages: [DENT], summary: "A dent.", confidence: 0.9 } });
    const created = await create(dealerA, { vendorId }, 1);
    const a = (await dealerA.post(`/api/assessments/${created.id}/analyze`)).json;
    expect(a.status).toBe("completed");
    expect(a.damageCategories).toEqual(["dent"]);
  });

  it("prices nothing without a vendor: the cost stays TBD with the reason", async () => {
    ai.script({ json: { damages: [DENT], summary: "A dent.", confidence: 0.9 } });
    const created = await create(dealerA, {}, 1);
    const a = (await dealerA.post(`/api/assessments/${created.id}/analyze`)).json;
    expect(a.status).toBe("completed");
    expect(a.estimatedCost).toBeNull();
    expect(a.costNote).toBe("No vendor chosen");
  });

  it("leaves a damage without an active rule unpriced and the cost TBD, never invented", async () => {
    ai.script({ json: { damages: [{ ...DENT, damageType: "rust", severity: "severe" }], summary: "Rust.", confidence: 0.6 } });
    const created = await create(dealerA, { vendorId }, 1);
    const a = (await dealerA.post(`/api/assessments/${created.id}/analyze`)).json;
    expect(a.status).toBe("completed");
    expect(a.severity).toBe("severe");
    expect(a.estimatedCost).toBeNull();
    expect(a.costNote).toMatch(/rust/i);
    expect(a.lineItems[0].priced).toBe(false);
  });

  it("after an invalid answer twice: back to uploaded with the reason kept, and a new request tries again", async () => {
    ai.script({ content: "I think there is a dent." }, { content: "{ not json" });
    const created = await create(dealerA, { vendorId }, 1);
    const a = (await dealerA.post(`/api/assessments/${created.id}/analyze`)).json;
    expect(a.status).toBe("uploaded");
    expect(a.analysisError).toMatch(/invalid|JSON|answer/i);
    expect(a.audit.at(-1)).toMatchObject({ action: "analysis failed", from: "analyzing", to: "uploaded", by: null });

    ai.script({ json: { damages: [DENT], summary: "A dent.", confidence: 0.9 } });
    const again = (await dealerA.post(`/api/assessments/${created.id}/analyze`)).json;
    expect(again.status).toBe("completed");
    expect(again.analysisError).toBeNull();
  });

  it("asked twice while it runs, runs once; the second answer is the assessment as it stands", async () => {
    ai.script({ json: { damages: [DENT], summary: "A dent.", confidence: 0.9 }, delayMs: 1500 });
    const created = await create(dealerA, { vendorId }, 1);
    const before = ai.requests.length;
    const [first, second] = await Promise.all([
      dealerA.post(`/api/assessments/${created.id}/analyze`),
      // Asked again once the first run is with the provider.
      vi.waitFor(() => expect(ai.requests.length).toBeGreaterThan(before), { timeout: 10_000, interval: 20 }).then(() =>
        dealerA.post(`/api/assessments/${created.id}/analyze`),
      ),
    ]);
    expect(first.json.status).toBe("completed");
    expect(second.json.status).toBe("completed");
    expect(ai.requests.length - before).toBe(1);
    expect(await Job.countDocuments({ key: created.id })).toBe(1);
  });

  it("answers 202 with Location while the analysis runs: at once with Prefer: respond-async, after a few seconds without", async () => {
    ai.script({ json: { damages: [DENT], summary: "A slow dent.", confidence: 0.9 }, delayMs: 9000 });
    const created = await create(dealerA, { vendorId }, 1);
    const started = performance.now();
    const quick = await dealerA.post(`/api/assessments/${created.id}/analyze`, undefined, { Prefer: "respond-async" });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(quick.status).toBe(202);
    expect(quick.headers.get("location")).toBe(`/api/assessments/${created.id}`);
    expect(quick.headers.get("preference-applied")).toBe("respond-async");
    expect(["processing", "analyzing"]).toContain(quick.json.status);
    // Asked again without the preference: it waits a few seconds, then answers as it stands.
    const waited = await dealerA.post(`/api/assessments/${created.id}/analyze`);
    expect(waited.status).toBe(202);
    expect(waited.headers.get("retry-after")).toBe("2");
    expect(waited.json.status).toBe("analyzing");
    expect((await waitForStatus(dealerA, created.id, ["completed"], 20_000)).status).toBe("completed");
  });

  it("flags a photo that also appears on another of the account's assessments", async () => {
    const bytes = await photo(120, 90);
    const upload = () => uploadMedia(dealerA, { name: "door.png", type: "image/png", bytes });
    ai.fallback = { json: { damages: [], summary: "No damage visible.", confidence: 0.9 } };
    const first = (await dealerA.post("/api/assessments", { title: "Door, first visit", mediaUrls: [await upload()] })).json;
    await dealerA.post(`/api/assessments/${first.id}/analyze`);
    const second = (await dealerA.post("/api/assessments", { title: "Door, second claim", mediaUrls: [await upload()] })).json;
    const a = (await dealerA.post(`/api/assessments/${second.id}/analyze`)).json;
    expect(a.status).toBe("completed");
    expect(a.photoWarnings).toEqual([{ mediaUrl: second.mediaUrls[0], photoName: "door.png", otherAssessmentId: first.id, otherTitle: "Door, first visit" }]);
    // Another account's identical photo is none of this account's business.
    const other = (await dealerB.post("/api/assessments", { title: "B's door", mediaUrls: [await uploadMedia(dealerB, { name: "door.png", type: "image/png", bytes })] })).json;
    expect((await dealerB.post(`/api/assessments/${other.id}/analyze`)).json.photoWarnings).toEqual([]);
  });

  it("keeps the damages of an answer without photo numbers over several photos (a server that ignores the schema), their photo not stated", async () => {
    const { photo: _dent, ...dentWithoutPhoto } = DENT;
    const { photo: _scratch, ...scratchWithoutPhoto } = SCRATCH;
    ai.script({ json: { damages: [dentWithoutPhoto, scratchWithoutPhoto], summary: "A dent and a scratch.", confidence: 0.6 } });
    const created = await create(dealerA, {}, 2);
    const a = (await dealerA.post(`/api/assessments/${created.id}/analyze`)).json;
    expect(a.status).toBe("completed");
    expect(a.analysisError ?? null).toBeNull();
    expect(a.damages.map((d: { damageType: string; mediaUrl: string | null }) => [d.damageType, d.mediaUrl])).toEqual([
      ["dent", null],
      ["scratch", null],
    ]);
    const page = await dealerA.get(`/estimates?view=${created.id}`);
    expect(page.text).toContain("Photo not stated");
  });

  it("warns once per photo per earlier assessment, and only for the same picture: a near-identical copy yes, another scene no", async () => {
    ai.fallback = { json: { damages: [], summary: "No damage visible.", confidence: 0.9 } };
    const original = await scene(7);
    // The same picture downscaled and recompressed (sent on by a customer, re-saved by a phone).
    const copy = await sharp(original).resize(250).jpeg({ quality: 55 }).toBuffer();
    // Another scene. (The camera moved by 4 px, in a generated scene without parallax or noise, is a
    // crop of the same picture: the check follows crops, docs/decisions/0030.)
    const similar = await scene(8);
    const up = (bytes: Buffer) => uploadMedia(dealerA, { name: "scene.jpg", type: "image/jpeg", bytes });
    const analysed = async (title: string, photos: Buffer[]) => {
      const mediaUrls = [];
      for (const bytes of photos) mediaUrls.push(await up(bytes));
      const created = (await dealerA.post("/api/assessments", { title, mediaUrls })).json;
      return (await dealerA.post(`/api/assessments/${created.id}/analyze`)).json;
    };
    const first = await analysed("Scene, first visit", [original, await scene(11)]);
    expect(first.photoWarnings).toEqual([]);
    // The copy twice in one assessment (uploaded twice) is one photo of the first visit: one warning.
    const second = await analysed("Scene, second claim", [copy, copy]);
    expect(second.photoWarnings).toEqual([{ mediaUrl: second.mediaUrls[0], photoName: "scene.jpg", otherAssessmentId: first.id, otherTitle: "Scene, first visit" }]);
    const third = await analysed("Scene, another car", [similar]);
    expect(third.photoWarnings).toEqual([]);
    // Analysed again, the first visit names no later assessment.
    expect((await dealerA.post(`/api/assessments/${first.id}/reject`)).status).toBe(200);
    expect((await dealerA.post(`/api/assessments/${first.id}/analyze`)).json.photoWarnings).toEqual([]);
  });

  it("names the photo seen before and the earlier assessment, never a car of the same shape in another colour, nor another account's", async () => {
    ai.fallback = { json: { damages: [], summary: "No damage visible.", confidence: 0.9 } };
    const red = await vehiclePhoto({ shape: "sedan", angle: "left", colour: "red" });
    const blue = await vehiclePhoto({ shape: "sedan", angle: "left", colour: "blue" });
    // The red car's photo again: cropped by 8 %, downscaled and re-encoded (JPEG quality 55).
    const redAgain = await sharp(red).extract({ left: 12, top: 10, width: 294, height: 221 }).resize(260).jpeg({ quality: 55 }).toBuffer();
    const analysed = async (who: Client, title: string, files: [string, string, Buffer][]) => {
      const mediaUrls = [];
      for (const [name, type, bytes] of files) mediaUrls.push(await uploadMedia(who, { name, type, bytes }));
      const created = (await who.post("/api/assessments", { title, mediaUrls })).json;
      return (await who.post(`/api/assessments/${created.id}/analyze`)).json;
    };
    const first = await analysed(dealerA, "Red sedan, first visit", [["red-sedan.jpg", "image/jpeg", red]]);
    expect(first.photoWarnings).toEqual([]);
    // A blue car of the same shape, on the same background: never the red car's photo.
    const blueVisit = await analysed(dealerA, "Blue sedan", [["blue-sedan.jpg", "image/jpeg", blue]]);
    expect(blueVisit.photoWarnings).toEqual([]);
    const second = await analysed(dealerA, "Red sedan, second claim", [
      ["blue-sedan.jpg", "image/jpeg", blue],
      ["red-again.jpg", "image/jpeg", redAgain],
    ]);
    // Photo 2 is the red car's earlier photo; photo 1 (the blue car) was seen on "Blue sedan" too.
    expect(second.photoWarnings).toContainEqual({ mediaUrl: second.mediaUrls[1], photoName: "red-again.jpg", otherAssessmentId: first.id, otherTitle: "Red sedan, first visit" });
    expect(second.photoWarnings.filter((w: { mediaUrl: string }) => w.mediaUrl === second.mediaUrls[1])).toHaveLength(1);
    expect(second.photoWarnings.filter((w: { otherAssessmentId: string }) => w.otherAssessmentId === first.id)).toHaveLength(1);
    const page = await dealerA.get(`/upload?assessment=${second.id}`);
    expect(page.text).toContain("Photo 2 (red-again.jpg) also appears on an earlier assessment:");
    expect(page.text).toContain(`href="/estimates?view=${first.id}"`);
    // Another dealer's identical photo: none of this account's business, and nothing of it is named.
    const other = await analysed(dealerB, "B's red sedan", [["red-sedan.jpg", "image/jpeg", red]]);
    expect(other.photoWarnings).toEqual([]);
  });

  it("404 for another account's assessment or a malformed id, 401 signed out; nothing is queued", async () => {
    const created = await create(dealerA, {}, 1);
    for (const res of [await dealerB.post(`/api/assessments/${created.id}/analyze`), await dealerA.post("/api/assessments/nope/analyze")]) {
      expect(res.status).toBe(404);
      expect(res.json.message).toBe("Assessment not found");
    }
    expect((await client(app).post(`/api/assessments/${created.id}/analyze`)).status).toBe(401);
    expect(await Job.countDocuments({ key: created.id })).toBe(0);
    expect((await dealerA.get(`/api/assessments/${created.id}`)).json.status).toBe("uploaded");
  });

  it("deleting an assessment removes its analysis job", async () => {
    ai.script({ json: { damages: [], summary: "Nothing.", confidence: 0.5 }, delayMs: 3000 });
    const created = await create(dealerA, {}, 1);
    void dealerA.post(`/api/assessments/${created.id}/analyze`);
    await waitForStatus(dealerA, created.id, ["analyzing"]);
    expect((await dealerA.del(`/api/assessments/${created.id}`)).status).toBe(200);
    expect(await Job.countDocuments({ key: created.id })).toBe(0);
  });
});

describe("deleting the account", () => {
  it("removes its analysis jobs with its assessments", async () => {
    const dealer = await createTestUser({ role: "dealer" });
    const who = client(app, { cookie: await signIn(app, dealer.username, dealer.password) });
    ai.script({ json: { damages: [], summary: "Nothing.", confidence: 0.5 }, delayMs: 3000 });
    const created = await create(who, {}, 1);
    void who.post(`/api/assessments/${created.id}/analyze`).catch(() => undefined);
    await waitForStatus(who, created.id, ["analyzing"]);
    expect(await Job.countDocuments({ key: created.id })).toBe(1);
    expect((await admin.del(`/api/admin/users/${dealer.id}`)).status).toBe(200);
    expect(await Job.countDocuments({ key: created.id })).toBe(0);
  });
});

describe("an app restarted in the middle of an analysis", () => {
  it("resumes the job after its lease runs out and finishes it once", { timeout: 90_000 }, async () => {
    const dealer = await createTestUser({ role: "dealer" });
    // A crash costs the attempt it interrupted: three attempts, as by default.
    const env = { ...openAiEnv(), ANALYSIS_ATTEMPTS: "3" };
    const first = await startApp({ env });
    const who = client(first, { cookie: await signIn(first, dealer.username, dealer.password) });
    const created = await create(who, { vendorId }, 1);
    ai.script({ json: { damages: [DENT], summary: "Never recorded.", confidence: 0.9 }, delayMs: 60_000 });
    const asked = ai.requests.length;
    void who.post(`/api/assessments/${created.id}/analyze`).catch(() => undefined);
    // Killed while the provider works on it (the request has reached the provider).
    for (const deadline = Date.now() + 20_000; ai.requests.length === asked && Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(ai.requests.length).toBe(asked + 1);
    first.process.kill("SIGKILL");

    // The same database and stored files, a new process (or the other app of this file) takes the job up.
    ai.script({ json: { damages: [DENT], summary: "Resumed.", confidence: 0.9 } });
    const second = await startApp({ env });
    try {
      const again = client(second, { cookie: await signIn(second, dealer.username, dealer.password) });
      const a = await waitForStatus(again, created.id, ["completed", "uploaded"], 60_000);
      expect(a.status, JSON.stringify(a.audit)).toBe("completed");
      expect(a.aiAnalysis.description).toBe("Resumed.");
      expect(a.audit.filter((e: { action: string }) => e.action === "analysis completed")).toHaveLength(1);
    } finally {
      await second.stop();
      await first.stop();
    }
  });
});

describe("the embedded matcher (no OpenAI key)", () => {
  it("with no verified training data: completed, no damages, confidence 0, 'needs manual review', cost TBD", async () => {
    // A database of its own: the OpenAI-backed app of this file must not take this analysis up.
    const uri = new URL(process.env.MONGODB_URI!);
    uri.pathname = `${uri.pathname}_embedded`;
    const embedded = await startApp({ mongoUri: uri.toString() });
    try {
      const anon = client(embedded);
      const admin = { username: "embeddedadmin", password: "admin-password-1" };
      expect((await anon.post("/api/admin/create-account", { ...admin, email: "a@example.com", firstName: "A", lastName: "Admin" })).status).toBe(201);
      const asAdmin = client(embedded, { cookie: await signIn(embedded, admin.username, admin.password) });
      const dealer = { username: "embeddeddealer", password: "dealer-password-1" };
      const made = await asAdmin.post("/api/admin/users", { ...dealer, email: "d@example.com", firstName: "D", lastName: "Dealer", role: "dealer" });
      expect(made.status).toBeLessThan(300);
      const who = client(embedded, { cookie: await signIn(embedded, dealer.username, dealer.password) });
      const created = await create(who, {}, 1);
      const a = (await who.post(`/api/assessments/${created.id}/analyze`)).json;
      expect(a.status).toBe("completed");
      expect(a.damages).toEqual([]);
      expect(a.severity).toBeNull();
      // Nothing analysed the photos, and the answer says so (provider "none") instead of a result.
      expect(a.aiAnalysis).toMatchObject({ confidence: 0, provider: "none", model: null });
      expect(a.aiAnalysis.description).toMatch(/^Not analysed: no AI provider is set up and there are no verified training images/);
      expect(a.estimatedCost).toBeNull();
      expect(a.costNote).toBe("Not analysed: a person enters the damages and prices");
    } finally {
      await embedded.stop();
    }
  });
});
