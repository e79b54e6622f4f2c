import { afterAll, beforeAll, expect, it } from "vitest";
import { startApp, type RunningApp } from "../../tests/app-server";
import { client, createTestUser, signIn } from "../../tests/accounts";
import { useTestDb } from "../../tests/test-db";

let app: RunningApp;
beforeAll(async () => {
  await useTestDb();
  app = await startApp();
});
afterAll(() => app?.stop());

it("signs in and reads the current user", async () => {
  const { username, password } = await createTestUser({ role: "dealer" });
  const cookie = await signIn(app, username, password);
  const res = await client(app, { cookie }).get("/api/auth/user");
  expect(res.status).toBe(200);
  expect(res.json.username).toBe(username);
  expect(res.json.passwordHash).toBeUndefined();
});
