import { expect, test } from "./fixtures";

// Staff use the app on phones: every screen at 360 px wide keeps the mobile viewport, shows no
// horizontal scroll, and the navigation works with JavaScript (burger) and without (link row).
const SCREENS = ["/", "/upload", "/estimates", "/contacts", "/packages", "/settings", "/admin-settings", "/user-management", "/ai-training", "/ai-training?dialog=new", "/vendor-ai-training"];

test.use({ viewport: { width: 360, height: 740 } });

test("every screen fits 360 px and the menu reaches another screen", async ({ page, loginAs, javaScriptEnabled }) => {
  await loginAs("admin");
  for (const path of SCREENS) {
    await page.goto(path);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${path} scrolls sideways by ${overflow} px`).toBeLessThanOrEqual(0);
  }
  await page.goto("/contacts");
  if (javaScriptEnabled) {
    await expect(page.getByRole("navigation", { name: "Main navigation" })).not.toBeInViewport();
    await page.getByRole("button", { name: "Toggle navigation" }).click();
    await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Packages" }).click();
  } else {
    await page.getByRole("navigation", { name: "Menu" }).getByRole("link", { name: "Packages" }).click();
  }
  await expect(page).toHaveURL(/\/packages$/);
  await expect(page.getByRole("heading", { name: "Packages", exact: true }).first()).toBeVisible();
});
