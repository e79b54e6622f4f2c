import type { Page } from "@playwright/test";
import mongoose from "mongoose";
import { photo } from "../tests/media-files";
import { startSmtpServer, type TestSmtpServer } from "../tests/smtp-server";
import { detailsToResult, seedPricingKnowledge, uploadPhotos } from "./assessment-walk";
import { expect, test } from "./fixtures";

// Issue 26's proof: a dealership's first hour, from an install without an admin, with JavaScript on
// and off, on a 1366 px laptop and a 360 px phone. The admin sets up, creates a dealer and a vendor;
// the dealer uploads, analyses in the wizard, gives the estimate its customer after creating it,
// sends it and edits it after sending (a supplement); the admin deletes a user. Every step asserts
// the spec's words and that the page does not scroll sideways, and keeps a screenshot under
// test-results/ for review.
//
// The pricing knowledge (the vendor's rule, verified training examples of the photos) is written
// straight into the database: the walk is about the first hour's screens, not the training center.

const noJs = () => test.info().project.name === "no-js";

/** A toast: a notification with JavaScript, the flash banner without. */
async function expectToast(page: Page, title: string, message: string) {
  const toast = page.getByRole(noJs() ? "status" : "alert").filter({ hasText: message }).first();
  await expect(toast).toBeVisible({ timeout: 15_000 });
  if (title) await expect(toast.getByText(title, { exact: true })).toBeVisible();
}

// The dealership's own mail server (Settings → Email): the estimate is really delivered.
let mail: TestSmtpServer;
test.beforeAll(async () => {
  mail = await startSmtpServer();
});
test.afterAll(() => mail?.close());

