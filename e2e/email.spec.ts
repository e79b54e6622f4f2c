import type { Page } from "@playwright/test";
import mongoose from "mongoose";
import { expect, test } from "./fixtures";
import { insertAssessment } from "./seed";

// The Email Center with JavaScript on and off: create a template (its preview follows the typing
// with JavaScript, the Preview button posts it without), send an estimate from the Estimates desk
// and from Compose, watch its log turn sent (the e2e app has no mail server: the local mail drop),
// and change the mail server settings (the password is never shown again; Test Connection).

const noJs = () => test.info().project.name === "no-js";
const dialog = (page: Page) => page.getByRole("dialog");
const stat = (page: Page, label: string) => page.getByRole("group", { name: label }).getByTestId("stat-value");

async function expectToast(page: Page, title: string, message: string) {
  const toast = page.getByRole(noJs() ? "status" : "alert").filter({ hasText: message }).first();
  await expect(toast).toBeVisible();
  await expect(toast.getByText(title, { exact: true })).toBeVisible();
}

/** A reviewed estimate of the dealer with its contact, straight into the database. */
async function seed(ownerId: string) {
  const owner = new mongoose.Types.ObjectId(ownerId);
  const now = new Date();
  const contact = await mongoose.connection
    .collection("contacts")
    .insertOne({ ownerId: owner, firstName: "Jane", lastName: "Doe", email: "jane.doe@example.com", createdAt: now, updatedAt: now });
  const assessmentId = await insertAssessment({
    ownerId: owner,
    title: "Silver Camry",
    vehicleYear: 2019,
    vehicleMake: "Toyota",
    vehicleModel: "Camry",
    contactId: contact.insertedId,
    status: "reviewed",
    estimatedCost: 425.5,
  });
  return { assessmentId, contactId: String(contact.insertedId) };
}

/** Reloads the Logs tab until the first log reads `status` (the worker delivers in the background). */
async function expectLogStatus(page: Page, status: string) {
  await expect(async () => {
    await page.goto("/email?tab=logs");
    await expect(page.getByTestId("log-status").first()).toHaveText(status, { timeout: 500 });
  }).toPass({ timeout: 15_000 });
}

