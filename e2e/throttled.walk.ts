import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { photo } from "../tests/media-files";
import { uploadPhotos } from "./assessment-walk";
import { expect, test } from "./fixtures";

// Issue 15's slow dealer line: 1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip (Chromium's
// network emulation) and a CPU slowed 4×. Sign in, open every screen, create a contact, upload two
// photos and create an assessment; each screen's largest contentful paint within 2 s. Then every
// screen again with the cache disabled (issue 30): requests before the first paint and before the
// page is interactive, LCP and when hydration was done. The figures
// go to .tmp/throttled-walk-<project>.json for bench/throttled-walk.mjs (docs/performance.md).
const LINE = { latency: 150, downloadThroughput: (1.6e6 / 8), uploadThroughput: (750e3 / 8) };
const CPU_SLOWDOWN = 4;
const LCP_BUDGET_MS = 2000;
const SCREENS = ["/", "/upload", "/estimates", "/contacts", "/packages", "/email", "/settings", "/ai-training", "/vendor-ai-training", "/admin-settings", "/user-management"];

type Step = { step: string; lcpMs: number | null; loadMs: number | null; kb: number; ms: number };
/** Issue 30's cold first load: each screen with the browser cache disabled. */
type ColdVisit = {
  screen: string;
  /** Requests started before the first contentful paint, the document included. */
  beforePaint: number;
  /** Requests started before the page was interactive (the "hydrated" mark, entry.client). */
  beforeInteractive: number | null;
  requests: number;
  lcpMs: number | null;
  hydratedMs: number | null;
  kb: number;
};
const COLD_BUDGET = { beforePaint: 15, beforeInteractive: 25, lcpMs: 1500, hydratedMs: 2500 };

/** Requests before the first paint and before hydration, from the page's own timings. */
async function coldFigures(page: Page) {
  return page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
    // Only what crossed the wire (the cache is disabled here): without JavaScript Chromium still lists
    // the page's scripts and modulepreloads as entries, never fetched (transferSize 0).
    const resources = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter((r) => r.transferSize > 0);
    const paint = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null;
    const hydrated = performance.getEntriesByName("hydrated")[0]?.startTime ?? null;
    const before = (t: number | null) => (t === null ? null : 1 + resources.filter((r) => r.startTime < t).length);
    const bytes = (nav?.transferSize ?? 0) + resources.reduce((sum, r) => sum + r.transferSize, 0);
    return {
      origin: performance.timeOrigin,
      beforePaint: before(paint) ?? 1 + resources.length,
      beforeInteractive: before(hydrated),
      requests: 1 + resources.length,
      hydratedMs: hydrated,
      kb: bytes / 1000,
    };
  });
}

/** The page's load time since navigation and what it transferred (synchronous: works with JS off). */
async function pageFigures(page: Page) {
  return page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
    // Only what crossed the wire (the cache is disabled here): without JavaScript Chromium still lists
    // the page's scripts and modulepreloads as entries, never fetched (transferSize 0).
    const resources = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter((r) => r.transferSize > 0);
    const bytes = (nav?.transferSize ?? 0) + resources.reduce((sum, r) => sum + r.transferSize, 0);
    return { origin: performance.timeOrigin, loadMs: nav && nav.loadEventEnd > 0 ? nav.loadEventEnd : null, kb: bytes / 1000 };
  });
}

