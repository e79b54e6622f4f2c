import { rmSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedDb } from "../app/utils/embedded-db.server";
import { appBuildIsStale, ensureAppBuild, ensureLauncher } from "../scripts/setup.mjs";

/** One database server for the run; every test file gets a database of its own on it. */
export default async function setup(project: TestProject) {
  // The API tests run the built app: a file run on its own after a change to app/ must not test an
  // older build, so a missing or stale build is rebuilt first.
  if (appBuildIsStale()) ensureAppBuild();
  if (process.env.MONGODB_URI) {
    project.provide("mongoBaseUri", process.env.MONGODB_URI);
    return;
  }
  // As `npm test` does: a launcher jar older than its sources is built again (one that still cannot
  // start makes startEmbeddedDb fail, naming it).
  ensureLauncher();
  const dataDir = path.resolve(`.tmp/vitest-db-${process.pid}`);
  rmSync(dataDir, { recursive: true, force: true });
  const server = await startEmbeddedDb({ dataDir });
  project.provide("mongoBaseUri", server.uri);
  return async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    mongoBaseUri: string;
  }
}