test("create a template with its preview, send an estimate, see the log turn sent", async ({ page, loginAs }) => {
  const user = await loginAs("dealer");
  const { assessmentId } = await seed(user.id);

  await page.goto("/email");
  await expect(page.getByRole("heading", { name: "Email Center", level: 1 })).toBeVisible();
  await expect(page.getByTestId("connection-status")).toHaveText("Disconnected");
  await expect(page.getByTestId("connection-reason")).toContainText("local mail drop");
  await expect(page.getByRole("tab", { name: "Templates (0)" })).toBeVisible();
  await expect(stat(page, "Success Rate")).toHaveText("0%");

  // New Template: the spec's messages, then a template whose preview fills the variables.
  await page.getByRole("link", { name: "New Template" }).first().click();
  await expect(dialog(page).getByText("New Template")).toBeVisible();
  await dialog(page).getByRole("button", { name: "Create Template" }).click();
  await expect(dialog(page).getByText("Template name is required")).toBeVisible();
  await expect(dialog(page).getByText("Subject is required")).toBeVisible();
  await expect(dialog(page).getByText("Content is required")).toBeVisible();

  await dialog(page).getByLabel("Template Name").fill("Estimate ready");
  await dialog(page).getByLabel("Subject").fill("Estimate for {{contact.firstName}}");
  await dialog(page).getByLabel("Content").fill("<p>Dear {{contact.firstName}} {{contact.lastName}}, your {{assessment.vehicle}}: {{assessment.estimatedCost}} {{contact.phone}}</p>");
  await dialog(page).getByLabel("Default template").check();
  if (noJs()) await dialog(page).getByRole("button", { name: "Preview" }).click();
  await expect(dialog(page).getByTestId("preview-subject")).toHaveText("Estimate for Jane");
  const frame = dialog(page).frameLocator("iframe");
  await expect(frame.locator("p")).toHaveText("Dear Jane Doe, your 2021 Toyota Camry: $1,250.00");
  await expect(dialog(page).getByTestId("preview-warnings")).toContainText("{{contact.phone}}");
  await dialog(page).getByRole("button", { name: "Create Template" }).click();
  await expectToast(page, "Template Created", "“Estimate ready” has been created.");
  const card = page.getByRole("listitem", { name: "Estimate ready" });
  await expect(card.getByTestId("default-badge")).toBeVisible();
  // The card shows the text of the template, not its HTML.
  await expect(card.getByTestId("template-content")).toContainText("Dear {{contact.firstName}}");
  await expect(card.getByTestId("template-content")).not.toContainText("<p>");
  await expect(stat(page, "Default Templates")).toHaveText("1");

  // Send from the Estimates desk: the account's default template, to the assessment's contact. No
  // mail server: the message is saved to the local drop, and nothing claims it was sent.
  await page.goto(`/estimates?view=${assessmentId}`);
  await dialog(page).getByRole("button", { name: "Email", exact: true }).click();
  await page.getByTestId("send-confirm").getByRole("button", { name: "Send Email" }).click();
  await expectToast(page, "Email Saved, Not Sent", "the estimate was saved to the local mail drop in the app's storage (outbox/) instead of being sent");
  await expectLogStatus(page, "saved (local drop, not sent)");
  const log = page.getByRole("listitem", { name: "Estimate for Jane" });
  await expect(log).toContainText("To jane.doe@example.com");
  await expect(log).toContainText("Assessment: Silver Camry");
  await expect(log).toContainText("Saved on the server (local mail drop): not delivered.");

  // The log's view: the rendered message and the attempt.
  await log.getByRole("link", { name: "View Estimate for Jane" }).click();
  await expect(dialog(page).frameLocator("iframe").locator("p").first()).toHaveText("Dear Jane Doe, your 2019 Toyota Camry: $425.50");
  await expect(dialog(page).getByRole("table", { name: "Delivery attempts" })).toContainText("accepted");

  // The estimate did not leave: it is not "sent".
  await page.goto(`/estimates?view=${assessmentId}`);
  await expect(dialog(page).getByTestId("status-badge").first()).toHaveText(/reviewed/i);

  // Compose: assessment and contact required, then a send with an additional message.
  await page.goto("/email?dialog=compose");
  await dialog(page).getByRole("button", { name: "Send Email" }).click();
  await expect(dialog(page).getByText("Assessment is required")).toBeVisible();
  await expect(dialog(page).getByText("Contact is required")).toBeVisible();
  await dialog(page).getByLabel("Assessment").selectOption({ label: "Silver Camry" });
  await dialog(page).getByLabel("Contact").selectOption({ label: "Jane Doe <jane.doe@example.com>" });
  await dialog(page).getByLabel("Additional Message").fill("We can start on Monday.");
  await dialog(page).getByRole("button", { name: "Send Email" }).click();
  await expect(dialog(page).frameLocator("iframe").getByText("We can start on Monday.")).toBeVisible();
  await dialog(page).getByTestId("send-confirm").getByRole("button", { name: "Send Email" }).click();
  await expectToast(page, "Email Saved, Not Sent", "No mail server is configured");
  await expectLogStatus(page, "saved (local drop, not sent)");
  await expect(page.getByRole("tab", { name: "Email Logs (2)" })).toBeVisible();
  // An automatic notice (a sign-in notice the mail server accepted) is no estimate email.
  const now = new Date();
  await mongoose.connection.collection("emaillogs").insertOne({
    ownerId: new mongoose.Types.ObjectId(user.id),
    kind: "notification",
    idempotencyKey: `login-${now.getTime()}`,
    recipientEmail: "dealer@example.com",
    subject: "New sign-in to your DamageIQ account",
    html: "<p>A sign-in</p>",
    text: "A sign-in",
    status: "sent",
    messageId: `<notice-${now.getTime()}@example.com>`,
    attempts: [],
    inFlight: false,
    localDrop: false,
    attachEstimate: false,
    sentAt: now,
    createdAt: now,
    updatedAt: now,
  });
  await page.goto("/email?tab=logs");
  const notice = page.getByRole("listitem", { name: "New sign-in to your DamageIQ account" });
  await expect(notice).toContainText("Automatic notice");
  await expect(notice).not.toContainText("Assessment: N/A");
  // Only estimate emails a mail server accepted count: none here.
  await page.goto("/email");
  await expect(stat(page, "Emails Sent Today")).toHaveText("0");
  await expect(stat(page, "Success Rate")).toHaveText("0%");
  // Settings → System agrees with the Email Center's Disconnected.
  await page.goto("/settings?tab=system");
  await expect(page.getByTestId("status-list").getByRole("row").filter({ hasText: "Email Service" })).toContainText("Not configured");
});

