import type { Page } from "@playwright/test";
import mongoose from "mongoose";
import { expect, test } from "./fixtures";

// The Vendor AI Training Center with JavaScript on and off: an admin works on a vendor's pricing
// rules, packages and learning data; a vendor on its own; a dealer reads active rules.

const dialog = (page: Page) => page.getByRole("dialog");
const noJs = () => test.info().project.name === "no-js";

async function expectToast(page: Page, title: string, message: string) {
  // The same message twice in a row: the newest one (the earlier may still be fading out).
  const toast = page.getByRole(noJs() ? "status" : "alert").filter({ hasText: message }).last();
  await expect(toast).toBeVisible();
  await expect(toast.getByText(title, { exact: true })).toBeVisible();
}

async function chooseVendor(page: Page, name: RegExp) {
  const select = page.getByLabel("Vendor", { exact: true });
  const value = await select.locator("option", { hasText: name }).getAttribute("value");
  await select.selectOption(value!);
  if (noJs()) await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(new RegExp(`vendor=${value}`));
}

test("an admin adds, edits and deletes a vendor's pricing rule and package, and validates learning data", async ({ page, loginAs, createUser }) => {
  const vendor = await createUser("vendor");
  await mongoose.connection.collection("users").updateOne({ _id: vendor.user._id }, { $set: { address: "12 Harbour Rd, Springfield" } });
  await loginAs("admin");
  await page.goto("/vendor-ai-training");
  await expect(page.getByRole("heading", { name: "Vendor AI Training Center", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Choose a Vendor" })).toBeVisible();
  await expect(page.getByLabel("Vendor", { exact: true }).locator("option", { hasText: `${vendor.username} Body Works — 12 Harbour Rd, Springfield` })).toHaveCount(1);
  await chooseVendor(page, new RegExp(vendor.username));

  // Pricing rule: the spec's defaults, then a make modifier.
  await page.getByRole("link", { name: "Add Pricing Rule" }).click();
  await expect(dialog(page).getByLabel("Markup (%)")).toHaveValue("0.00");
  await expect(dialog(page).getByLabel("Minimum Charge (USD)")).toHaveValue("0.00");
  await dialog(page).getByRole("button", { name: "Create Pricing Rule" }).click();
  await expect(dialog(page).getByText("Base price is required")).toBeVisible();
  await dialog(page).getByLabel("Damage Type").selectOption("dent");
  await dialog(page).getByLabel("Severity").selectOption("major");
  await dialog(page).getByLabel("Base Price (USD)").fill("250");
  await dialog(page).getByLabel("Labor Rate (USD/hour)").fill("85.50");
  // The estimate line defaults: the API's messages, then a part price and refinish hours.
  await dialog(page).getByLabel("Part Price (USD)").fill("-5");
  await dialog(page).getByLabel("Refinish Hours").fill("1000");
  await dialog(page).getByRole("button", { name: "Create Pricing Rule" }).click();
  await expect(dialog(page).getByText("Part price must be a positive number")).toBeVisible();
  await expect(dialog(page).getByText("Refinish hours must be at most 999")).toBeVisible();
  await dialog(page).getByLabel("Part Price (USD)").fill("249.99");
  await dialog(page).getByLabel("Refinish Hours").fill("1.5");
  await dialog(page).getByLabel("Make 1").fill("BMW");
  await dialog(page).getByLabel("Vehicle make modifier multiplier 1").fill("1.2");
  await dialog(page).getByLabel("Minimum Charge (USD)").fill("-1");
  await dialog(page).getByRole("button", { name: "Create Pricing Rule" }).click();
  await expect(dialog(page).getByText("Minimum charge must be a positive number")).toBeVisible();
  // A refused form keeps its modifier rows, JavaScript or not.
  await expect(dialog(page).getByLabel("Make 1")).toHaveValue("BMW");
  await expect(dialog(page).getByLabel("Vehicle make modifier multiplier 1")).toHaveValue("1.2");
  await dialog(page).getByLabel("Minimum Charge (USD)").fill("0");
  await dialog(page).getByRole("button", { name: "Create Pricing Rule" }).click();
  await expectToast(page, "Success", "Pricing rule created successfully");
  const rule = page.getByRole("listitem", { name: "Dent (major)" });
  await expect(rule).toContainText("$250.00");
  await expect(rule).toContainText("$85.50/h");
  await expect(rule).toContainText("Make: BMW ×1.2");
  await expect(rule.getByTestId("rule-line-defaults")).toHaveText("Part $249.99 · Refinish 1.5 h");

  // A second active rule for the same pair is refused on the form.
  await page.getByRole("link", { name: "Add Pricing Rule" }).click();
  await dialog(page).getByLabel("Damage Type").selectOption("dent");
  await dialog(page).getByLabel("Severity").selectOption("major");
  await dialog(page).getByLabel("Base Price (USD)").fill("1");
  await dialog(page).getByLabel("Labor Rate (USD/hour)").fill("1");
  await dialog(page).getByRole("button", { name: "Create Pricing Rule" }).click();
  await expect(dialog(page).getByText("An active pricing rule for dent (major) already exists")).toBeVisible();
  await page.goto(page.url().replace(/[?&]dialog=new/, ""));

  await rule.getByRole("link", { name: "Edit Dent (major)" }).click();
  await expect(dialog(page).getByLabel("Make 1")).toHaveValue("BMW");
  await expect(dialog(page).getByLabel("Part Price (USD)")).toHaveValue("249.99");
  await expect(dialog(page).getByLabel("Refinish Hours")).toHaveValue("1.5");
  await dialog(page).getByLabel("Base Price (USD)").fill("275");
  // Cleared: no part price any more; a refinish rate and paint materials rate added.
  await dialog(page).getByLabel("Part Price (USD)").fill("");
  await dialog(page).getByLabel("Refinish Rate (USD/hour)").fill("60");
  await dialog(page).getByLabel("Paint Materials Rate (USD/refinish hour)").fill("35");
  await dialog(page).getByRole("button", { name: "Update Pricing Rule" }).click();
  await expectToast(page, "Success", "Pricing rule updated successfully");
  await expect(rule).toContainText("$275.00");
  await expect(rule.getByTestId("rule-line-defaults")).toHaveText("Refinish 1.5 h at $60.00/h · Paint materials $35.00/refinish h");
  const stored = await mongoose.connection.collection("pricingrules").findOne({ vendorId: vendor.user._id, damageType: "dent" });
  expect(stored).toMatchObject({ refinishHours: 1.5, refinishRate: 60, materialsRate: 35, partPrice: null });
  await rule.getByRole("link", { name: "Delete Dent (major)" }).click();
  await dialog(page).getByRole("button", { name: "Delete" }).click();
  await expectToast(page, "Success", "Pricing rule deleted successfully");
  await expect(page.getByRole("listitem", { name: "Dent (major)" })).toHaveCount(0);

  // Packages.
  await page.getByRole("tab", { name: "Packages" }).click();
  await page.getByRole("link", { name: "Add Package" }).click();
  await expect(dialog(page).getByLabel("AI Weight")).toHaveValue("1.00");
  await expect(dialog(page).getByLabel("Warranty (months)")).toHaveValue("0");
  await dialog(page).getByLabel(/^Name/).fill("Express dent repair");
  await dialog(page).getByLabel("Service Types").fill(" dent repair ,paint,, ");
  await dialog(page).getByLabel("Base Price (USD)").fill("199");
  await dialog(page).getByRole("button", { name: "Create Package" }).click();
  await expectToast(page, "Success", "Vendor package created successfully");
  const pkg = page.getByRole("listitem", { name: "Express dent repair" });
  await expect(pkg).toContainText("Services: dent repair, paint");
  await pkg.getByRole("link", { name: "Edit Express dent repair" }).click();
  await dialog(page).getByLabel("Turnaround (days)").fill("3");
  await dialog(page).getByRole("button", { name: "Update Package" }).click();
  await expectToast(page, "Success", "Vendor package updated successfully");
  await expect(pkg).toContainText("3 days");
  await pkg.getByRole("link", { name: "Delete Express dent repair" }).click();
  await dialog(page).getByRole("button", { name: "Delete" }).click();
  await expectToast(page, "Success", "Vendor package deleted successfully");
  await expect(page.getByRole("listitem", { name: "Express dent repair" })).toHaveCount(0);

  // Learning data: a pending record from an edited estimate, validated here.
  const now = new Date();
  await mongoose.connection.collection("learningrecords").insertOne({
    vendorId: vendor.user._id,
    damageType: "scratch",
    severity: "minor",
    originalEstimate: 200,
    finalCost: 260,
    adminAdjustment: 60,
    adjustmentReason: "Two panels",
    learningWeight: 1,
    isValidated: false,
    createdAt: now,
    updatedAt: now,
  });
  await page.getByRole("tab", { name: "Learning Data" }).click();
  const record = page.getByTestId("learning-record");
  await expect(record.getByTestId("learning-status")).toHaveText("Pending");
  await record.getByRole("button", { name: "Validate" }).click();
  await expectToast(page, "Success", "Learning data validated successfully");
  await expect(record.getByTestId("learning-status")).toHaveText("Validated");
  await expect(record.getByRole("button", { name: "Validate" })).toHaveCount(0);
});

test("a vendor works on its own pricing; a dealer reads active rules only", async ({ page, loginAs, createUser }) => {
  const other = await createUser("vendor");
  const me = await loginAs("vendor");
  await page.goto("/vendor-ai-training");
  await expect(page.getByLabel("Vendor", { exact: true })).toHaveCount(0);
  await expect(page.getByText(`${me.username} Body Works`)).toBeVisible();
  await page.getByRole("link", { name: "Add Pricing Rule" }).click();
  await dialog(page).getByLabel("Base Price (USD)").fill("90");
  await dialog(page).getByLabel("Labor Rate (USD/hour)").fill("70");
  await dialog(page).getByRole("button", { name: "Create Pricing Rule" }).click();
  await expectToast(page, "Success", "Pricing rule created successfully");
  await page.getByRole("link", { name: "Add Pricing Rule" }).click();
  await dialog(page).getByLabel("Severity").selectOption("severe");
  await dialog(page).getByLabel("Base Price (USD)").fill("900");
  await dialog(page).getByLabel("Labor Rate (USD/hour)").fill("70");
  await dialog(page).getByLabel("Active").uncheck({ force: true });
  await dialog(page).getByRole("button", { name: "Create Pricing Rule" }).click();
  await expectToast(page, "Success", "Pricing rule created successfully");
  await expect(page.getByTestId("pricing-rule")).toHaveCount(2);
  // Another vendor's id in the URL changes nothing: a vendor sees its own.
  await page.goto(`/vendor-ai-training?vendor=${other.id}`);
  await expect(page.getByTestId("pricing-rule")).toHaveCount(2);

  await page.context().clearCookies();
  await loginAs("dealer");
  await page.goto("/vendor-ai-training");
  await chooseVendor(page, new RegExp(me.username));
  await expect(page.getByTestId("pricing-rule")).toHaveCount(1);
  await expect(page.getByRole("listitem", { name: "Scratch (minor)" })).toContainText("$90.00");
  await expect(page.getByRole("link", { name: "Add Pricing Rule" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: /^Edit / })).toHaveCount(0);
  await expect(page.getByRole("tab", { name: "Packages" })).toHaveCount(0);
});

test("a vendor reaches its own pricing from its dashboard and from Settings; the sidebar stays the spec's", async ({ page, loginAs }) => {
  const vendor = await loginAs("vendor");
  await page.goto("/");
  // The spec's sidebar: no Vendor AI Training entry outside the admin's Neural Core.
  await expect(page.getByRole("navigation").getByRole("link", { name: "Vendor AI Training" })).toHaveCount(0);
  await page.getByTestId("vendor-pricing").getByRole("link", { name: "Update Rates" }).click();
  await expect(page).toHaveURL(/\/vendor-ai-training$/);
  await expect(page.getByRole("heading", { name: "Vendor AI Training Center", level: 1 })).toBeVisible();
  await expect(page.getByText(`${vendor.username} Body Works`).first()).toBeVisible();

  await page.goto("/settings?tab=profile");
  await page.getByTestId("own-pricing").getByRole("link", { name: "Open your pricing" }).click();
  await expect(page).toHaveURL(/\/vendor-ai-training$/);
  await expect(page.getByRole("heading", { name: "Vendor AI Training Center", level: 1 })).toBeVisible();
});
