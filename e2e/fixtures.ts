import { test as base } from "@playwright/test";

export const test = base.extend({
  baseURL: async ({}, use) => {
    await use(process.env.E2E_BASE_URL);
  },
});

export { expect } from "@playwright/test";
