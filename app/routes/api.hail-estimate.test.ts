import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Assessment } from "~/models/assessment.server";
import { PricingRule } from "~/models/pricing-rule.server";
import { DAMAGE_LOCATIONS } from "~/schemas/damage";
import { MAX_DAMAGES, MAX_SHEET_LINES } from "~/schemas/estimate-limits";
import { client, createTestUser, signIn } from "../../tests/accounts";
import { startApp, type RunningApp } from "../../tests/app-server";
import { editEstimateForm, type EstimateRead } from "../../tests/estimate-lines";
import { jpeg } from "../../tests/media-files";
import { startOpenAiTestServer, type OpenAiTestServer } from "../../tests/openai-server";
import { useTestDb } from "../../tests/test-db";
import { uploadMedia } from "../../tests/uploads";

// Issue 37 item 5, one limit everywhere: hail leaves 40–60 dents (and more). What the analysis
// stores, Edit Estimate (API and screen) takes, the PDF prints and an export re-imports — the
// product never refuses its own output.

let app: RunningApp;
let ai: OpenAiTestServer;
let vendorId: string;
const dataDir = mkdtempSync(path.join(os.tmpdir(), "hail-test-"));

beforeAll(async () => {
  await useTestDb();
  ai = await startOpenAiTestServer();
  app = await startApp({ env: { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: ai.baseURL, OPENAI_MODEL: "vision-test", ANALYSIS_ATTEMPTS: "1", DATA_DIR: dataDir } });
  vendorId = (await createTestUser({ role: "vendor" })).id;
  // Two lines a dent: its repair (body labour, the rule's base) and its refinish.
  await PricingRule.create({ vendorId, damageType: "dent", severity: "moderate", basePrice: 40, laborRate: 80, refinishHours: 0.5, refinishRate: 90, markupPercentage: 10, minimumCharge: 0, isActive: true });
});
afterAll(async () => {
  await app?.stop();
  await ai?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function dealer() {
  const user = await createTestUser({ role: "dealer" });
  const cookie = await signIn(app, user.username, user.password);
  return { user, cookie, api: client(app, { cookie }) };
}

/** `count` moderate dents on the roof, bonnet and panels, as the provider answers a hail-damaged car. */
const hail = (count: number) => ({
  damages: Array.from({ length: count }, (_, i) => ({
    damageType: "dent",
    location: DAMAGE_LOCATIONS[i % DAMAGE_LOCATIONS.length],
    severity: "moderate",
    description: `Hail dent ${i + 1}`,
    confidence: 0.8,
    photo: 1,
  })),
  summary: `${count} hail dents.`,
  confidence: 0.8,
});

/** A new assessment of `who`, analysed by a provider that finds `count` dents: the stored estimate. */
async function analysed(who: Awaited<ReturnType<typeof dealer>>, count: number) {
  ai.script({ json: hail(count) });
  const media = await uploadMedia(who.api, { bytes: await jpeg({ width: 96, height: 64 }) });
  const created = await who.api.post("/api/assessments", { title: `Hail ${count}`, vehicleMake: "Toyota", vendorId, mediaUrls: [media] });
  expect(created.status).toBe(201);
  const res = await who.api.post(`/api/assessments/${created.json.id}/analyze`);
  expect(res.json.status).toBe("completed");
  return res.json as EstimateRead & { id: string; estimatedCost: number; lineItems: { totalCents: number }[]; audit: { action: string; note: string | null }[] };
}

async function exportImport(from: Awaited<ReturnType<typeof dealer>>, to: Awaited<ReturnType<typeof dealer>>) {
  const archive = Buffer.from(await (await fetch(`${app.url}/api/account/export`, { headers: { Cookie: from.cookie } })).arrayBuffer());
  const res = await fetch(`${app.url}/api/account/import`, { method: "POST", headers: { Cookie: to.cookie, "Content-Type": "application/gzip" }, body: new Uint8Array(archive) });
  expect(res.status).toBe(200);
  return (await res.json()) as { collections: { name: string; imported: number; invalid: number }[]; errors: { message: string }[] };
}

describe.each([60, 100])("a %i-damage hail estimate", (count) => {
  it("is stored whole, edited (API and screen), printed and re-imported", async () => {
    const owner = await dealer();
    const a = await analysed(owner, count);
    expect(a.damages).toHaveLength(count);
    expect(a.sheet.lines).toHaveLength(count * 2);
    expect(a.estimatedCost).toBeGreaterThan(0);

    // The API: one amount changed, every other damage keeps its lines.
    const rows = a.damages.map((d, i) => ({ line: i, ...d, amount: a.lineItems[i].totalCents / 100 }));
    rows[3].amount = 150;
    const edited = await owner.api.put(`/api/assessments/${a.id}/estimate`, { reason: "PDR price for dent 4", damages: rows });
    expect(edited.status, JSON.stringify(edited.json).slice(0, 300)).toBe(200);
    expect(edited.json.damages).toHaveLength(count);

    // The screen: the whole form as rendered, one line's amount typed.
    const read = (await owner.api.get(`/api/assessments/${a.id}`)).json as EstimateRead;
    const body = editEstimateForm(a.id, read, { reason: "Set-up charge", "lines[0].amount": "12.50" });
    const screen = await owner.api.post(`/estimates?edit=${a.id}`, body, { "Content-Type": "application/x-www-form-urlencoded", Origin: app.url });
    expect(screen.status, screen.text.slice(0, 300)).toBe(302);
    const saved = (await owner.api.get(`/api/assessments/${a.id}`)).json as EstimateRead & { estimatedCost: number };
    expect(saved.damages).toHaveLength(count);
    expect(saved.audit.at(-1)).toMatchObject({ action: "estimate edited", note: "Set-up charge" });

    const pdf = await fetch(`${app.url}/api/assessments/${a.id}/estimate.pdf`, { headers: { Cookie: owner.cookie } });
    expect(pdf.status).toBe(200);

    const other = await dealer();
    const report = await exportImport(owner, other);
    expect(report.errors).toEqual([]);
    expect(report.collections.find((c) => c.name === "assessments")).toMatchObject({ invalid: 0, imported: 1 });
    const [copy] = await Assessment.find({ ownerId: other.user.id }).lean();
    expect(copy.damages).toHaveLength(count);
    expect(copy.estimatedCost).toBe(saved.estimatedCost);
    expect((copy.estimateSheet as { lines: unknown[] }).lines).toHaveLength(saved.sheet.lines.length);
  }, 120_000);
});

describe("more damages than an estimate holds", () => {
  it("keeps the first MAX_DAMAGES and says how many were found; the estimate is edited and re-imported", async () => {
    const owner = await dealer();
    const a = await analysed(owner, 130);
    expect(a.damages).toHaveLength(MAX_DAMAGES);
    expect(a.damages.at(-1)).toMatchObject({ description: `Hail dent ${MAX_DAMAGES}` });
    expect(a.audit.at(-1)).toMatchObject({ action: "analysis completed", note: `The analysis found 130 damages; the estimate keeps the first ${MAX_DAMAGES} (the most one estimate holds)` });
    const rows = a.damages.map((d, i) => ({ line: i, ...d, amount: a.lineItems[i].totalCents / 100 }));
    rows[0].amount = 99;
    expect((await owner.api.put(`/api/assessments/${a.id}/estimate`, { reason: "Checked", damages: rows })).status).toBe(200);
    const report = await exportImport(owner, await dealer());
    expect(report.collections.find((c) => c.name === "assessments")).toMatchObject({ invalid: 0, imported: 1 });
  }, 120_000);

  it("the limit is the same on every side: one more damage or line is refused with the number", async () => {
    const owner = await dealer();
    const id = (await owner.api.post("/api/assessments", { title: "Too many", mediaUrls: [await uploadMedia(owner.api, { bytes: await jpeg({ width: 80, height: 60 }) })] })).json.id;
    await Assessment.updateOne({ _id: id }, { $set: { status: "completed" } });
    const damage = { damageType: "dent", location: "top", severity: "minor" };
    const many = await owner.api.put(`/api/assessments/${id}/estimate`, { reason: "x", damages: Array(MAX_DAMAGES + 1).fill(damage) });
    expect(many.status).toBe(400);
    expect(many.json.errors.damages).toBe(`At most ${MAX_DAMAGES} damages`);
    const lines = Array(MAX_SHEET_LINES + 1).fill({ damage: null, operation: "sublet", amountCents: 100 });
    const tooLong = await owner.api.put(`/api/assessments/${id}/estimate`, { reason: "x", damages: [damage], lines });
    expect(tooLong.json.errors.lines).toBe(`At most ${MAX_SHEET_LINES} lines`);
    const quote = await owner.api.post(`/api/vendors/${vendorId}/quote`, { damages: Array(MAX_DAMAGES + 1).fill({ damageType: "dent", severity: "moderate" }) });
    expect(quote.json.errors.damages).toBe(`At most ${MAX_DAMAGES} damages`);
  });
});
