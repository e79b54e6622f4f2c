import { expect, test } from "./fixtures";

// Issue 44: a dealership is a team. On a phone (projects `phone` and `phone-no-js`: 360 px, touch),
// the owner invites an estimator from Settings → Team; the estimator opens the link, chooses a
// username and password on a page without JavaScript, signs in and sees themself named, without the
// owner's Team tab.

test("an invite accepted on a 360 px phone, then the member signed in as themself", async ({ page, loginAs }, testInfo) => {
  await loginAs("dealer");
  // Usernames are unique across the installation: one per project (they share a database).
  const username = `maria.${testInfo.project.name}`;
  const password = "maria's long password";
  await page.goto("/settings?tab=team");
  expect(page.viewportSize()?.width).toBe(360);
  await page.getByLabel("Email").fill(`${username}@example.com`);
  await page.getByLabel("Role").selectOption("estimator");
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  const invited = page.getByText(/Invite link \(also sent by email\)/);
  await expect(invited).toBeVisible();
  const url = /https?:\/\/\S+\/invite\/[A-Za-z0-9_-]{43}/.exec((await invited.textContent()) ?? "")?.[0];
  expect(url).toBeTruthy();
  await expect(page.locator(`[data-member="${username}@example.com"]`)).toContainText("invited");
  await page.screenshot({ path: testInfo.outputPath("owner-team-360.png"), fullPage: true });

  // The invitee, signed out, on the same phone.
  await page.context().clearCookies();
  await page.goto(new URL(url!).pathname);
  await expect(page.getByRole("heading", { name: "Join your team" })).toBeVisible();
  // The page is a plain form: no script at all, with JavaScript on or off.
  expect(await page.locator("script[src]").count()).toBe(0);
  await page.screenshot({ path: testInfo.outputPath("invite-360.png"), fullPage: true });
  const passwordBox = page.getByRole("textbox", { name: "Password", exact: true });
  await page.getByLabel("First name").fill("Maria");
  await page.getByLabel("Last name").fill("Lopez");
  await page.getByLabel("Username").fill(username);
  await passwordBox.fill(password);
  await page.getByLabel("Confirm password").fill("another password");
  await page.getByRole("button", { name: "Join" }).click();
  await expect(page.getByText("Passwords don't match")).toBeVisible();
  await passwordBox.fill(password);
  await page.getByLabel("Confirm password").fill(password);
  await page.getByRole("button", { name: "Join" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText(`Your sign-in is ready. Sign in as ${username}.`)).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

  await page.getByLabel("Username").fill(username);
  await page.getByRole("textbox", { name: "Password", exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto("/settings");
  await expect(page.getByText("Maria Lopez").first()).toBeAttached();
  // The Team tab is the owner's alone.
  await expect(page.getByRole("tab", { name: "Settings" })).toHaveCount(0);
  await expect(page.getByRole("tab", { name: "Profile" })).toBeVisible();
  await expect(page.getByRole("tab", { name: "Team" })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("estimator-settings-360.png"), fullPage: true });
});
