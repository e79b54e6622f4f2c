import type { Page } from "@playwright/test";
import mongoose from "mongoose";
import { generate } from "otplib";
import { expect, signInPage, test } from "./fixtures";

// Runs twice: JavaScript on and off. Every tab is a server form; toasts are notifications with
// JavaScript and an inline banner without.

const noJs = () => test.info().project.name === "no-js";

async function expectToast(page: Page, title: string, message?: string) {
  const toast = page.getByRole(noJs() ? "status" : "alert").filter({ hasText: message ?? title });
  await expect(toast.first()).toBeVisible();
  await expect(toast.first().getByText(title, { exact: true })).toBeVisible();
}

test("update the profile", async ({ page, loginAs }) => {
  const user = await loginAs("dealer");
  await page.goto("/settings");
  await expect(page.getByRole("tab", { name: "Profile" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("profile-role")).toHaveText("Dealer Admin");
  await page.getByLabel("First name").fill("Rosa");
  await page.getByLabel("Last name").fill("Parks");
  await page.getByLabel("Email").fill("rosa@example.com");
  await page.getByLabel("Company").fill("Parks Motors");
  // A new email asks for the current password.
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Current password is required")).toBeVisible();
  await page.getByLabel("Current password").fill(user.password);
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expectToast(page, "Profile Updated", "Your profile has been updated.");
  await expect(page.getByTestId("profile-name")).toHaveText("Rosa Parks");
  await expect(page.getByLabel("Company")).toHaveValue("Parks Motors");

  // The spec's rules, shown beside the fields.
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Invalid email address")).toBeVisible();
});

test("change the session timeout and the theme: the next page renders dark on the server", async ({ page, loginAs }) => {
  await loginAs("dealer");
  await page.goto("/settings?tab=security");
  await page.getByLabel("Session timeout").selectOption("1h");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expectToast(page, "Settings Saved");
  await expect(page.getByLabel("Session timeout")).toHaveValue("1h");
  const session = (await page.context().cookies()).find((c) => c.name === "__session");
  expect(Math.abs(session!.expires * 1000 - (Date.now() + 3600e3))).toBeLessThan(60_000);

  await page.goto("/settings?tab=system");
  await page.getByLabel("Theme").selectOption("dark");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expectToast(page, "Settings Saved");
  // The server's HTML already says dark (no flash, JavaScript or not).
  const html = await (await page.request.get("/contacts")).text();
  expect(html).toMatch(/<html[^>]*data-mantine-color-scheme="dark"/);
  await page.goto("/contacts");
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
});

test("switch the language and see the shell translated", async ({ page, loginAs }) => {
  await loginAs("dealer");
  await page.goto("/settings?tab=system");
  await page.getByLabel("Language").selectOption("es");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expectToast(page, "Configuración guardada");
  await page.goto("/contacts");
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  const nav = page.getByRole("navigation", { name: "Navegación principal" });
  await expect(nav.getByRole("link", { name: "Configuración" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Contactos" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Cerrar sesión" }).first()).toBeAttached();
  await page.goto("/settings?tab=system");
  await page.getByLabel("Idioma").selectOption("fr");
  await page.getByRole("button", { name: "Guardar", exact: true }).click();
  await expect(page.getByRole("tab", { name: "Système" })).toBeVisible();
});

test("change the password: the spec's rules, then the old one no longer signs in", async ({ page, createUser }) => {
  const user = await createUser("vendor");
  await signInPage(page, user.username, user.password);
  await page.goto("/settings?tab=security");
  const section = page.getByTestId("change-password");
  await expect(section.getByRole("heading", { name: "Change Password" })).toBeVisible();
  await section.getByLabel("Current password").fill(user.password);
  await section.getByLabel(/^New password/).fill("short");
  await section.getByLabel("Confirm new password").fill("other");
  await section.getByRole("button", { name: "Change Password" }).click();
  await expect(section.getByText("Password must be at least 8 characters")).toBeVisible();
  await section.getByLabel(/^New password/).fill("a-new-password-1");
  await section.getByLabel("Confirm new password").fill("a-new-password-2");
  await section.getByRole("button", { name: "Change Password" }).click();
  await expect(section.getByText("Passwords don't match")).toBeVisible();
  await section.getByLabel("Current password").fill("not-my-password");
  await section.getByLabel(/^New password/).fill("a-new-password-1");
  await section.getByLabel("Confirm new password").fill("a-new-password-1");
  await section.getByRole("button", { name: "Change Password" }).click();
  await expect(section.getByText("Current password is incorrect")).toBeVisible();

  await section.getByLabel("Current password").fill(user.password);
  await section.getByLabel(/^New password/).fill("a-new-password-1");
  await section.getByLabel("Confirm new password").fill("a-new-password-1");
  await section.getByRole("button", { name: "Change Password" }).click();
  await expectToast(page, "Password Changed", "Your password has been changed. Your other sessions were signed out.");
  // Still signed in here (a fresh session); the old password is refused, the new one works.
  await page.goto("/settings?tab=security");
  await expect(page.getByTestId("change-password")).toBeVisible();
  expect((await page.request.post("/api/admin/login", { data: { username: user.username, password: user.password } })).status()).toBe(401);
  expect((await page.request.post("/api/admin/login", { data: { username: user.username, password: "a-new-password-1" } })).status()).toBe(200);
});

test("enable two-factor and sign in with a code", async ({ page, createUser }) => {
  const user = await createUser("dealer");
  await signInPage(page, user.username, user.password);
  await page.goto("/settings?tab=security");
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  await expect(page.getByTestId("totp-qr").locator("svg")).toBeVisible();
  const secret = (await page.getByTestId("totp-key").innerText()).replace(/\s/g, "");
  // Confirm with the previous time step's code (accepted: one step of drift), so the current one is
  // still unused for the sign-in below.
  await page.getByLabel("Verification code").fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) - 30 }));
  // Turning it on asks for the current password too.
  const twoFactor = page.getByTestId("two-factor");
  await twoFactor.getByLabel("Current password").fill("not-my-password");
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByText("Current password is incorrect").first()).toBeVisible();
  await page.getByLabel("Verification code").fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) - 30 }));
  await twoFactor.getByLabel("Current password").fill(user.password);
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByTestId("recovery-codes").locator("code")).toHaveCount(10);
  await page.goto("/settings?tab=security");
  await expect(page.getByTestId("two-factor-status")).toHaveText("On");

  await page.context().clearCookies();
  await page.goto("/login?tab=dealer");
  await page.getByLabel("Username").fill(user.username);
  await page.getByRole("textbox", { name: "Password", exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Sign in as Dealer" }).click();
  await page.getByLabel("Verification code").fill("000000");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText("Invalid verification code").first()).toBeVisible();
  await page.getByLabel("Verification code").fill(await generate({ secret }));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("role-label")).toHaveText("Dealer Admin");
});

