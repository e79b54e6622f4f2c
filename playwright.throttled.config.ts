import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

// The throttled walkthrough (issue 15), run by bench/throttled-walk.mjs and not by `npm test`:
// the same browser and app set-up as the suite, one walk with JavaScript and one without.
export default defineConfig({
  ...base,
  testMatch: /throttled\.walk\.ts/,
  timeout: 240_000,
  reporter: [["list"]],
  projects: [
    { name: "js", use: { javaScriptEnabled: true } },
    { name: "no-js", use: { javaScriptEnabled: false } },
  ],
});
