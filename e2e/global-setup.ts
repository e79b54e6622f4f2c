import { rmSync } from "node:fs";
import path from "node:path";
import type { FullConfig } from "@playwright/test";
import { startEmbeddedDb } from "../app/utils/embedded-db.server";
import { appBuildIsStale, ensureAppBuild, ensureLauncher } from "../scripts/setup.mjs";
import { ALLOW_LOCAL_MAIL_SERVERS, startApp } from "../tests/app-server";

/**
 * One database server for the browser run, and one app with a fresh database of its own per worker slot
 * (E2E_BASE_URL_<n>, E2E_MONGODB_URI_<n>; e2e/fixtures.ts picks the slot's pair). Two workers run side by
 * side, and a test that resets global state (the admin set-up) only touches its own slot's database,
 * while the tests of one slot still run one after another as before.
 */
export default async function globalSetup(config: FullConfig) {
  // The browser walks run the built app: never an older build than the sources.
  if (appBuildIsStale()) ensureAppBuild();
  let mongoBase = process.env.MONGODB_URI;
  let stopDb = async () => {};
  if (!mongoBase) {
    ensureLauncher();
    const dataDir = path.resolve(`.tmp/e2e-db-${process.pid}`);
    rmSync(dataDir, { recursive: true, force: true });
    const server = await startEmbeddedDb({ dataDir });
    mongoBase = server.uri;
    stopDb = async () => {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }
  const run = Date.now();
  const apps = await Promise.all(
    Array.from({ length: config.workers }, async (_, slot) => {
      const uri = new URL(mongoBase);
      uri.pathname = `/e2e_${run}_${slot}`;
      // e2e/email.spec.ts saves 127.0.0.1 as the account's mail server.
      const app = await startApp({ mongoUri: uri.toString(), env: { ...ALLOW_LOCAL_MAIL_SERVERS } });
      process.env[`E2E_MONGODB_URI_${slot}`] = uri.toString();
      process.env[`E2E_BASE_URL_${slot}`] = app.url;
      return app;
    }),
  );
  return async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await stopDb();
  };
}