test("throttled walkthrough", async ({ page, createUser }) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, ...LINE });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
  // The largest contentful paint from the browser itself (a PerformanceObserver needs page scripts,
  // which the no-JS walk has not): the newest candidate's paint time, seconds since the epoch.
  let lcpAt: number | null = null;
  cdp.on("PerformanceTimeline.timelineEventAdded", ({ event }) => {
    const details = event.lcpDetails;
    if (details) lcpAt = (details.renderTime || details.loadTime) * 1000;
  });
  await cdp.send("PerformanceTimeline.enable", { eventTypes: ["largest-contentful-paint"] });
  const steps: Step[] = [];
  /** A step that ends in a document load is held to the LCP budget; one the page handles itself has no LCP. */
  const timed = async (step: string, action: () => Promise<void>, { documentLoad = true } = {}) => {
    lcpAt = null;
    const started = Date.now();
    await action();
    const ms = Date.now() - started;
    for (const until = Date.now() + 3000; lcpAt === null && Date.now() < until; ) await page.waitForTimeout(100);
    const { origin, ...figures } = await pageFigures(page);
    const lcpMs = lcpAt === null ? null : Math.max(0, lcpAt - origin);
    steps.push({ step, ms, lcpMs, ...figures });
    if (documentLoad) expect.soft(lcpMs ?? Infinity, `${step}: largest contentful paint`).toBeLessThanOrEqual(LCP_BUDGET_MS);
  };

  const admin = await createUser("admin");
  await timed("/login", async () => {
    await page.goto("/login");
  });
  await timed("sign in → /", async () => {
    await page.getByLabel("Username").fill(admin.username);
    await page.locator('input[name="password"]').fill(admin.password);
    await page.getByRole("button", { name: "Sign in as Admin" }).click();
    await expect(page).toHaveURL(/\/$/, { timeout: 20_000 });
    await expect(page.getByRole("heading", { name: "Dashboard" }).first()).toBeVisible();
  });
  for (const screen of SCREENS) {
    await timed(screen, async () => {
      await page.goto(screen);
    });
  }
  await timed("create a contact", async () => {
    await page.goto("/contacts?dialog=new");
    const form = page.getByRole("dialog");
    await form.getByLabel("First name").fill("Rita");
    await form.getByLabel("Last name").fill("Road");
    await form.getByLabel("Email").fill("rita@example.com");
    await form.getByRole("button", { name: "Create Contact" }).click();
    // .first(): an admin sees every account's contacts, the other walk's Rita Road too.
    await expect(page.getByTestId("contact-card").filter({ hasText: "Rita Road" }).first()).toBeVisible({ timeout: 20_000 });
  });
  // The cold pass: every screen as on a kiosk after a reboot (no cached file), signed in.
  const cold: ColdVisit[] = [];
  const js = test.info().project.name === "js";
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  for (const screen of SCREENS) {
    lcpAt = null;
    await page.goto(screen);
    if (js) await page.waitForFunction(() => performance.getEntriesByName("hydrated").length > 0, null, { timeout: 30_000 });
    for (const until = Date.now() + 3000; lcpAt === null && Date.now() < until; ) await page.waitForTimeout(100);
    const { origin, ...figures } = await coldFigures(page);
    const visit = { screen, lcpMs: lcpAt === null ? null : Math.max(0, lcpAt - origin), ...figures };
    cold.push(visit);
    expect.soft(visit.beforePaint, `${screen}: requests before the first paint`).toBeLessThanOrEqual(COLD_BUDGET.beforePaint);
    expect.soft(visit.lcpMs ?? Infinity, `${screen}: cold largest contentful paint`).toBeLessThanOrEqual(COLD_BUDGET.lcpMs);
    if (js) {
      expect.soft(visit.beforeInteractive ?? Infinity, `${screen}: requests before interactive`).toBeLessThanOrEqual(COLD_BUDGET.beforeInteractive);
      expect.soft(visit.hydratedMs ?? Infinity, `${screen}: hydrated`).toBeLessThanOrEqual(COLD_BUDGET.hydratedMs);
    }
  }
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: false });

  const photos = [await photo(640, 480, 2), await photo(640, 480, 3)];
  // ~600 KB of photos take ~6.5 s at 750 kbit/s whatever the page does: timed, not held to the LCP
  // budget (the /upload screen itself is, above).
  await timed(
    "upload 2 photos",
    async () => {
      await uploadPhotos(page, "", [
        { name: "bumper.png", mimeType: "image/png", buffer: photos[0] },
        { name: "wing.png", mimeType: "image/png", buffer: photos[1] },
      ]);
    },
    { documentLoad: false },
  );
  await timed("create the assessment", async () => {
    await page.getByRole("button", { name: "Continue to Assessment Details" }).click();
    const details = page.getByTestId("upload-details-step");
    await details.getByLabel("Title").fill("Throttled walk");
    await details.getByRole("button", { name: "Create Assessment & Start AI Analysis" }).click();
    await expect(page).toHaveURL(/\/upload\?assessment=[0-9a-f]{24}$/, { timeout: 30_000 });
  }, { documentLoad: test.info().project.name === "no-js" });

  // Written even when a step was over its budget (soft assertions), so the table shows it.
  const out = path.resolve(".tmp", `throttled-walk-${test.info().project.name}.json`);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify({ project: test.info().project.name, line: LINE, cpuSlowdown: CPU_SLOWDOWN, steps, cold }, null, 2));
});
