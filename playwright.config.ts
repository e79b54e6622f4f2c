import { defineConfig } from "@playwright/test";

/** A small Android phone: 360 × 740 CSS px, touch, mobile viewport handling. */
const PHONE = { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/global-setup.ts",
  fullyParallel: false,
  // Two workers, each with an app and database of its own (e2e/global-setup.ts): on the headless shell
  // one walk left a quarter of the two cores idle, waiting on the app and the browser (docs/decisions/0057).
  // With the full browser two did not help (13.6 min against 13.8: the cores were full).
  // `--workers=1` runs them one after another.
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  // Waits end as soon as their condition holds, so generous limits cost a passing run nothing and keep a
  // loaded machine from failing a test that is only slow.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [["list"], ["json", { outputFile: ".tmp/playwright-results.json" }]],
  use: {
    // A trace is recorded on a failed test's retry (CI retries once): recording one for every passing
    // test cost about a quarter of the run's CPU (screencast frames and snapshots).
    trace: "on-first-retry",
    launchOptions: {
      // Debian's headless shell (scripts/setup.mjs installs it): Chromium without the full browser's
      // compositor and GPU process, the build Playwright itself runs headless.
      executablePath: "/usr/lib/chromium/chromium-headless-shell",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  // The phone projects run e2e/phone.spec.ts and the accessibility audit (e2e/a11y.spec.ts) at a phone's
  // size (360 px wide, touch), JS on and off;
  // the throttled walkthrough (e2e/throttled.walk.ts) runs only from bench/throttled-walk.mjs
  // (playwright.throttled.config.ts).
  projects: [
    { name: "js", testIgnore: /phone\.spec\.ts/, use: { javaScriptEnabled: true } },
    { name: "no-js", testIgnore: /phone\.spec\.ts/, use: { javaScriptEnabled: false } },
    { name: "phone", testMatch: /(phone|a11y)\.spec\.ts/, use: { ...PHONE, javaScriptEnabled: true } },
    { name: "phone-no-js", testMatch: /(phone|a11y)\.spec\.ts/, use: { ...PHONE, javaScriptEnabled: false } },
  ],
});
