import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, startEmbeddedDb, type EmbeddedDb } from "../app/utils/embedded-db.server";
import { startApp, type RunningApp } from "../tests/app-server";

// An app started before its database (docs/decisions/0029): the browser gets the "starting" page, which
// opens the sign-in page by itself once the database is up (JavaScript on), or on "Try again" (off).

let app: RunningApp;
let engine: EmbeddedDb | undefined;
let port: number;
const dataDir = mkdtempSync(path.join(os.tmpdir(), "starting-e2e-db-"));

test.beforeAll(async () => {
  port = await freePort();
  app = await startApp({
    mongoUri: `mongodb://127.0.0.1:${port}/starting_e2e`,
    env: { SESSION_SECRET: "a-test-secret-of-enough-length-0123456789" },
    waitFor: "answering",
  });
});
test.afterAll(async () => {
  await app?.stop();
  await engine?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test("the starting page says the database is starting, then opens the app by itself", async ({ page, javaScriptEnabled }) => {
  test.setTimeout(60_000);
  const res = await page.goto(`${app.url}/login`);
  expect(res?.status()).toBe(503);
  expect(res?.headers()["retry-after"]).toBe("5");
  await expect(page.getByRole("heading", { level: 1, name: "DamageIQ is starting" })).toBeVisible();
  await expect(page.getByRole("status")).toHaveText("Database starting");
  await expect(page).toHaveTitle("Starting · DamageIQ");
  await expect(page.getByText("This page opens by itself once the database is ready.")).toBeVisible({ visible: javaScriptEnabled });
  if (javaScriptEnabled) {
    const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
    expect(violations.map((v) => v.id)).toEqual([]);
  }
  // Nothing wider than a phone's screen.
  await page.setViewportSize({ width: 360, height: 740 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  engine ??= await startEmbeddedDb({ dataDir, port, supervise: false });
  const signIn = page.getByRole("heading", { name: "Sign in" });
  if (javaScriptEnabled) {
    // The page asks /healthz and reloads itself once the app is ready, with no click.
    await expect(signIn).toBeVisible({ timeout: 30_000 });
  } else {
    // Without JavaScript the link tries again: the starting page until the app is ready, then sign-in.
    await expect(async () => {
      await page.getByRole("link", { name: "Try again" }).click();
      await expect(signIn).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 30_000 });
  }
  expect(page.url()).toBe(`${app.url}/login`);
});
