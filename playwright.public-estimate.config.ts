import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

// The customer's estimate page on a slow line (issue 27), run by bench/public-estimate.mjs and not by
// `npm test`: the suite's browser and app set-up, a phone, JavaScript on and off.
export default defineConfig({
  ...base,
  testMatch: /public-estimate\.walk\.ts/,
  timeout: 180_000,
  reporter: [["list"]],
  projects: [
    { name: "phone", use: { javaScriptEnabled: true } },
    { name: "phone-no-js", use: { javaScriptEnabled: false } },
  ],
});
