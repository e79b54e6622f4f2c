import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

// Keyboard only (WCAG 2.1.1, 2.4.3, 2.4.7): sign-in, a dialog's focus in and back, the skip link
// and the upload wizard's browse button. The phone menu's are in e2e/phone.spec.ts.

const noJs = () => test.info().project.use.javaScriptEnabled === false;

/** Presses Tab until `target` has focus (at most `max` times); fails if it never does. */
async function tabTo(page: Page, target: ReturnType<Page["locator"]>, max = 15) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
  }
  throw new Error(`Tab never reached ${target}`);
}

test("sign in with the keyboard: errors tied to their fields, no dead stop on the password toggle, Enter submits", async ({ page, createUser }) => {
  const user = await createUser("dealer");
  await page.goto("/login?tab=dealer");
  const username = page.getByLabel("Username");
  const password = page.locator("input#password");

  // An empty submit: the first invalid field gets focus, each says it is invalid and which text explains why.
  await tabTo(page, page.getByRole("button", { name: "Sign In" }));
  await page.keyboard.press("Enter");
  await expect(username).toBeFocused();
  for (const field of [username, password]) {
    await expect(field).toHaveAttribute("aria-invalid", "true");
    const described = await field.getAttribute("aria-describedby");
    expect(described, "aria-describedby").toBeTruthy();
    await expect(page.locator(`[id="${described!.split(" ")[0]}"]`)).not.toBeEmpty();
  }

  await page.keyboard.type(user.username);
  await page.keyboard.press("Tab");
  await expect(password).toBeFocused();
  await page.keyboard.type(user.password);
  // The sign-in page runs no JavaScript: its show/hide toggle would do nothing, so it is no Tab stop.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Sign In" })).toBeFocused();
  await password.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
});

test("the skip link is the first stop and moves to the main content", async ({ page, loginAs }) => {
  await loginAs("dealer");
  await page.goto("/contacts");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.locator("main")).toBeFocused();
  // The next Tab goes on inside the content, not back to the sidebar.
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => Boolean(document.activeElement?.closest("main")))).toBe(true);
});

test("a dialog takes focus when opened and gives it back to its opener when closed", async ({ page, loginAs }) => {
  await loginAs("dealer");
  await page.goto("/contacts");
  const opener = page.getByRole("link", { name: "Add Contact" }).first();
  const dialog = page.getByRole("dialog", { name: "Add Contact" });
  const close = dialog.getByRole("link", { name: "Close" });

  await opener.focus();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  if (noJs()) {
    // Without JavaScript the × is a link back to the list.
    await close.focus();
    await page.keyboard.press("Enter");
    await expect(dialog).toBeHidden();
    return;
  }
  await expect.poll(() => dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);

  // Escape closes it; focus is back on "Add Contact".
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();

  // So does the named ×.
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await close.focus();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
});

test("the upload wizard's browse button opens the file chooser with Enter, every time", async ({ page, loginAs }) => {
  test.skip(noJs(), "without JavaScript the wizard is a plain file input");
  // One listener for the whole walk: Playwright intercepts file choosers only while one listens, and
  // turns that on and off without waiting, so a chooser waited for one at a time can open between a
  // listener's removal and the next one's arrival, unintercepted (the test then failed at random).
  let opened = 0;
  page.on("filechooser", () => opened++);
  await loginAs("dealer");
  await page.goto("/upload");
  const browse = page.locator('[data-testid="uploader-wizard"] .uppy-Dashboard-browse').first();
  await expect(browse).toBeVisible();
  for (let i = 1; i <= 5; i++) {
    await browse.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => opened, { timeout: 5000 }).toBe(i);
  }
});