test("change the mail server settings; the password is kept but never shown; Test Connection", async ({ page, loginAs }) => {
  await loginAs("dealer");
  await page.goto("/settings?tab=email");
  await expect(page.getByRole("tab", { name: "Email" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByLabel("Port", { exact: true })).toHaveValue("587");
  await expect(page.getByLabel("Use TLS from the start (secure, usually port 465)")).not.toBeChecked();

  await page.getByLabel("SMTP Host").fill("127.0.0.1");
  // Port 9 (discard): nothing listens there, so the test fails fast.
  await page.getByLabel("Port", { exact: true }).fill("9");
  await page.getByLabel("Username").fill("shop");
  await page.getByLabel("Password", { exact: true }).fill("s3cret-pass");
  await page.getByLabel("From Address").fill("estimates@example.com");
  await page.getByRole("button", { name: "Save Settings" }).click();
  await expectToast(page, "Settings Saved", "Mail server settings have been saved.");
  await expect(page.getByLabel("SMTP Host")).toHaveValue("127.0.0.1");
  await expect(page.getByLabel("Port", { exact: true })).toHaveValue("9");
  await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");
  await expect(page.getByText("A password is set. Leave blank to keep it.")).toBeVisible();
  expect(await page.content()).not.toContain("s3cret-pass");

  await page.getByRole("button", { name: "Test Connection" }).click();
  await expectToast(page, "Connection Failed", "Email connection failed. Please check your settings.");

  // The Email Center's indicator follows the account's server.
  await page.goto("/email");
  await expect(page.getByTestId("connection-status")).toHaveText("Disconnected");
  await expect(page.getByTestId("connection-reason")).toContainText("127.0.0.1:9");

  // Notifications: the switches are stored.
  await page.goto("/settings?tab=notifications");
  await expect(page.getByLabel("Delivery status")).toBeChecked();
  await expect(page.getByLabel("Desktop notifications")).not.toBeChecked();
  await page.getByLabel("Delivery status").uncheck({ force: true });
  await page.getByLabel("Sound").check({ force: true });
  await page.getByRole("button", { name: "Save Notifications" }).click();
  await expectToast(page, "Settings Saved", "Notification settings have been saved.");
  await expect(page.getByLabel("Delivery status")).not.toBeChecked();
  await expect(page.getByLabel("Sound")).toBeChecked();
  await expect(page.getByLabel("Assessment completed")).toBeChecked();
});

test("at 1366 px long titles wrap whole on template, estimate and package cards; template cards show text, not HTML", async ({ page, loginAs }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  const dealer = await loginAs("dealer");
  const long = "Spring hail season follow-up for fleet customers with windshield and roof damage";
  const template = await page.request.post("/api/email-templates", {
    data: { name: long, subject: `${long} — your estimate`, htmlContent: "<style>p{color:red}</style><h1>Hello {{contact.firstName}}</h1><p>Your estimate &amp; photos are ready.</p>" },
  });
  expect(template.status()).toBe(201);
  expect((await page.request.post("/api/packages", { data: { name: `${long} package`, price: 299, features: [] } })).status()).toBe(201);
  await insertAssessment({ ownerId: dealer.id, title: `${long} estimate`, status: "uploaded" });
  const whole = async (selector: string) => {
    const cut = await page.locator(selector).evaluateAll((els) => els.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent));
    expect(cut, `${selector} cut off`).toEqual([]);
  };
  await page.goto("/email");
  const card = page.getByRole("listitem", { name: long });
  await expect(card.getByText(long, { exact: true })).toBeVisible();
  await whole('[data-testid="template-card"] p');
  await expect(card.getByTestId("template-content")).toHaveText("Hello {{contact.firstName}} Your estimate & photos are ready.");
  await page.goto("/estimates");
  await expect(page.getByText(`${long} estimate`)).toBeVisible();
  await whole('[data-testid="estimate-card"] p, [data-testid="estimate-card"] a');
  await page.goto("/packages");
  await expect(page.getByText(`${long} package`)).toBeVisible();
  await whole('[data-testid="package-card"] p');
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
});
