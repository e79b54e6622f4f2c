import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedDb } from "../app/utils/embedded-db.server";

/** One database server for the run; every test file gets a database of its own on it. */
export default async function setup(project: TestProject) {
  const build = path.resolve(process.env.BUILD_DIR ?? "build", "index.js");
  if (!existsSync(build)) {
    throw new Error(`${build} is missing: run \`npm test\` (it builds the app first)`);
  }
  if (process.env.MONGODB_URI) {
    project.provide("mongoBaseUri", process.env.MONGODB_URI);
    return;
  }
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
