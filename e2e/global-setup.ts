import { rmSync } from "node:fs";
import path from "node:path";
import { startEmbeddedDb } from "../app/utils/embedded-db.server";
import { ALLOW_LOCAL_MAIL_SERVERS, startApp } from "../tests/app-server";

/** One app and one fresh database for the browser run; fixtures reach the same database. */
export default async function globalSetup() {
  let mongoBase = process.env.MONGODB_URI;
  let stopDb = async () => {};
  if (!mongoBase) {
    const dataDir = path.resolve(`.tmp/e2e-db-${process.pid}`);
    rmSync(dataDir, { recursive: true, force: true });
    const server = await startEmbeddedDb({ dataDir });
    mongoBase = server.uri;
    stopDb = async () => {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }
  const uri = new URL(mongoBase);
  uri.pathname = `/e2e_${Date.now()}`;
  process.env.E2E_MONGODB_URI = uri.toString();
  // e2e/email.spec.ts saves 127.0.0.1 as the account's mail server.
  const app = await startApp({ mongoUri: uri.toString(), env: { ...ALLOW_LOCAL_MAIL_SERVERS } });
  process.env.E2E_BASE_URL = app.url;
  return async () => {
    await app.stop();
    await stopDb();
  };
}
