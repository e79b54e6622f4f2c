import type { Page } from "@playwright/test";
import { startApp, type RunningApp } from "../tests/app-server";
import { photo } from "../tests/media-files";
import { FRONT_BUMPER_DENT, startOpenAiTestServer, type OpenAiTestServer } from "../tests/openai-server";
import { uploadPhotos } from "./assessment-walk";
import { expect, test } from "./fixtures";

// A fresh installation (a database of its own, no OPENAI_* and no training images): the analysis
// says nothing was analysed and what to do; an admin then sets up a provider in Admin Settings
// (the suite's OpenAI-compatible server) and the next analysis uses it, without a restart.
const noJs = () => test.info().project.name === "no-js";

async function expectToast(page: Page, title: string, message?: string) {
  const toast = page.getByRole(noJs() ? "status" : "alert").filter({ hasText: message ?? title });
  // One toast shows at a time (5 s each): this one may wait behind the one before it.
  await expect(toast.first()).toBeVisible({ timeout: 12_000 });
  await expect(toast.first().getByText(title, { exact: true })).toBeVisible();
}

test.describe("AI provider", () => {
  let ai: OpenAiTestServer;
  let app: RunningApp;
  const ADMIN = { username: "provideradmin", password: "admin-password-1" };
  const DEALER = { username: "providerdealer", password: "dealer-password-1" };

  test.beforeAll(async ({ request }, info) => {
    test.setTimeout(60_000);
    ai = await startOpenAiTestServer();
    ai.fallback = { json: FRONT_BUMPER_DENT };
    const uri = new URL(process.env.E2E_MONGODB_URI!);
    // A database per project and per attempt: a retry starts from a fresh installation too.
    uri.pathname = `${uri.pathname}_provider_${info.project.name}_${info.retry}`;
    app = await startApp({ mongoUri: uri.toString() });
    expect((await request.post(`${app.url}/api/admin/create-account`, { data: { ...ADMIN, email: "a@example.com", firstName: "A", lastName: "Admin" } })).status()).toBe(201);
    expect((await request.post(`${app.url}/api/admin/login`, { data: ADMIN })).status()).toBe(200);
    const made = await request.post(`${app.url}/api/admin/users`, {
      data: { ...DEALER, email: "d@example.com", firstName: "Dee", lastName: "Dealer", role: "dealer" },
    });
    expect(made.status()).toBe(201);
  });
  test.afterAll(async () => {
    await app?.stop();
    await ai?.close();
  });

  async function analyse(page: Page, title: string) {
    expect((await page.request.post(`${app.url}/api/admin/login`, { data: DEALER })).status()).toBe(200);
    await uploadPhotos(page, app.url, [{ name: "front.png", mimeType: "image/png", buffer: await photo(240, 180, 4) }]);
    await page.getByRole("button", { name: "Continue to Assessment Details" }).click();
    const details = page.getByTestId("upload-details-step");
    await details.getByLabel("Title").fill(title);
    await details.getByRole("button", { name: "Create Assessment & Start AI Analysis" }).click();
    const result = page.getByTestId("analysis-result");
    await expect(result).toBeVisible({ timeout: 30_000 });
    return result;
  }

  test("no provider: the result says nothing was analysed and what to do; an admin sets one up, tests it, and the next analysis uses it", async ({ page }) => {
    test.setTimeout(120_000);
    const none = await analyse(page, "Before the provider");
    if (!noJs()) await expectToast(page, "Not Analysed");
    await expect(none.getByRole("heading", { name: "Not Analysed" })).toBeVisible();
    await expect(none).not.toContainText("completed successfully");
    // Not looked at is not "no damage": the categories and the cost note say it was not analysed.
    await expect(none).not.toContainText("No damage identified");
    await expect(none).not.toContainText("None found");
    await expect(none.getByTestId("result-categories-not-analysed")).toHaveText("Not analysed: nothing looked at the photos");
    await expect(none.getByTestId("result-cost-note")).toHaveText("Not analysed: a person enters the damages and prices");
    await expect(none.getByTestId("analysis-missing")).toContainText("An admin sets up an AI provider (Admin Settings → AI Provider) or verifies training images");
    await page.goto(`${app.url}/settings?tab=system`);
    await expect(page.getByTestId("status-list").getByRole("row").filter({ hasText: "AI Service" })).toContainText("Not configured");

    // The admin's AI Provider tab: save, then Test with a real request.
    expect((await page.request.post(`${app.url}/api/admin/login`, { data: ADMIN })).status()).toBe(200);
    await page.goto(`${app.url}/admin-settings`);
    await page.getByRole("tab", { name: "AI Provider" }).click();
    const section = page.getByTestId("ai-provider");
    await expect(section.getByTestId("ai-provider-source")).toContainText("No AI provider is set up");
    await section.getByLabel("Base URL").fill("ftp://example.com");
    await section.getByRole("button", { name: "Save AI Provider" }).click();
    await expect(section.getByText("Base URL must start with http:// or https://")).toBeVisible();
    await section.getByLabel("Base URL").fill(ai.baseURL);
    await section.getByLabel("Model").fill("vision-test");
    await section.getByLabel("API key").fill("sk-from-the-screen");
    await section.getByRole("button", { name: "Save AI Provider" }).click();
    await expectToast(page, "AI Provider Saved");
    await expect(page.getByTestId("ai-provider-source")).toContainText(`In use: ${ai.baseURL}, model vision-test`);
    await expect(page.getByTestId("ai-provider").getByText("A key is stored (encrypted). Leave blank to keep it.")).toBeVisible();
    const asked = ai.requests.length;
    await page.getByTestId("ai-provider").getByRole("button", { name: "Test", exact: true }).click();
    await expectToast(page, "AI Provider Works");
    expect(ai.requests.length).toBe(asked + 1);
    expect(ai.requests.at(-1)!.headers.authorization).toBe("Bearer sk-from-the-screen");

    // The next analysis uses it, without a restart.
    const done = await analyse(page, "After the provider");
    await expect(done.getByRole("heading", { name: "Analysis Complete" })).toBeVisible();
    await expect(done.getByTestId("result-description")).toHaveText("A moderate dent in the front bumper.");
    await expect(done.getByTestId("result-confidence")).toHaveText("86%");
  });
});
