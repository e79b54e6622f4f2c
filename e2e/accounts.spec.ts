import { expect, test } from "./fixtures";
import mongoose from "mongoose";
import type { Page } from "@playwright/test";

async function fillLogin(page: Page, username: string, password: string) {
  await page.getByLabel("Username").fill(username);
  await page.locator('input[name="password"]').fill(password);
}

async function logout(page: Page) {
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/login$/);
}

test("first admin set-up, users, dealer login, role preview, delete, logout", async ({ page, resetAdminSetup }) => {
  // A long walk: on a shared machine it ran at the 30 s default.
  test.setTimeout(60_000);
  const suffix = test.info().project.name.replace("-", "");
  const admin = { username: `boss${suffix}`, password: "admin-pass-1" };
  const dealer = { username: `dealer${suffix}`, password: "dealer-pass-1" };
  const vendor = { username: `vendor${suffix}`, password: "vend12" };
  await resetAdminSetup();

  // First admin set-up.
  await page.goto("/admin/setup");
  await page.getByLabel("Username").fill(admin.username);
  await page.locator('input[name="password"]').fill(admin.password);
  await page.getByLabel("Email").fill(`${admin.username}@example.com`);
  await page.getByLabel("First name").fill("Grace");
  await page.getByLabel("Last name").fill("Hopper");
  await page.getByRole("button", { name: "Create Admin Account" }).click();
  await expect(page.getByRole("heading", { name: "Admin Account Created" })).toBeVisible();
  await page.goto("/admin/setup");
  await expect(page.getByRole("heading", { name: "Admin Already Set Up" })).toBeVisible();

  // Admin login.
  await page.getByRole("link", { name: "Go to Admin Login" }).click();
  await fillLogin(page, admin.username, "wrong-password");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Invalid credentials" }).first()).toBeVisible();
  await fillLogin(page, admin.username, admin.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText("Neural Core")).toBeVisible();
  await expect(page.getByTestId("role-label")).toHaveText("Admin");

  // Create a dealer in Admin Settings (8-character rule).
  await page.getByRole("link", { name: "Admin Settings" }).click();
  await page.getByRole("tab", { name: "Users" }).click();
  const createForm = page.locator("form#create-user");
  await createForm.getByLabel("First name").fill("Dana");
  await createForm.getByLabel("Last name").fill("Dealer");
  await createForm.getByLabel("Username").fill(dealer.username);
  await createForm.locator('input[name="password"]').fill("short");
  await createForm.getByLabel("Email").fill(`${dealer.username}@example.com`);
  await createForm.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("Password must be at least 8 characters").first()).toBeVisible();
  await createForm.locator('input[name="password"]').fill(dealer.password);
  await createForm.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("User account created successfully").first()).toBeVisible();
  await expect(page.getByTestId(`user-row-${dealer.username}`)).toBeVisible();
  // Admin rows have no delete button in Admin Settings.
  await expect(page.getByTestId(`user-row-${admin.username}`).getByRole("link", { name: /Delete/ })).toHaveCount(0);

  // Create a vendor in User Management (6-character rule, role required).
  await page.getByRole("link", { name: "User Management" }).click();
  await page.getByRole("link", { name: "Create User" }).click();
  const dialog = page.locator("form#create-user");
  await dialog.getByLabel("First name").fill("Vic");
  await dialog.getByLabel("Last name").fill("Vendor");
  await dialog.getByLabel("Username").fill(vendor.username);
  await dialog.locator('input[name="password"]').fill(vendor.password);
  await dialog.getByLabel("Email").fill(`${vendor.username}@example.com`);
  await dialog.getByRole("button", { name: "Create User" }).click();
  await expect(page.getByText("Please select a role").first()).toBeVisible();
  await dialog.getByLabel("Role").selectOption("vendor");
  await dialog.getByRole("button", { name: "Create User" }).click();
  await expect(page.getByText("User created successfully").first()).toBeVisible();
  await expect(page.getByTestId(`user-row-${vendor.username}`)).toBeVisible();
  await logout(page);

  // The dealer signs in on the Dealer tab: no Neural Core, and admin calls are refused.
  await page.getByRole("tab", { name: "Dealer" }).click();
  await expect(page.getByRole("button", { name: "Sign in as Dealer" })).toBeVisible();
  await fillLogin(page, dealer.username, dealer.password);
  await page.getByRole("button", { name: "Sign in as Dealer" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("role-label")).toHaveText("Dealer Admin");
  await expect(page.getByText("Neural Core")).toHaveCount(0);
  expect((await page.request.get("/api/admin/users")).status()).toBe(403);
  await page.goto("/user-management");
  await expect(page.getByText("403")).toBeVisible();
  await page.goto("/");
  await logout(page);

  // The admin previews the vendor interface and resets (the login opened on the last tab used: Dealer).
  await page.getByRole("tab", { name: "Admin" }).click();
  await fillLogin(page, admin.username, admin.password);
  await page.getByRole("button", { name: "Sign in as Admin" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.getByTestId("role-preview").getByLabel("View as").selectOption("vendor");
  await page.getByRole("button", { name: "Switch View" }).click();
  await expect(page.getByTestId("preview-banner")).toContainText("Some admin features may be hidden");
  await expect(page.getByTestId("role-label")).toHaveText("Vendor");
  await expect(page.getByText("Neural Core")).toHaveCount(0);
  await page.getByTestId("preview-banner").getByRole("button", { name: "Reset to Admin" }).click();
  await expect(page.getByTestId("preview-banner")).toHaveCount(0);
  await expect(page.getByText("Neural Core")).toBeVisible();

  // Delete the dealer, with confirmation.
  await page.getByRole("link", { name: "User Management" }).click();
  await page.getByRole("link", { name: `Delete ${dealer.username}` }).click();
  await expect(
    page.getByText(`Are you sure you want to delete user "${dealer.username}"? This action cannot be undone.`),
  ).toBeVisible();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("User deleted successfully").first()).toBeVisible();
  await expect(page.getByTestId(`user-row-${dealer.username}`)).toHaveCount(0);

  await logout(page);
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
});