test("export the data, then import it into another account after a dry run", async ({ page, createUser }, testInfo) => {
  const a = await createUser("dealer");
  await signInPage(page, a.username, a.password);
  const created = await page.request.post("/api/contacts", { data: { firstName: "Exported", lastName: "Contact", email: "exp@example.com" } });
  expect(created.status()).toBe(201);
  await page.goto("/settings?tab=system");
  const download = page.waitForEvent("download");
  await page.getByTestId("export-data").click();
  const file = testInfo.outputPath("export.tar.gz");
  await (await download).saveAs(file);

  const b = await createUser("dealer");
  await page.context().clearCookies();
  await signInPage(page, b.username, b.password);
  await page.goto("/settings?tab=system");
  await page.getByLabel("Import Data").setInputFiles(file);
  await page.getByRole("button", { name: "Upload and check" }).click();
  const report = page.getByTestId("import-report");
  await expect(report).toContainText("Dry run");
  await expect(page.getByTestId("import-row-contacts")).toContainText("1");
  await page.getByRole("button", { name: "Confirm import" }).click();
  await expectToast(page, "Data Imported");
  await page.goto("/contacts");
  await expect(page.getByText("Exported Contact").first()).toBeVisible();
});

test("at 1366 px each status badge shows its whole word, not an ellipsis", async ({ page, loginAs }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await loginAs("admin");
  await page.goto("/settings?tab=system");
  const labels = page.getByTestId("status-list").locator(".mantine-Badge-label");
  await expect(labels.first()).toBeVisible();
  // A label cut to "OPERATIO…" is narrower than its text.
  const cut = await labels.evaluateAll((els) => els.filter((el) => el.scrollWidth > el.getBoundingClientRect().width + 1).map((el) => el.textContent));
  expect(cut).toEqual([]);
});

