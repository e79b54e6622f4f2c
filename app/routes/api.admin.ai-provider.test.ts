import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestUser, signIn, tenancyClients } from "../../tests/accounts";
import { startApp, type RunningApp } from "../../tests/app-server";
import { jpeg } from "../../tests/media-files";
import { startOpenAiTestServer, type OpenAiTestServer } from "../../tests/openai-server";
import { useTestDb } from "../../tests/test-db";
import { uploadMedia } from "../../tests/uploads";

// Two instances on one database and one store (as behind a load balancer), neither with OPENAI_*:
// what an admin saves on one is what the other analyses with, without a restart.
let first: RunningApp;
let second: RunningApp;
let ai: OpenAiTestServer;
type Client = ReturnType<typeof client>;
let dealer: Client;
let dealerOnSecond: Client;
let admin: Client;
const dataDir = mkdtempSync(path.join(os.tmpdir(), "ai-provider-test-"));
const DENT = { damageType: "dent", location: "front", severity: "moderate", description: "Dent in the bumper", confidence: 0.8, photo: 1 };

beforeAll(async () => {
  await useTestDb();
  ai = await startOpenAiTestServer();
  const env = { ANALYSIS_ATTEMPTS: "1", DATA_DIR: dataDir };
  [first, second] = await Promise.all([startApp({ env }), startApp({ env })]);
  ({ admin, dealerA: dealer } = await tenancyClients(first));
  const other = await createTestUser({ role: "dealer" });
  dealerOnSecond = client(second, { cookie: await signIn(second, other.username, other.password) });
}, 90_000);
afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()]);
  await ai?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function analyse(who: Client) {
  const mediaUrl = await uploadMedia(who, { bytes: await jpeg({ width: 80, height: 60 }) });
  const created = await who.post("/api/assessments", { title: "Bumper", mediaUrls: [mediaUrl] });
  expect(created.status).toBe(201);
  const res = await who.post(`/api/assessments/${created.json.id}/analyze`);
  expect(res.status).toBe(200);
  return res.json;
}

describe("the AI provider (Admin Settings → AI Provider)", () => {
  it("without a provider and without verified training images, the analysis says nothing was analysed, and the status list says not configured", async () => {
    const a = await analyse(dealer);
    expect(a.status).toBe("completed");
    expect(a.aiAnalysis.provider).toBe("none");
    expect(a.aiAnalysis.description).toMatch(/no AI provider is set up/);
    const page = await dealer.get("/settings?tab=system");
    expect(page.status).toBe(200);
    const aiRow = /AI Service[\s\S]*?Email Service/.exec(page.text)?.[0] ?? "";
    expect(aiRow).toContain("Not configured");
    expect(aiRow).not.toContain("Operational");
    // The wizard's result does not claim a completed analysis.
    const wizard = await dealer.get(`/upload?assessment=${a.id}`);
    expect(wizard.text).toContain("Not Analysed");
    expect(wizard.text).not.toContain("AI damage assessment completed successfully");
    expect(wizard.text).toContain("Admin Settings → AI Provider");
  });

  it("is the admin's alone", async () => {
    expect((await dealer.get("/api/admin/ai-provider")).status).toBe(403);
    expect((await dealer.put("/api/admin/ai-provider", { model: "x" })).status).toBe(403);
    expect((await dealer.post("/api/admin/ai-provider/test", {})).status).toBe(403);
    expect((await dealer.del("/api/admin/ai-provider")).status).toBe(403);
  });

  it("refuses a base URL that is not http(s), and a missing model, changing nothing", async () => {
    const bad = await admin.put("/api/admin/ai-provider", { baseURL: "file:///etc/passwd", model: "m" });
    expect(bad.status).toBe(400);
    expect(bad.json.errors.baseURL).toBe("Base URL must start with http:// or https://");
    const noModel = await admin.put("/api/admin/ai-provider", { baseURL: ai.baseURL, model: " " });
    expect(noModel.status).toBe(400);
    expect(noModel.json.errors.model).toBe("Model is required");
    expect((await admin.get("/api/admin/ai-provider")).json.source).toBe("none");
  });

  it("saves the provider with its key sealed, tests it with a real request, and every instance analyses with it at once", async () => {
    const saved = await admin.put("/api/admin/ai-provider", { baseURL: ai.baseURL, model: "vision-test", apiKey: "sk-admin-secret" });
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({ source: "settings", baseURL: ai.baseURL, model: "vision-test", apiKeySet: true });
    expect(saved.text).not.toContain("sk-admin-secret");
    const stored = await mongoose.connection.collection("aiproviders").findOne({});
    expect(stored?.apiKeyEnc).toMatch(/^v1\./);
    expect(JSON.stringify(stored)).not.toContain("sk-admin-secret");

    const before = ai.requests.length;
    const tested = await admin.post("/api/admin/ai-provider/test", {});
    expect(tested.status).toBe(200);
    expect(tested.json.ok).toBe(true);
    expect(ai.requests.length).toBe(before + 1);
    expect(ai.requests.at(-1)!.headers.authorization).toBe("Bearer sk-admin-secret");
    expect(ai.requests.at(-1)!.body.model).toBe("vision-test");

    // Unsaved values are tested as given: an unreachable server says so.
    const unreachable = await admin.post("/api/admin/ai-provider/test", { baseURL: "http://127.0.0.1:9/v1" });
    expect(unreachable.json).toMatchObject({ ok: false });
    expect(unreachable.json.message).toMatch(/could not be reached/);

    // The other instance, never restarted, analyses with the saved provider.
    ai.script({ json: { damages: [DENT], summary: "A dent.", confidence: 0.8 } });
    const a = await analyse(dealerOnSecond);
    expect(a.aiAnalysis).toMatchObject({ provider: "openai", model: "vision-test", description: "A dent." });
    expect(ai.requests.at(-1)!.headers.authorization).toBe("Bearer sk-admin-secret");

    // A blank key keeps the stored one.
    const renamed = await admin.put("/api/admin/ai-provider", { baseURL: ai.baseURL, model: "vision-2" });
    expect(renamed.json).toMatchObject({ model: "vision-2", apiKeySet: true });
    const page = await dealerOnSecond.get("/settings?tab=system");
    const aiRow = /AI Service[\s\S]*?Email Service/.exec(page.text)?.[0] ?? "";
    expect(aiRow).toContain("Operational");
    expect(aiRow).toContain("vision-2");
    // Settings → Security shows the key in use, masked.
    const security = await dealerOnSecond.get("/settings?tab=security");
    expect(security.text).toContain("sk-…cret");
    expect(security.text).not.toContain("sk-admin-secret");
  });

  it("removed, analyses go back to the default at once", async () => {
    const removed = await admin.del("/api/admin/ai-provider");
    expect(removed.status).toBe(200);
    expect(removed.json.source).toBe("none");
    const a = await analyse(dealerOnSecond);
    expect(a.aiAnalysis.provider).toBe("none");
  });
});
