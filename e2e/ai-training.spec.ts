import type { Page } from "@playwright/test";
import mongoose from "mongoose";
import { jpeg } from "../tests/media-files";
import { expect, test } from "./fixtures";
import { uploadWithUppy } from "./uppy";

// The AI Training Center, with JavaScript on (Uppy uploads the image first) and off (the image
// file comes with the form post).

const stat = (page: Page, label: string) => page.getByRole("group", { name: label }).getByTestId("stat-value");
const dialog = (page: Page) => page.getByRole("dialog");
const cards = (page: Page) => page.getByTestId("training-card");
const noJs = () => test.info().project.name === "no-js";

async function expectToast(page: Page, title: string, message: string) {
  // The same message twice in a row: the newest one (the earlier may still be fading out).
  const toast = page.getByRole(noJs() ? "status" : "alert").filter({ hasText: message }).last();
  await expect(toast).toBeVisible();
  await expect(toast.getByText(title, { exact: true })).toBeVisible();
}

async function addItem(page: Page, fields: { description: string; cost: string; damageType: string; severity: string }) {
  await page.getByRole("link", { name: "Add Training Data" }).first().click();
  const form = dialog(page);
  await expect(form.getByText("Add Training Data").first()).toBeVisible();
  const image = { name: "dent.jpg", mimeType: "image/jpeg", buffer: await jpeg({ width: 200, height: 150 }) };
  if (noJs()) {
    await form.getByLabel("Training image").setInputFiles(image);
  } else {
    // Submit waits for the image.
    await expect(form.getByRole("button", { name: "Add Training Data" })).toBeDisabled();
    await uploadWithUppy(page, '[role="dialog"]', [image]);
    await expectToast(page, "Success", "Image uploaded successfully");
    await expect(form.getByRole("button", { name: "Add Training Data" })).toBeEnabled();
  }
  await form.getByLabel("Damage Type").selectOption(fields.damageType);
  await form.getByLabel("Severity").selectOption(fields.severity);
  await form.getByLabel("Description").fill(fields.description);
  await form.getByLabel("Estimated Cost (USD)").fill(fields.cost);
  await form.getByLabel("Labor Hours").fill("2.5");
  await form.getByLabel("Vehicle Make").fill("Toyota");
  await form.getByLabel("Location").selectOption("left");
  await form.getByRole("button", { name: "Add Training Data" }).click();
  await expectToast(page, "Success", "Training data added successfully");
  await expect(dialog(page)).toHaveCount(0);
}

test("admins add training data with an image, verify it, filter, edit and delete it", async ({ page, loginAs }) => {
  await loginAs("admin");
  // Training data is the platform's, not an account's: start from none (the tests run one at a time).
  await mongoose.connection.collection("trainingitems").deleteMany({});
  await page.goto("/ai-training");
  await expect(page.getByRole("heading", { name: "AI Training Center", level: 1 })).toBeVisible();
  await expect(stat(page, "Model Accuracy")).toHaveText("96.8%");
  await expect(stat(page, "Total Images")).toHaveText("0");

  // The spec's required fields, server-side (no image, no description).
  await page.getByRole("link", { name: "Add Training Data" }).first().click();
  if (noJs()) {
    await dialog(page).getByRole("button", { name: "Add Training Data" }).click();
    await expect(dialog(page).getByText("Image is required")).toBeVisible();
    await expect(dialog(page).getByText("Description is required")).toBeVisible();
  }
  await page.goto("/ai-training");

  await addItem(page, { description: "Door dent, paint intact", cost: "450", damageType: "dent", severity: "moderate" });
  await addItem(page, { description: "Key scratch on the bonnet", cost: "120.50", damageType: "scratch", severity: "minor" });
  await expect(stat(page, "Total Images")).toHaveText("2");
  await expect(stat(page, "Pending Review")).toHaveText("2");
  const dent = cards(page).filter({ hasText: "Door dent, paint intact" });
  await expect(dent.getByTestId("training-cost")).toHaveText("$450.00");
  await expect(dent.getByText("Toyota")).toBeVisible();
  await expect(dent.getByRole("img", { name: "Door dent, paint intact" })).toBeVisible();

  // Verify: the badge moves to Verified, the button goes, the cards follow.
  await dent.getByRole("button", { name: "Verify" }).click();
  await expectToast(page, "Success", "Training data updated successfully");
  await expect(dent.getByTestId("training-status")).toHaveText("Verified");
  await expect(dent.getByRole("button", { name: "Verify" })).toHaveCount(0);
  await expect(stat(page, "Verified")).toHaveText("1");
  await expect(stat(page, "Pending Review")).toHaveText("1");

  // Filters are in the URL (applied on change with JavaScript, with Apply without).
  await page.getByLabel("Status").selectOption("pending");
  if (noJs()) await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/verified=pending/);
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page).first()).toContainText("Key scratch on the bonnet");
  await page.goto("/ai-training?damageType=dent");
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page).first()).toContainText("Door dent");
  await page.goto("/ai-training?damageType=glass_damage");
  await expect(page.getByRole("heading", { name: "No Training Data Found" })).toBeVisible();

  // Edit keeps the image and the verification.
  await page.goto("/ai-training");
  await dent.getByRole("link", { name: /^Edit Dent/ }).click();
  await expect(dialog(page).getByLabel("Estimated Cost (USD)")).toHaveValue("450");
  await dialog(page).getByLabel("Estimated Cost (USD)").fill("520");
  await dialog(page).getByRole("button", { name: "Update Training Data" }).click();
  await expectToast(page, "Success", "Training data updated successfully");
  await expect(dent.getByTestId("training-cost")).toHaveText("$520.00");
  await expect(dent.getByTestId("training-status")).toHaveText("Verified");

  // Delete after confirming.
  await dent.getByRole("link", { name: /^Delete Dent/ }).click();
  await dialog(page).getByRole("button", { name: "Delete" }).click();
  await expectToast(page, "Success", "Training data deleted successfully");
  await expect(cards(page)).toHaveCount(1);
  await expect(stat(page, "Total Images")).toHaveText("1");
});

test("dealers and vendors get the 403 page", async ({ page, loginAs }) => {
  await loginAs("dealer");
  const res = await page.goto("/ai-training");
  expect(res?.status()).toBe(403);
  await expect(page.getByRole("link", { name: "AI Training" })).toHaveCount(0);
});
