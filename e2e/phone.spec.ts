import type { Page } from "@playwright/test";
import { measureJsBudgets } from "../bench/js-budget.mjs";
import { expect, test } from "./fixtures";
import { insertAssessment } from "./seed";

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

test("reflow (WCAG 1.4.10): at 320 CSS px, a laptop's 1280 px at 400 % zoom, every screen reads without sideways scrolling", async ({ page, loginAs }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 320, height: 640 });
  await loginAs("admin");
  for (const path of SCREENS) {
    await page.goto(path);
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), { message: `${path} scrolls sideways at 320 px`, timeout: 3000 })
      .toBeLessThanOrEqual(0);
    // Nor does a box inside it, a data table's own scroll box excepted (1.4.10 exempts two-dimensional tables).
    const scrolling = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>("body *")]
        .filter((el) => ["auto", "scroll"].includes(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1 && !el.querySelector("table"))
        .map((el) => `${el.tagName.toLowerCase()}.${el.className} (${el.scrollWidth} > ${el.clientWidth})`),
    );
    expect(scrolling, `${path}: boxes that scroll sideways at 320 px`).toEqual([]);
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

/** The element's right edge is on the screen and nothing cuts its text off. */
async function expectWhole(page: Page, selector: string, what: string) {
  const boxes = await page.locator(selector).evaluateAll((els) =>
    els.map((el) => {
      const rect = el.getBoundingClientRect();
      let clipped = el.scrollWidth > el.clientWidth + 1;
      for (let p = el.parentElement; p; p = p.parentElement) {
        const style = getComputedStyle(p);
        if (style.overflowX !== "visible" && p.getBoundingClientRect().right < rect.right - 0.5) clipped = true;
      }
      return { right: rect.right, clipped, text: (el.textContent ?? "").trim() };
    }),
  );
  expect(boxes.length, `${what}: none found`).toBeGreaterThan(0);
  for (const box of boxes) {
    expect(box.right, `${what} "${box.text}" past the edge`).toBeLessThanOrEqual(PHONE_WIDTH);
    expect(box.clipped, `${what} "${box.text}" cut off`).toBe(false);
  }
}

test("phone: whole login tabs, status badges with text, tables that stack, and a compact stat row", async ({ page, loginAs, createUser }) => {
  test.setTimeout(60_000);
  await page.goto("/login");
  await expectWhole(page, '[role="tablist"] [role="tab"] .mantine-Button-label', "login tab");
  const dealer = await createUser("dealer");
  await loginAs("admin");

  await page.goto("/settings?tab=system");
  await expectWhole(page, '[data-testid="status-list"] .mantine-Badge-label', "status badge");
  await expectWhole(page, '[data-testid="status-list"] td:last-child', "latency");

  await page.goto("/user-management");
  await expectWhole(page, `[data-testid="user-row-${dealer.username}"] a`, "Delete");
  await expectNoSidewaysScroll(page, "/user-management");

  await page.request.post("/api/auth/tokens", { data: { name: "Phone kiosk" } });
  await page.goto("/settings?tab=security");
  await expectWhole(page, 'button[aria-label="Revoke Phone kiosk"]', "Revoke");

  // An estimate with damages: its Damages table's last column is on the screen.
  const created = await page.request.post("/api/contacts", { data: { firstName: "Pat", lastName: "Phone", email: "pat@example.com" } });
  expect(created.status()).toBe(201);
  const insertedId = await insertAssessment({
    ownerId: (await (await page.request.get("/api/auth/user")).json()).id,
    title: "Phone Corolla",
    status: "completed",
    damages: [{ damageType: "bumper_damage", location: "front", severity: "moderate", description: "Cracked bumper", confidence: 0.8 }],
    damageCategories: ["bumper_damage"],
  });
  await page.goto(`/estimates?view=${insertedId}`);
  await expectWhole(page, '[data-testid="estimate-damages"] tbody td:last-child', "Photo column");
  await expectNoSidewaysScroll(page, "/estimates?view");

  // The figures take one compact block: the list starts within the first screen.
  await page.goto("/estimates");
  const top = await page.getByTestId("estimate-card").first().evaluate((el) => el.getBoundingClientRect().top);
  expect(top).toBeLessThan(740);
});

test("the phone menu with the keyboard: aria-expanded, Escape closes it, closed links take no Tab stop", async ({ page, loginAs, javaScriptEnabled }) => {
  await loginAs("admin");
  await page.goto("/contacts");
  const menu = page.getByRole("navigation", { name: "Main navigation" });
  const inMenu = () => page.evaluate(() => Boolean(document.activeElement?.closest("#main-navigation")));
  // Closed: Tab goes from the header straight into the page, never onto the off-screen links.
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press("Tab");
    expect(await inMenu(), `Tab stop ${i + 1} is in the closed menu`).toBe(false);
  }
  if (!javaScriptEnabled) return;
  const burger = page.getByRole("button", { name: "Toggle navigation" });
  await expect(burger).toHaveAttribute("aria-expanded", "false");
  await burger.focus();
  await page.keyboard.press("Enter");
  await expect(burger).toHaveAttribute("aria-expanded", "true");
  await expect(menu).toBeInViewport();
  await page.keyboard.press("Tab");
  await expect.poll(inMenu).toBe(true);
  await page.keyboard.press("Escape");
  await expect(burger).toHaveAttribute("aria-expanded", "false");
  await expect(burger).toBeFocused();
  await expect(menu).not.toBeInViewport();
});

test("the wizard's four steps share one even row on a phone, each number above its label", async ({ page, loginAs }) => {
  await loginAs("dealer");
  await page.goto("/upload");
  const steps = page.getByTestId("wizard-steps").getByRole("listitem");
  await expect(steps).toHaveCount(4);
  const boxes = await steps.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as DOMRect));
  // One row (no step wrapped under another), four equal widths.
  expect(new Set(boxes.map((b) => Math.round(b.top))).size).toBe(1);
  expect(Math.max(...boxes.map((b) => b.width)) - Math.min(...boxes.map((b) => b.width))).toBeLessThan(1);
  for (const box of boxes) expect(box.right).toBeLessThanOrEqual(PHONE_WIDTH);
});
