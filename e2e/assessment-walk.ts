// The main walk of the product, shared by the embedded-matcher and the OpenAI-compatible specs:
// upload two photos, give the details, watch the analysis, read the priced result, approve it.
import type { Page } from "@playwright/test";
import mongoose from "mongoose";
import { computeImageFeatures } from "../app/services/image-features.server";
import { expect, test } from "./fixtures";
import { uploadWithUppy } from "./uppy";

const noJs = () => test.info().project.name === "no-js";

/** No sideways scrolling at 360 px wide (a phone), then back to the desktop size. */
export async function expectFitsPhone(page: Page, what: string) {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 360, height: 740 });
  // Polled: a toast sliding in from the right widens the page for the length of its animation.
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), {
      message: `${what} scrolls sideways at 360 px`,
      timeout: 3000,
    })
    .toBeLessThanOrEqual(0);
  if (size) await page.setViewportSize(size);
}

/** Step 1 with the widget (JavaScript) or the plain form (no JavaScript). */
export async function uploadPhotos(page: Page, base: string, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  await page.goto(`${base}/upload`);
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

/** Steps 2–4: the details (with a wrong first try), then the result; answers the cost shown. */
export async function detailsToResult(page: Page, { title, vendorLabel }: { title: string; vendorLabel: string }) {
  await page.getByRole("button", { name: "Continue to Assessment Details" }).click();
  const details = page.getByTestId("upload-details-step");
  await expect(details).toBeVisible();
  await expectFitsPhone(page, "the details step");

  // The server's messages on the fields, with or without JavaScript.
  await details.getByLabel("VIN").fill("1HGCM82633A00435O");
  await details.getByRole("button", { name: "Create Assessment & Start AI Analysis" }).click();
  await expect(details.getByText("Title is required")).toBeVisible();
  await expect(details.getByText("VIN must be 17 characters without I, O or Q")).toBeVisible();

  await details.getByLabel("Title").fill(title);
  await details.getByLabel("Vehicle Year").fill("2021");
  await details.getByLabel("Make").fill("Toyota");
  await details.getByLabel("Model").fill("Camry");
  await details.getByLabel("VIN").fill("1hgcm82633a004352");
  await details.getByLabel("Vendor for pricing").selectOption({ label: vendorLabel });
  // With JavaScript the VIN's decode lands above the button (its vehicle, a mismatch warning): waited
  // for, so the click does not land on the "Use the VIN's vehicle" button that moves under it.
  if (!noJs()) await expect(details.getByTestId("vin-warning")).toBeVisible();
  await details.getByRole("button", { name: "Create Assessment & Start AI Analysis" }).click();

  // Analyzing (it may be over before the page shows it), then the result, on the same URL.
  await expect(page).toHaveURL(/\/upload\?assessment=[0-9a-f]{24}$/);
  const result = page.getByTestId("analysis-result");
  await expect(result).toBeVisible({ timeout: 30_000 });
  await expect(result.getByTestId("severity-badge")).toHaveText("Moderate");
  await expect(result.getByTestId("result-cost")).toHaveText(/^\$\d{1,3}(,\d{3})*\.\d\d$/);
  await expect(result.getByTestId("result-confidence")).toHaveText(/^\d+%$/);
  await expect(result.getByText("Dent", { exact: true })).toBeVisible();
  await expectFitsPhone(page, "the result");
  return (await result.getByTestId("result-cost").textContent())!;
}

/** The dashboard shows the new assessment waiting for review; Approve moves it on. */
export async function approveOnDashboard(page: Page, base: string, { title, cost }: { title: string; cost: string }) {
  await page.goto(`${base}/`);
  await expect(page.getByRole("group", { name: "Total Assessments" }).getByTestId("stat-value")).toHaveText("1");
  await expect(page.getByRole("group", { name: "Pending Reviews" }).getByTestId("stat-value")).toHaveText("1");
  // The dashboard's costs are whole dollars (spec part 1 §9).
  const whole = `$${Math.round(Number(cost.replace(/[$,]/g, ""))).toLocaleString("en-US")}`;
  await expect(page.getByTestId("recent-assessment").filter({ hasText: title })).toContainText(whole);
  const review = page.getByTestId("workflow-review");
  await expect(review.getByTestId("workflow-count")).toHaveText("1");
  await review.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText("is reviewed and ready to send.")).toBeVisible();
  await expect(page.getByTestId("workflow-review").getByTestId("workflow-count")).toHaveText("0");
  await expect(page.getByTestId("workflow-complete").getByTestId("workflow-count")).toHaveText("1");
  await expect(page.getByRole("group", { name: "Pending Reviews" }).getByTestId("stat-value")).toHaveText("0");
  await expectFitsPhone(page, "the dashboard");
}

/** A vendor's active rule for moderate dents and verified training examples of `photos` (what the walks analyse and price with). */
export async function seedPricingKnowledge(vendorId: string, photos: Buffer[]) {
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