test("the admin sees the installation's backups in Settings → System, on a phone too (decision 0066)", async ({ page, loginAs }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await loginAs("admin");
  await page.goto("/settings?tab=system");
  const row = page.getByTestId("status-list").getByRole("row").filter({ hasText: "Backups" });
  // The suite's app keeps its data in a MongoDB-speaking server (MONGODB_URI): the row says how that is backed up.
  await expect(row).toContainText("back it up with MongoDB's tools and the objects with S3 versioning");
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
});

test("an interrupted import shows in Settings → System, and Resume finishes it (decision 0059)", async ({ page, createUser }) => {
  const a = await createUser("dealer");
  await signInPage(page, a.username, a.password);
  const created = await page.request.post("/api/contacts", { data: { firstName: "Resumed", lastName: "Contact", email: "resumed@example.com" } });
  expect(created.status()).toBe(201);
  const archive = await page.request.get("/api/account/export");
  expect(archive.status()).toBe(200);
  const body = await archive.body();

  const b = await createUser("dealer");
  await page.context().clearCookies();
  await signInPage(page, b.username, b.password);
  await page.goto("/settings?tab=system");
  await page.getByLabel("Import Data").setInputFiles({ name: "export.tar.gz", mimeType: "application/gzip", buffer: body });
  await page.getByRole("button", { name: "Upload and check" }).click();
  await expect(page.getByTestId("import-report")).toContainText("Dry run");
  const token = new URL(page.url()).searchParams.get("import");
  expect(token).toMatch(/^[a-f0-9]{24}$/);
  // The import's process died before storing anything: its record says running, its lease ran out.
  await mongoose.connection.collection("imports").insertOne({
    ownerId: new mongoose.Types.ObjectId(b.id),
    token,
    status: "running",
    holder: "a-dead-process",
    leaseUntil: new Date(0),
    records: 1,
    applied: 0,
    attempts: 1,
    report: null,
    finishedAt: null,
    createdAt: new Date(),
    updatedAt: new Date(),
  });

  await page.goto("/settings?tab=system");
  const notice = page.getByTestId("import-interrupted");
  await expect(notice).toContainText("Import interrupted");
  await notice.getByRole("button", { name: "Resume import" }).click();
  await expectToast(page, "Data Imported");
  await expect(page.getByTestId("import-interrupted")).toHaveCount(0);
  await page.goto("/contacts");
  await expect(page.getByText("Resumed Contact").first()).toBeVisible();
});

test("Discard removes an interrupted import and what it stored, and keeps what was there (JS on and off)", async ({ page, createUser }) => {
  const user = await createUser("dealer");
  await signInPage(page, user.username, user.password);
  expect((await page.request.post("/api/contacts", { data: { firstName: "Kept", lastName: "Before", email: "kept@example.com" } })).status()).toBe(201);
  const { ObjectId } = mongoose.Types;
  const db = mongoose.connection;
  const ownerId = new ObjectId(user.id);
  // An import that stored one contact (its key written first, as the import does) and then lost its process.
  const { insertedId: runId } = await db.collection("imports").insertOne({
    ownerId, token: `gone-${user.id}`, status: "running", holder: "a-dead-process", leaseUntil: new Date(0),
    records: 2, applied: 1, attempts: 1, report: null, finishedAt: null, createdAt: new Date(), updatedAt: new Date(),
  });
  const { insertedId: contactId } = await db.collection("contacts").insertOne({ ownerId, firstName: "Half", lastName: "Imported", email: "half@example.com", createdAt: new Date(), updatedAt: new Date() });
  await db.collection("importkeys").insertOne({ ownerId, collectionName: "contacts", sourceId: new ObjectId().toHexString(), targetId: contactId, runId: String(runId), createdAt: new Date(), updatedAt: new Date() });

  await page.goto("/settings?tab=system");
  const notice = page.getByTestId("import-interrupted");
  await notice.getByRole("button", { name: "Discard import" }).click();
  await expectToast(page, "Import Discarded");
  await expect(page.getByTestId("import-interrupted")).toHaveCount(0);
  expect(await db.collection("contacts").countDocuments({ ownerId })).toBe(1);
  expect(await db.collection("imports").findOne({ _id: runId })).toMatchObject({ status: "discarded", discardedBy: ownerId });
  await page.goto("/contacts");
  await expect(page.getByText("Kept Before").first()).toBeVisible();
  await expect(page.getByText("Half Imported")).toHaveCount(0);
});
