import type { Page } from "@playwright/test";
import mongoose from "mongoose";
import { computeImageFeatures } from "../app/services/image-features.server";
import { photo } from "../tests/media-files";
import { expect, test } from "./fixtures";
import { uploadWithUppy } from "./uppy";

// The product's main walk, with JavaScript on (Uppy, polling) and off (the plain upload form, a
// refreshing analysis page): upload two photos, give the details, watch the analysis, read a result
// priced from a vendor's rules by the embedded matcher (verified training examples of these photos),
// then approve it on the dashboard.

const noJs = () => test.info().project.name === "no-js";

async function seedPricingKnowledge(vendorId: string, photos: Buffer[]) {
  const db = mongoose.connection;
  const now = new Date();
  await db.collection("pricingrules").insertOne({
    vendorId: new mongoose.Types.ObjectId(vendorId),
    damageType: "dent",
    severity: "moderate",
    basePrice: 120,
    laborRate: 90,
    markupPercentage: 0,
    minimumCharge: 0,
    vehicleMakeModifier: {},
    locationModifier: {},
    seasonalModifier: {},
    isActive: true,
    createdAt: now,
    updatedAt: now,
  });
  // What an admin's Verify leaves behind: verified examples carrying their image's features.
  for (const bytes of photos) {
    await db.collection("trainingitems").insertOne({
      createdBy: new mongoose.Types.ObjectId(vendorId),
      imageUrl: "/media/000000000000000000000000",
      damageType: "dent",
      severity: "moderate",
      location: "front",
      description: "Verified dent",
      estimatedCost: 400,
      laborHours: 2,
      partsCost: 50,
      isVerified: true,
      verifiedAt: now,
      features: await computeImageFeatures(bytes),
      createdAt: now,
      updatedAt: now,
    });
  }
}

async function uploadPhotos(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  await page.goto("/upload");
  if (noJs()) {
    const form = page.getByTestId("upload-fallback-wizard");
    await form.locator('input[type="file"]').setInputFiles(files);
    await form.getByRole("button", { name: "Upload" }).click();
  } else {
    await uploadWithUppy(page, '[data-testid="uploader-wizard"]', files);
  }
  await expect(page.getByText(`${files.length} file(s) uploaded successfully`)).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId("uploaded-file")).toHaveCount(files.length);
}

test("upload → details → analysis → a priced result, then Approve on the dashboard", async ({ page, loginAs, createUser }) => {
  test.setTimeout(90_000);
  const vendor = await createUser("vendor");
  const photos = [await photo(200, 150, 2), await photo(200, 150, 3)];
  await seedPricingKnowledge(vendor.id, photos);
  await loginAs("dealer");

  await uploadPhotos(page, [
    { name: "bumper.png", mimeType: "image/png", buffer: photos[0] },
    { name: "wing.png", mimeType: "image/png", buffer: photos[1] },
  ]);
  await page.getByRole("button", { name: "Continue to Assessment Details" }).click();
  const details = page.getByTestId("upload-details-step");
  await expect(details).toBeVisible();

  // The server's messages on the fields, with or without JavaScript.
  await details.getByLabel("VIN").fill("1HGCM82633A00435O");
  await details.getByRole("button", { name: "Create Assessment & Start AI Analysis" }).click();
  await expect(details.getByText("Title is required")).toBeVisible();
  await expect(details.getByText("VIN must be 17 characters without I, O or Q")).toBeVisible();

  await details.getByLabel("Title").fill("Front bumper, customer drop-off");
  await details.getByLabel("Vehicle Year").fill("2021");
  await details.getByLabel("Make").fill("Toyota");
  await details.getByLabel("Model").fill("Camry");
  await details.getByLabel("VIN").fill("1hgcm82633a004352");
  await details.getByLabel("Vendor for pricing").selectOption({ label: `${vendor.username} Body Works` });
  await details.getByRole("button", { name: "Create Assessment & Start AI Analysis" }).click();

  // Analyzing (it may be over before the page shows it), then the result, on the same URL.
  await expect(page).toHaveURL(/\/upload\?assessment=[0-9a-f]{24}$/);
  const result = page.getByTestId("analysis-result");
  await expect(result).toBeVisible({ timeout: 30_000 });
  await expect(result.getByTestId("severity-badge")).toHaveText("Moderate");
  await expect(result.getByTestId("result-cost")).toHaveText(/^\$\d{1,3}(,\d{3})*\.\d\d$/);
  await expect(result.getByTestId("result-confidence")).toHaveText(/^\d+%$/);
  await expect(result.getByText("Dent", { exact: true })).toBeVisible();
  const cost = await result.getByTestId("result-cost").textContent();

  // Leaving and coming back finds the same result.
  const url = page.url();
  await page.goto("/");
  await page.goto(url);
  await expect(page.getByTestId("result-cost")).toHaveText(cost!);

  // Send to Customer without a contact says so.
  await page.getByRole("button", { name: "Send to Customer" }).click();
  await expect(page.getByText("Please assign a contact to this assessment first")).toBeVisible();

  // The dashboard: the figures, the recent list and the board's Review column with Approve.
  await page.goto("/");
  await expect(page.getByRole("group", { name: "Total Assessments" }).getByTestId("stat-value")).toHaveText("1");
  await expect(page.getByRole("group", { name: "Pending Reviews" }).getByTestId("stat-value")).toHaveText("1");
  await expect(page.getByTestId("recent-assessment").filter({ hasText: "Front bumper, customer drop-off" })).toContainText(cost!);
  const review = page.getByTestId("workflow-review");
  await expect(review.getByTestId("workflow-count")).toHaveText("1");
  await review.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText("is reviewed and ready to send.")).toBeVisible();
  await expect(page.getByTestId("workflow-review").getByTestId("workflow-count")).toHaveText("0");
  await expect(page.getByTestId("workflow-complete").getByTestId("workflow-count")).toHaveText("1");
  await expect(page.getByRole("group", { name: "Pending Reviews" }).getByTestId("stat-value")).toHaveText("0");
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
  await expect(page.getByText("Please upload at least one file")).toBeVisible();
  await page.goto("/");
  await expect(page.getByRole("group", { name: "Total Assessments" }).getByTestId("stat-value")).toHaveText("0");
});
