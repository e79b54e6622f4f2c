import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Assessment } from "../app/models/assessment.server";
import { client, tokenFor } from "../tests/accounts";
import type { RunningApp } from "../tests/app-server";
import { photo } from "../tests/media-files";
import { uploadMedia } from "../tests/uploads";
import { expect, test } from "./fixtures";

// The customer's first load of the estimate page (/e/{token}) on issue 15's slow line: 1.6 Mbit/s
// down, 750 kbit/s up, 150 ms round trip, CPU 4× slower, a 360 px phone, nothing cached (a new
// browser context per sample). The largest contentful paint of each sample goes to
// .tmp/public-estimate-<project>.json for bench/public-estimate.mjs; the budget is 1 s.
const LINE = { latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 };
const CPU_SLOWDOWN = 4;
const LCP_BUDGET_MS = 1000;
const SAMPLES = 5;
const PHONE = { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

test("the estimate page's first load on a slow line", async ({ browser, createUser }) => {
  const dealer = await createUser("dealer");
  const api = client({ url: process.env.E2E_BASE_URL! } as RunningApp, { token: await tokenFor(dealer.id) });
  const photos = [await uploadMedia(api, { name: "bumper.png", type: "image/png", bytes: await photo(1280, 960, 2) }), await uploadMedia(api, { name: "door.png", type: "image/png", bytes: await photo(1280, 960, 3) })];
  const contact = await api.post("/api/contacts", { firstName: "Jane", lastName: "Doe", email: "jane.doe@example.com" });
  const damages = [
    { damageType: "dent", location: "left", severity: "moderate", description: "Dent in the rear door, paint intact", confidence: 0.82, mediaUrl: photos[0] },
    { damageType: "scratch", location: "front", severity: "minor", description: "Scratch along the bumper", confidence: 0.74, mediaUrl: photos[0] },
    { damageType: "headlight_damage", location: "front", severity: "major", description: "Cracked left headlight lens", confidence: 0.9, mediaUrl: photos[1] },
  ];
  const estimate = await Assessment.create({
    ownerId: dealer.id,
    title: "2019 Camry — front and left side",
    vehicleYear: 2019,
    vehicleMake: "Toyota",
    vehicleModel: "Camry",
    vin: "4T1B11HK5KU123456",
    contactId: contact.json.id,
    mediaUrls: photos,
    status: "sent",
    sentAt: new Date(),
    estimatedCost: 1280.5,
    damages,
    damageCategories: ["dent", "scratch", "headlight_damage"],
    lineItems: damages.map((d, i) => ({ damageType: d.damageType, severity: d.severity, location: d.location, priced: true, totalCents: [42550, 18000, 67500][i] })),
  });
  const link = await api.post(`/api/assessments/${String(estimate._id)}/links`);
  expect(link.status).toBe(201);
  const pagePath = new URL(link.json.url as string).pathname;

  const samples: { lcpMs: number | null; loadMs: number | null; kb: number; lcpElement: string | null; responseStartMs: number | null; responseEndMs: number | null; fcpMs: number | null }[] = [];
  for (let i = 0; i < SAMPLES; i += 1) {
    const context = await browser.newContext({ ...PHONE, javaScriptEnabled: test.info().project.use.javaScriptEnabled, baseURL: process.env.E2E_BASE_URL });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    await cdp.send("Network.emulateNetworkConditions", { offline: false, ...LINE });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
    // The browser's own LCP candidates (a PerformanceObserver needs page scripts; this page has none).
    let lcp: { at: number; element: string } | null = null;
    cdp.on("PerformanceTimeline.timelineEventAdded", ({ event }) => {
      const details = event.lcpDetails;
      if (details) lcp = { at: (details.renderTime || details.loadTime) * 1000, element: details.url ? "image" : "text" };
    });
    await cdp.send("PerformanceTimeline.enable", { eventTypes: ["largest-contentful-paint"] });
    await page.goto(pagePath, { waitUntil: "load" });
    await expect(page.getByTestId("headline-total")).toHaveText("$1,280.50");
    await page.waitForTimeout(500);
    const figures = await page.evaluate(() => {
      const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
      const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
      const bytes = (nav?.transferSize ?? 0) + resources.reduce((sum, r) => sum + r.transferSize, 0);
      const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null;
      return {
        origin: performance.timeOrigin,
        loadMs: nav && nav.loadEventEnd > 0 ? nav.loadEventEnd : null,
        kb: bytes / 1000,
        // Where the time goes: the document's first and last byte, and the first paint.
        responseStartMs: nav?.responseStart ?? null,
        responseEndMs: nav?.responseEnd ?? null,
        fcpMs: fcp,
      };
    });
    const seen = lcp as { at: number; element: string } | null;
    const { origin, ...timings } = figures;
    samples.push({ ...timings, lcpMs: seen ? Math.max(0, seen.at - origin) : null, lcpElement: seen?.element ?? null });
    await context.close();
  }
  const lcps = samples.map((s) => s.lcpMs ?? Infinity).sort((a, b) => a - b);
  const median = lcps[Math.floor(lcps.length / 2)];
  const out = path.resolve(".tmp", `public-estimate-${test.info().project.name}.json`);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify({ project: test.info().project.name, line: LINE, cpuSlowdown: CPU_SLOWDOWN, samples, medianLcpMs: median, maxLcpMs: lcps.at(-1) }, null, 2));
  expect.soft(lcps.at(-1) ?? Infinity, "largest contentful paint of the slowest sample").toBeLessThanOrEqual(LCP_BUDGET_MS);
});
