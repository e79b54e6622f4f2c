import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEmbeddedDb, type EmbeddedDb } from "../app/utils/embedded-db.server";
import { startApp, type RunningApp } from "../tests/app-server";

// A database that stops answering once the app is up (docs/decisions/0045): the browser gets a page
// saying so, with the request's id, within two seconds; "Try again" opens the screen once it answers.
// (The sign-in page itself needs no database until its form is sent.)

let app: RunningApp;
let engine: EmbeddedDb;
const dataDir = mkdtempSync(path.join(os.tmpdir(), "stalled-e2e-db-"));

const stopped = (pid: number) => readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1][0] === "T";

test.beforeAll(async () => {
  engine = await startEmbeddedDb({ dataDir, supervise: false });
  app = await startApp({ mongoUri: `${engine.uri}stalled_e2e`, env: { DB_STALL_MS: "1000" } });
});
test.afterAll(async () => {
  const pid = engine?.pid();
  if (pid) process.kill(pid, "SIGCONT");
  await app?.stop();
  await engine?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test("a stalled database: a page naming the request within two seconds, then the screen again", async ({ page, javaScriptEnabled }) => {
  test.setTimeout(60_000);
  // Signed in first: a screen behind the sign-in reads the session, hence the database.
  const admin = { username: "stalled", password: "password123", email: "s@example.com", firstName: "S", lastName: "T" };
  await page.request.post(`${app.url}/api/admin/create-account`, { data: admin });
  expect((await page.request.post(`${app.url}/api/admin/login`, { data: { username: admin.username, password: admin.password } })).status()).toBe(200);
  const pid = engine.pid()!;
  process.kill(pid, "SIGSTOP");
  try {
    await expect.poll(() => stopped(pid)).toBe(true);
    const started = Date.now();
    const res = await page.goto(`${app.url}/settings`);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(res?.status()).toBe(503);
    expect(res?.headers()["retry-after"]).toBe("2");
    const requestId = res?.headers()["x-request-id"];
    await expect(page.getByRole("heading", { level: 1, name: "Service temporarily unavailable" })).toBeVisible();
    await expect(page.getByText(`Request ID: ${requestId} (quote it when you report this)`)).toBeVisible();
    await expect(page).toHaveTitle("Service temporarily unavailable · DamageIQ");
    if (javaScriptEnabled) {
      const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
      expect(violations.map((v) => v.id)).toEqual([]);
    }
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  } finally {
    process.kill(pid, "SIGCONT");
  }
  // Once it answers again, the link opens the screen.
  const settings = page.getByRole("heading", { level: 1, name: "Settings" });
  await expect(async () => {
    await page.getByRole("link", { name: "Try again" }).click();
    await expect(settings).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  expect(page.url()).toBe(`${app.url}/settings`);
});
