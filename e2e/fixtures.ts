import { test as base, type Page } from "@playwright/test";
import mongoose from "mongoose";
import type { Role } from "../app/models/user.server";
import { createTestUser } from "../tests/accounts";

type TestUser = Awaited<ReturnType<typeof createTestUser>>;

// This worker's app and database (e2e/global-setup.ts starts one pair per worker slot; two workers running
// at once never share a slot). Specs read E2E_BASE_URL / E2E_MONGODB_URI, so they need not know the slot.
const slot = process.env.TEST_PARALLEL_INDEX ?? "0";
process.env.E2E_BASE_URL = process.env[`E2E_BASE_URL_${slot}`];
process.env.E2E_MONGODB_URI = process.env[`E2E_MONGODB_URI_${slot}`];

async function connect() {
  if (mongoose.connection.readyState !== 1) {
    await mongoose.connect(process.env.E2E_MONGODB_URI!, { serverSelectionTimeoutMS: 5000 });
  }
}

export const test = base.extend<{
  /** Creates an account directly in the database. */
  createUser: (role: Role, username?: string) => Promise<TestUser>;
  /** Creates an account and signs the page in as it (cookie set through the login API). */
  loginAs: (role: Role) => Promise<TestUser>;
  /** Back to a fresh install as far as the admin set-up is concerned (no admin exists). */
  resetAdminSetup: () => Promise<void>;
  /**
   * Fails the test on any uncaught browser error or Content-Security-Policy violation (a broken
   * bundle would silently fall back to no-JS).
   */
  failOnPageError: void;
}>({
  failOnPageError: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      // A script or request the Content-Security-Policy blocked is a broken page as well.
      page.on("console", (message) => {
        if (message.type() === "error" && /Content Security Policy/i.test(message.text())) errors.push(message.text());
      });
      await use();
      if (errors.length > 0) throw new Error(`Uncaught errors in the page:\n${errors.join("\n")}`);
    },
    { auto: true },
  ],
  baseURL: async ({}, use) => {
    await use(process.env.E2E_BASE_URL);
  },
  createUser: async ({}, use) => {
    await connect();
    await use((role, username) => createTestUser({ role, username }));
  },
  resetAdminSetup: async ({}, use) => {
    await connect();
    await use(async () => {
      await mongoose.connection.collection("users").deleteMany({ role: "admin" });
      await mongoose.connection.collection("locks").deleteOne({ _id: "admin-setup" as never });
    });
  },
  loginAs: async ({ page, createUser }, use) => {
    await use(async (role) => {
      const user = await createUser(role);
      await signInPage(page, user.username, user.password);
      return user;
    });
  },
});

export async function signInPage(page: Page, username: string, password: string) {
  const res = await page.request.post("/api/admin/login", { data: { username, password } });
  if (res.status() !== 200) throw new Error(`login failed: ${res.status()} ${await res.text()}`);
}

export { expect } from "@playwright/test";
