import { expect, test } from "./fixtures";

test("the home page renders server-side with Mantine styles", async ({ page }) => {
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "light");
  const heading = page.getByRole("heading", { level: 1 });
  await expect(heading).toBeVisible();
  // Mantine's stylesheet is loaded: its body rule sets the theme's font and line height.
  const lineHeight = await page.evaluate(() => getComputedStyle(document.body).lineHeight);
  expect(lineHeight).not.toBe("normal");
});

test("health check reaches the database", async ({ request }) => {
  const res = await request.get("/healthz");
  expect(res.status()).toBe(200);
  expect(await res.json()).toEqual({ status: "ok" });
});
