import { client, createTestUser, signIn, tenancyClients, tokenFor } from "./accounts";
import type { Role } from "../app/models/user.server";
import { startApp } from "./app-server";
import { useTestDb } from "./test-db";

type StartOptions = Parameters<typeof startApp>[0] & { role?: Role };

/** This file's fresh database, the built app running on it, and one account (a dealer unless `role` says). */
async function startWithUser({ role = "dealer", ...start }: StartOptions) {
  await useTestDb();
  const app = await startApp(start);
  return { app, user: await createTestUser({ role }) };
}

/**
 * What most API and screen tests start from: this file's fresh database, the built app running on
 * it, and one dealer (or `role`) signed in (a session cookie, and a client speaking with it).
 */
export async function startSignedInApp(options: StartOptions = {}) {
  const { app, user } = await startWithUser(options);
  const cookie = await signIn(app, user.username, user.password);
  return { app, user, dealerId: user.id, cookie, dealer: client(app, { cookie }) };
}

/** The same with the dealer (or `role`) calling with a personal API token instead of a session. */
export async function startTokenApp(options: StartOptions = {}) {
  const { app, user } = await startWithUser(options);
  const token = await tokenFor(user.id);
  return { app, user, dealerId: user.id, token, dealer: client(app, { token }) };
}

/**
 * The same with the callers a tenancy test needs (tests/accounts.ts tenancyClients): dealer A signed
 * in, account B (`otherRole`, a dealer by default) with a Bearer token, and a signed-in admin.
 */
export async function startTenancyApp(options: StartOptions & { otherRole?: Role } = {}) {
  const { otherRole, ...start } = options;
  await useTestDb();
  const app = await startApp(start);
  return { app, ...(await tenancyClients(app, { otherRole })) };
}