for (const width of [1366, 360]) {
  test(`a dealership's first hour at ${width} px`, async ({ page, resetAdminSetup }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width, height: width === 360 ? 740 : 900 });
    const suffix = `${test.info().project.name.replace("-", "")}${width}`;
    const admin = { username: `owner${suffix}`, password: "owner-pass-1" };
    const dealer = { username: `sales${suffix}`, password: "sales-pass-1" };
    const vendor = { username: `shop${suffix}`, password: "shop-pass-1", company: `Shop ${suffix} Body Works` };
    let shot = 0;
    /** The page does not scroll sideways; a screenshot of it is kept. */
    const step = async (name: string) => {
      await expect
        .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), {
          message: `${name} scrolls sideways at ${width} px`,
          timeout: 3000,
        })
        .toBeLessThanOrEqual(0);
      shot += 1;
      await page.screenshot({ path: test.info().outputPath(`${String(shot).padStart(2, "0")}-${name}.png`) });
    };
    const signIn = async (tab: "Admin" | "Dealer" | "Vendor", who: { username: string; password: string }) => {
      await page.goto("/login");
      await page.getByRole("tab", { name: tab }).click();
      await page.getByLabel("Username").fill(who.username);
      await page.locator('input[name="password"]').fill(who.password);
      await page.getByRole("button", { name: `Sign in as ${tab}` }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByText(`${tab} login successful! Redirecting to dashboard...`).first()).toBeVisible();
    };
    const logout = async () => {
      await page.goto("/");
      if (width === 360 && !noJs()) await page.getByRole("button", { name: "Toggle navigation" }).click();
      // A phone without JavaScript has the menu as a row of links above the screen.
      const menu = width === 360 && noJs() ? page.getByRole("navigation", { name: "Menu" }) : page.getByRole("navigation", { name: "Main navigation" }).locator("..");
      await menu.getByRole("button", { name: "Logout" }).first().click();
      await expect(page).toHaveURL(/\/login$/);
    };

    // 1. The first admin.
    await resetAdminSetup();
    await page.goto("/admin/setup");
    await page.getByLabel("Username").fill(admin.username);
    await page.locator('input[name="password"]').fill(admin.password);
    await page.getByLabel("Email").fill(`${admin.username}@example.com`);
    await page.getByLabel("First name").fill("Olive");
    await page.getByLabel("Last name").fill("Owner");
    await page.getByRole("button", { name: "Create Admin Account" }).click();
    await expect(page.getByRole("heading", { name: "Admin Account Created" })).toBeVisible();
    await step("admin-created");
    await page.goto("/admin/login");
    await page.getByLabel("Username").fill(admin.username);
    await page.locator('input[name="password"]').fill(admin.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText("Login successful! Redirecting to dashboard...").first()).toBeVisible();
    await step("admin-dashboard");

    // 2. A dealer in Admin Settings (the form starts again empty), a vendor in User Management.
    await page.goto("/admin-settings?tab=users");
    const createForm = page.locator("form#create-user");
    await createForm.getByLabel("First name").fill("Sam");
    await createForm.getByLabel("Last name").fill("Sales");
    await createForm.getByLabel("Username").fill(dealer.username);
    await createForm.locator('input[name="password"]').fill(dealer.password);
    await createForm.getByLabel("Email").fill(`${dealer.username}@example.com`);
    await createForm.getByRole("button", { name: "Create Account" }).click();
    await expectToast(page, "", "User account created successfully");
    await expect(page.getByTestId(`user-row-${dealer.username}`)).toBeVisible();
    await expect(createForm.getByLabel("Username")).toHaveValue("");
    await step("dealer-created");
    await page.goto("/user-management?dialog=new");
    const dialog = page.locator("form#create-user");
    await dialog.getByLabel("First name").fill("Val");
    await dialog.getByLabel("Last name").fill("Vendor");
    await dialog.getByLabel("Username").fill(vendor.username);
    await dialog.locator('input[name="password"]').fill(vendor.password);
    await dialog.getByLabel("Email").fill(`${vendor.username}@example.com`);
    await dialog.getByLabel("Role").selectOption("vendor");
    await dialog.getByLabel("Company name").fill(vendor.company);
    await dialog.getByRole("button", { name: "Create User" }).click();
    await expectToast(page, "", "User created successfully");
    await expect(page.getByTestId(`user-row-${vendor.username}`)).toBeVisible();
    await step("vendor-created");
    await logout();

    // 3. The vendor gives its address in Settings → Profile.
    await signIn("Vendor", vendor);
    await page.goto("/settings?tab=profile");
    await page.getByLabel("Address").fill("12 Main St, Springfield");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expectToast(page, "Profile Updated", "");
    await step("vendor-profile");
    await logout();
    const vendorId = String((await mongoose.connection.collection("users").findOne({ username: vendor.username }))!._id);
    const photos = [await photo(200, 150, 2), await photo(200, 150, 3)];
    await seedPricingKnowledge(vendorId, photos);

    // 4. The dealer uploads and analyses in the wizard.
    await signIn("Dealer", dealer);
    await step("dealer-dashboard");
    await uploadPhotos(page, "", [
      { name: "bumper.png", mimeType: "image/png", buffer: photos[0] },
      { name: "wing.png", mimeType: "image/png", buffer: photos[1] },
    ]);
    await step("uploaded");
    const title = `Front bumper ${suffix}`;
    await detailsToResult(page, { title, vendorLabel: vendor.company });
    if (!noJs()) await expect(page.getByText("Analysis Complete").first()).toBeVisible();
    await step("analysed");
    const id = /assessment=([0-9a-f]{24})/.exec(page.url())![1];

    // 5. The customer, after creation: Edit Estimate's Customer.
    const contact = await page.request.post("/api/contacts", { data: { firstName: "Carla", lastName: "Customer", email: "carla@example.com" } });
    expect(contact.status()).toBe(201);
    await page.goto(`/estimates?view=${id}`);
    const estimate = page.getByRole("dialog");
    await expect(estimate.getByRole("button", { name: "Email" })).toBeDisabled();
    await step("no-customer");
    await page.goto(`/estimates?edit=${id}`);
    await estimate.getByLabel("Customer").selectOption({ label: "Carla Customer" });
    await estimate.getByRole("button", { name: "Save Estimate" }).click();
    await expectToast(page, "Estimate Updated", `“${title}” has been updated.`);
    await step("customer-attached");

    // 6. Send it through the dealership's mail server, then edit it after sending: a supplement.
    const saved = await page.request.put("/api/email/settings", { data: { host: mail.host, port: mail.port } });
    expect(saved.status()).toBe(200);
    await page.goto(`/estimates?view=${id}`);
    await estimate.getByRole("button", { name: "Email" }).click();
    await expect(page.getByTestId("send-recipient")).toHaveText("Carla Customer <carla@example.com>");
    await page.getByTestId("send-confirm").getByRole("button", { name: "Send Email" }).click();
    await expectToast(page, "Email Sent", "Estimate has been sent successfully.");
    await step("sent");
    await expect.poll(() => mail.received.filter((m) => m.envelope.to.includes("carla@example.com")).length, { timeout: 20_000 }).toBeGreaterThan(0);
    await expect
      .poll(async () => (await (await page.request.get(`/api/assessments/${id}`)).json()).status, { timeout: 20_000 })
      .toBe("sent");
    await page.goto(`/estimates?edit=${id}`);
    await estimate.getByTestId("sheet-line-row").first().getByLabel("Sublet / other (USD)").fill("999");
    await estimate.getByLabel("Reason for the change").fill("Hidden damage behind the bumper");
    await estimate.getByRole("button", { name: "Create Supplement" }).click();
    await expectToast(page, "Supplement Created", `“${title}” was sent already: your changes are version 2.`);
    await step("supplement");
    await logout();

    // 7. The admin deletes a user, after the confirmation.
    await signIn("Admin", admin);
    await page.goto("/admin-settings?tab=users");
    await page.getByRole("link", { name: `Delete ${vendor.username}` }).click();
    await expect(page.getByText(`Are you sure you want to delete user "${vendor.username}"? This action cannot be undone.`)).toBeVisible();
    await step("delete-confirmation");
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await expectToast(page, "", "User account deleted successfully");
    await expect(page.getByTestId(`user-row-${vendor.username}`)).toHaveCount(0);
    await step("user-deleted");
  });
}
