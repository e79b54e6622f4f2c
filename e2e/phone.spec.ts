import type { Page } from "@playwright/test";
import { measureJsBudgets } from "../bench/js-budget.mjs";
import { expect, test } from "./fixtures";

// Staff use the app on phones (projects `phone` and `phone-no-js`: 360 px wide, touch). Every
// signed-in screen of the build (screens added later included), plus the dialogs addressed by URL,
// keeps the mobile viewport, shows no horizontal scroll, stacks its cards in one column, and the
// navigation works with JavaScript (burger) and without (the link row).
const PUBLIC = new Set(["/login", "/admin/login", "/admin/setup", "/*"]);
const SCREENS = [
  ...measureJsBudgets()
    .map((row) => row.path)
    .filter((path) => !PUBLIC.has(path)),
  "/contacts?dialog=new",
  "/packages?dialog=new",
  "/ai-training?dialog=new",
  "/no-such-page",
];
const PHONE_WIDTH = 360;

/** Polled: a toast sliding in from the right widens the page for the length of its animation. */
async function expectNoSidewaysScroll(page: Page, path: string) {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), {
      message: `${path} scrolls sideways at ${PHONE_WIDTH} px`,
      timeout: 3000,
    })
    .toBeLessThanOrEqual(0);
}

test("every screen fits a phone: no sideways scroll, cards in one column", async ({ page, loginAs }) => {
  test.setTimeout(90_000);
  expect(page.viewportSize()?.width).toBe(PHONE_WIDTH);
  await loginAs("admin");
  for (const path of SCREENS) {
    await page.goto(path);
    await expect(page.locator('meta[name="viewport"]')).toHaveAttribute("content", "width=device-width, initial-scale=1");
    await expectNoSidewaysScroll(page, path);
    // Cards side by side at 360 px would each be a sliver: every visible card takes the column.
    const narrow = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('main [data-testid$="card"], main [role="listitem"], main .mantine-Card-root')]
        .filter((el) => el.offsetParent !== null && !el.closest('[role="dialog"]'))
        .map((el) => el.getBoundingClientRect())
        .filter((box) => box.width > 0 && (box.width < 150 || box.right > window.innerWidth + 0.5))
        .map((box) => `${Math.round(box.left)}+${Math.round(box.width)}`),
    );
    expect(narrow, `${path}: cards narrower than the column or past the edge`).toEqual([]);
  }
});

test("the menu reaches another screen", async ({ page, loginAs, javaScriptEnabled }) => {
  await loginAs("admin");
  await page.goto("/contacts");
  if (javaScriptEnabled) {
    await expect(page.getByRole("navigation", { name: "Main navigation" })).not.toBeInViewport();
    await page.getByRole("button", { name: "Toggle navigation" }).tap();
    await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Packages" }).tap();
  } else {
    await page.getByRole("navigation", { name: "Menu" }).getByRole("link", { name: "Packages" }).tap();
  }
  await expect(page).toHaveURL(/\/packages$/);
  await expect(page.getByRole("heading", { name: "Packages", exact: true }).first()).toBeVisible();
});

test("the sign-in screen fits a phone and signs in", async ({ page, createUser }) => {
  const dealer = await createUser("dealer");
  await page.goto("/login?tab=dealer");
  await expectNoSidewaysScroll(page, "/login");
  await page.getByLabel("Username").fill(dealer.username);
  await page.locator('input[name="password"]').fill(dealer.password);
  await page.getByRole("button", { name: "Sign in as Dealer" }).tap();
  await expect(page).toHaveURL(/\/$/);
  await expectNoSidewaysScroll(page, "/");
});
