import { startApp, type RunningApp } from "../tests/app-server";
import { photo } from "../tests/media-files";
import { FRONT_BUMPER_DENT, startOpenAiTestServer, type OpenAiTestServer } from "../tests/openai-server";
import { approveOnDashboard, detailsToResult, uploadPhotos } from "./assessment-walk";
import { expect, test } from "./fixtures";

// The same walk with an OpenAI-compatible vision provider (a local server speaking chat completions):
// its damages are priced from the vendor's rule. This app has a database of its own, so the suite's
// app (the embedded matcher) never takes its analyses up; its accounts are made through its API.
test.describe("with an OpenAI-compatible provider", () => {
  let ai: OpenAiTestServer;
  let app: RunningApp;
  let vendorLabel: string;
  const ADMIN = { username: "openaiadmin", password: "admin-password-1" };

  test.beforeAll(async ({ request }, info) => {
    test.setTimeout(60_000);
    ai = await startOpenAiTestServer();
    ai.fallback = { json: FRONT_BUMPER_DENT };
    const uri = new URL(process.env.E2E_MONGODB_URI!);
    uri.pathname = `${uri.pathname}_openai_${info.project.name}`;
    app = await startApp({ mongoUri: uri.toString(), env: { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: ai.baseURL } });
    expect((await request.post(`${app.url}/api/admin/create-account`, { data: { ...ADMIN, email: "a@example.com", firstName: "A", lastName: "Admin" } })).status()).toBe(201);
    expect((await request.post(`${app.url}/api/admin/login`, { data: ADMIN })).status()).toBe(200);
    const vendor = await request.post(`${app.url}/api/admin/users`, {
      data: { username: "bodyshop", password: "vendor-password-1", email: "v@example.com", firstName: "Vic", lastName: "Vendor", companyName: "Vic's Body Shop", role: "vendor" },
    });
    expect(vendor.status()).toBe(201);
    const vendorId = (await vendor.json()).user.id as string;
    vendorLabel = "Vic's Body Shop";
    const rule = await request.post(`${app.url}/api/vendor-pricing-rules`, {
      data: { vendorId, damageType: "dent", severity: "moderate", basePrice: 150, laborRate: 95, markupPercentage: 0, minimumCharge: 0, vehicleMakeModifier: {}, locationModifier: {}, seasonalModifier: {} },
    });
    expect(rule.status()).toBe(201);
  });
  test.afterAll(async () => {
    await app?.stop();
    await ai?.close();
  });

  test("upload → details → analysis by the provider → priced by the vendor's rule → Approve", async ({ page }, info) => {
    test.setTimeout(90_000);
    const dealer = { username: `dealer-${info.project.name}`, password: "dealer-password-1" };
    const admin = await page.request.post(`${app.url}/api/admin/login`, { data: ADMIN });
    expect(admin.status()).toBe(200);
    const made = await page.request.post(`${app.url}/api/admin/users`, {
      data: { ...dealer, email: `${dealer.username}@example.com`, firstName: "Dee", lastName: "Dealer", role: "dealer" },
    });
    expect(made.status()).toBe(201);
    expect((await page.request.post(`${app.url}/api/admin/login`, { data: dealer })).status()).toBe(200);

    const asked = ai.requests.length;
    await uploadPhotos(page, app.url, [
      { name: "front.png", mimeType: "image/png", buffer: await photo(240, 180, 4) },
      { name: "side.png", mimeType: "image/png", buffer: await photo(240, 180, 5) },
    ]);
    const title = "Dent, provider walk";
    const cost = await detailsToResult(page, { title, vendorLabel });
    // One request to the provider, with both photos.
    expect(ai.requests.length - asked).toBe(1);
    expect(ai.imagesOf(ai.requests[ai.requests.length - 1])).toHaveLength(2);
    await expect(page.getByTestId("result-description")).toHaveText("A moderate dent in the front bumper.");
    await expect(page.getByTestId("result-confidence")).toHaveText("86%");
    await approveOnDashboard(page, app.url, { title, cost });
    // The dashboard's Vendor Pricing shows the real vendor's labour rate, not the samples.
    await expect(page.getByTestId("vendor-pricing")).toContainText("Vic's Body Shop");
    await expect(page.getByTestId("vendor-pricing")).toContainText("$95.00/hr");
  });
});
