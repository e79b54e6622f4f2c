import { expect, test } from "./fixtures";

test("a signed-in page renders server-side with Mantine styles", async ({ page, loginAs }) => {
  await loginAs("dealer");
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "light");
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  // Mantine's stylesheet is loaded: the fixed-width sidebar is laid out beside the content.
  const navbar = page.getByRole("navigation", { name: "Main navigation" });
  await expect(navbar).toBeVisible();
  expect((await navbar.boundingBox())?.width).toBe(260);
});

test("health check reaches the database", async ({ request }) => {
  const res = await request.get("/healthz");
  expect(res.status()).toBe(200);
  expect(await res.json()).toEqual({ status: "ok" });
});