test("unknown paths show the not-found card inside the shell", async ({ page, loginAs }) => {
  await loginAs("dealer");
  await page.goto("/no-such-page");
  await expect(page.getByRole("heading", { name: "404 Page Not Found" })).toBeVisible();
  await expect(page.getByText("Did you forget to add the page to the router?")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main navigation" })).toBeVisible();
});

test("signed-out visitors get the login screen for any path", async ({ page }) => {
  await page.goto("/no-such-page");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fno-such-page$/);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
});

test("a slow screen shows the Loading... state while its data loads", async ({ page, loginAs }) => {
  test.skip(test.info().project.name === "no-js", "client-side navigation needs JavaScript");
  await loginAs("dealer");
  await page.goto("/", { waitUntil: "networkidle" });
  // Hydrated (entry.client's mark): on a loaded machine a click before it is a plain page load, with no loading state.
  await page.waitForFunction(() => performance.getEntriesByName("hydrated").length > 0);
  await page.route((url) => url.searchParams.has("_data"), async (route) => {
    await new Promise((r) => setTimeout(r, 800));
    await route.continue();
  });
  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Loading..." })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
  await expect(page.getByText("Loading...")).toHaveCount(0);
});

test("personal API tokens: create (shown once), use, revoke", async ({ page, loginAs, request }) => {
  await loginAs("dealer");
  await page.goto("/settings?tab=security");
  await page.getByLabel("Token name").fill("Kiosk");
  await page.getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByTestId("new-token").locator("pre, code").first().innerText()).trim();
  expect(token).toMatch(/^dq_/);
  const res = await request.get("/api/auth/user", { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(200);
  await page.goto("/settings?tab=security");
  await expect(page.getByTestId("new-token")).toHaveCount(0);
  await expect(page.getByRole("cell", { name: "Kiosk", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Revoke Kiosk" }).click();
  await expect(page.getByText("API token revoked").first()).toBeVisible();
  expect((await request.get("/api/auth/user", { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(401);
});

test("Admin Settings → Users → Delete asks first, and the users table fits a 1366 px laptop", async ({ page, loginAs, createUser }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await loginAs("admin");
  const dealer = await createUser("dealer", `departing.dealership.account.${test.info().project.name.replace("-", "")}${Date.now() % 100000}`);
  await page.goto("/admin-settings?tab=users");
  await expect(page.getByTestId(`user-row-${dealer.username}`)).toBeVisible();
  // The page never scrolls sideways; the table reaches its Delete column or scrolls in its own box.
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  const deleteLink = page.getByRole("link", { name: `Delete ${dealer.username}` });
  // Reachable without scrolling sideways: inside the page's width and not clipped by its table box.
  const box = await deleteLink.evaluate((el) => {
    const rect = el.getBoundingClientRect();
    const clip = el.closest(".m_a100c15")?.getBoundingClientRect();
    return { right: rect.right, limit: Math.min(window.innerWidth, clip?.right ?? Infinity) };
  });
  expect(box.right).toBeLessThanOrEqual(box.limit);
  await deleteLink.click();
  await expect(page).toHaveURL(/tab=users/);
  await expect(
    page.getByText(`Are you sure you want to delete user "${dealer.username}"? This action cannot be undone.`),
  ).toBeVisible();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("User account deleted successfully").first()).toBeVisible();
  await expect(page.getByTestId(`user-row-${dealer.username}`)).toHaveCount(0);
});

test("a form posted after the session ended: the spec's message, sign in, and back to the form with what was typed (no password kept)", async ({ page, loginAs }) => {
  const admin = await loginAs("admin");
  const username = `typed${test.info().project.name.replace("-", "")}${Date.now() % 100000}`;
  await page.goto("/admin-settings?tab=users");
  const form = page.locator("form#create-user");
  await form.getByLabel("First name").fill("Terry");
  await form.getByLabel("Last name").fill("Typed");
  await form.getByLabel("Username").fill(username);
  await form.locator('input[name="password"]').fill("secret-pass-1");
  await form.getByLabel("Email").fill(`${username}@example.com`);
  // The session ends while the form is open (its cookie expired with it).
  await page.context().clearCookies();
  await form.getByRole("button", { name: "Create Account" }).click();

  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fadmin-settings%3Ftab%3Dusers$/);
  await expect(page.getByText("You are logged out. Logging in again...").first()).toBeVisible();
  await expect(page.getByText("Unauthorized", { exact: true }).first()).toBeVisible();
  // Kept server-side, without the password.
  const kept = await mongoose.connection
    .collection("sessions")
    .find({ "data.resume.path": "/admin-settings?tab=users" })
    .toArray();
  const mine = kept.find((s) => s.data.resume.fields.username === username);
  expect(mine?.data.resume.fields).toEqual({ firstName: "Terry", lastName: "Typed", username, email: `${username}@example.com`, role: "dealer" });

  await page.getByLabel("Username").fill(admin.username);
  await page.locator('input[name="password"]').fill(admin.password);
  await page.getByRole("button", { name: "Sign in as Admin" }).click();
  await expect(page).toHaveURL(/\/admin-settings\?tab=users$/);
  // It says so: back in the form, not sent.
  await expect(page.getByText("Typed work restored").first()).toBeVisible();
  await expect(form.getByLabel("First name")).toHaveValue("Terry");
  await expect(form.getByLabel("Last name")).toHaveValue("Typed");
  await expect(form.getByLabel("Username")).toHaveValue(username);
  await expect(form.getByLabel("Email")).toHaveValue(`${username}@example.com`);
  await expect(form.locator('input[name="password"]')).toHaveValue("");
  await form.locator('input[name="password"]').fill("secret-pass-1");
  await form.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("User account created successfully").first()).toBeVisible();
  await expect(page.getByTestId(`user-row-${username}`)).toBeVisible();
  // Given back once: the next visit shows the empty form.
  await page.goto("/admin-settings?tab=users");
  await expect(form.getByLabel("First name")).toHaveValue("");
});

test("create-user resets after success; a wrong password keeps the username; the login reopens on the last tab", async ({ page, loginAs, createUser }) => {
  await loginAs("admin");
  const username = `fresh${test.info().project.name.replace("-", "")}${Date.now() % 100000}`;
  await page.goto("/admin-settings?tab=users");
  const form = page.locator("form#create-user");
  await form.getByLabel("First name").fill("Rita");
  await form.getByLabel("Last name").fill("Reset");
  await form.getByLabel("Username").fill(username);
  await form.locator('input[name="password"]').fill("reset-pass-1");
  await form.getByLabel("Email").fill(`${username}@example.com`);
  await form.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("User account created successfully").first()).toBeVisible();
  await expect(page.getByTestId(`user-row-${username}`)).toBeVisible();
  for (const label of ["First name", "Last name", "Username", "Email"]) await expect(form.getByLabel(label)).toHaveValue("");
  await expect(form.locator('input[name="password"]')).toHaveValue("");

  // Sign out, then a vendor signs in on the Vendor tab after a wrong password.
  await logout(page);
  const vendor = await createUser("vendor");
  await page.getByRole("tab", { name: "Vendor" }).click();
  await fillLogin(page, vendor.username, "not-the-password");
  await page.getByRole("button", { name: "Sign in as Vendor" }).click();
  await expect(page.getByText("Invalid credentials").first()).toBeVisible();
  await expect(page.getByLabel("Username")).toHaveValue(vendor.username);
  await expect(page.getByRole("button", { name: "Sign in as Vendor" })).toBeVisible();
  await page.locator('input[name="password"]').fill(vendor.password);
  await page.getByRole("button", { name: "Sign in as Vendor" }).click();
  await expect(page).toHaveURL(/\/$/);
  await logout(page);
  // The login opens on the tab last used.
  await expect(page.getByRole("tab", { name: "Vendor" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("button", { name: "Sign in as Vendor" })).toBeVisible();
});
