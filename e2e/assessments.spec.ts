import { photo } from "../tests/media-files";
import { approveOnDashboard, detailsToResult, seedPricingKnowledge, uploadPhotos } from "./assessment-walk";
import { expect, test } from "./fixtures";

// The product's main walk, with JavaScript on (Uppy, polling) and off (the plain upload form, a
// refreshing analysis page): upload two photos, give the details, watch the analysis, read a result
// priced from a vendor's rules by the embedded matcher (verified training examples of these photos),
// then approve it on the dashboard.

test("upload → details → analysis → a priced result, then Approve on the dashboard", async ({ page, loginAs, createUser }) => {
  test.setTimeout(90_000);
  const vendor = await createUser("vendor");
  const photos = [await photo(200, 150, 2), await photo(200, 150, 3)];
  await seedPricingKnowledge(vendor.id, photos);
  await loginAs("dealer");

  const base = "";
  await uploadPhotos(page, base, [
    { name: "bumper.png", mimeType: "image/png", buffer: photos[0] },
    { name: "wing.png", mimeType: "image/png", buffer: photos[1] },
  ]);
  const title = "Front bumper, customer drop-off";
  const cost = await detailsToResult(page, { title, vendorLabel: `${vendor.username} Body Works` });

  // Leaving and coming back finds the same result.
  const url = page.url();
  await page.goto("/");
  await page.goto(url);
  await expect(page.getByTestId("result-cost")).toHaveText(cost);

  // Send to Customer without a contact says so.
  await page.getByRole("button", { name: "Send to Customer" }).click();
  await expect(page.getByText("Please assign a contact to this assessment first").first()).toBeVisible();

  await approveOnDashboard(page, base, { title, cost });
});

test("creating an assessment with no files shows the 'No Files' message", async ({ page, loginAs }) => {
  await loginAs("dealer");
  await page.goto("/upload?step=details");
  // Without uploaded files the wizard stays on step 1 and cannot continue…
  await expect(page.getByRole("button", { name: "Continue to Assessment Details" })).toBeDisabled();
  // …and a details post without files (a stale page) creates nothing and says why.
  const res = await page.request.post("/upload", { form: { intent: "create", title: "Nothing" }, maxRedirects: 0 });
  expect(res.status()).toBe(302);
  await page.goto("/upload");
  // The server-rendered banner, which becomes a notification once the page is hydrated (both for a moment).
  await expect(page.getByText("Please upload at least one file").first()).toBeVisible();
  await page.goto("/");
  await expect(page.getByRole("group", { name: "Total Assessments" }).getByTestId("stat-value")).toHaveText("0");
});
