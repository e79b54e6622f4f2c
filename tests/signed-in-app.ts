import { client, createTestUser, signIn, tenancyClients } from "./accounts";
import type { Role } from "../app/models/user.server";
import { startApp } from "./app-server";
import { useTestDb } from "./test-db";

type StartOptions = Parameters<typeof startApp>[0];

/**
 * What most API and screen tests start from: this file's fresh database, the built app running on
 * it, and one dealer signed in (a session cookie, and a client speaking with it).
 */
export async function startSignedInApp(options: StartOptions = {}) {
  await useTestDb();
  const app = await startApp(options);
  const user = await createTestUser({ role: "dealer" });
  const cookie = await signIn(app, user.username, user.password);
  return { app, dealerId: user.id, cookie, dealer: client(app, { cookie }) };
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
