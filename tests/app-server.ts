import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, stopProcess } from "../app/utils/embedded-db.server";

/**
 * The suite's own mail servers (tests/smtp-server.ts) listen on 127.0.0.1, which the app refuses as an
 * account's mail server (app/utils/outbound.server.ts) unless the operator allows it: add this to the
 * env of an app whose tests save 127.0.0.1 under Settings → Email. Apps started without it hold the rule.
 */
export const ALLOW_LOCAL_MAIL_SERVERS = { OUTBOUND_ALLOW: "loopback" } as const;

const START_TIMEOUT_MS = 120_000;

export interface RunningApp {
  url: string;
  dataDir: string;
  process: ChildProcess;
  /** Everything the app wrote to stdout and stderr so far (its server log). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts the built app (server.mjs + build/) on a free port against the given database (`mongoUri:
 * null`: the embedded default in its DATA_DIR), and waits until /healthz says 200, or with
 * `waitFor: "answering"` until it answers at all (an app whose database is not up yet).
 */
export async function startApp(
  options: { mongoUri?: string | null; env?: Record<string, string>; port?: number; waitFor?: "healthy" | "answering"; dataDir?: string } = {},
): Promise<RunningApp> {
  // By default the app shares this test file's fresh database (see tests/setup-file.ts).
  const mongoUri = options.mongoUri === null ? undefined : (options.mongoUri ?? process.env.MONGODB_URI);
  if (!mongoUri && options.mongoUri !== null) throw new Error("no database URI for the app");
  // A caller may pick the port first, when another server must know the app's origin in advance.
  const port = options.port ?? (await freePort());
  // A given DATA_DIR is the caller's (a kept installation, tests/data-dir-fixtures): stop leaves it.
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), "damage-app-"));
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const proc = spawn(
    process.execPath,
    [path.join(root, "server.mjs")],
    {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(port),
        DATA_DIR: dataDir,
        MONGODB_URI: mongoUri ?? "",
        // One process per test app (test files run side by side); the cluster has its own test.
        WEB_CONCURRENCY: "1",
        // Many apps and engines share two cores here: a ping slower than a second is load, not a
        // stalled database. The stall and busy tests (app/routes/healthz.test.ts,
        // app/utils/db.busy.server.test.ts) run the default, 1000.
        DB_STALL_MS: "4000",
        ...options.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  proc.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  proc.stderr?.on("data", (d: Buffer) => (output += d.toString()));

  const url = `http://127.0.0.1:${port}`;
  // Generous: on a loaded machine the database and the app's first connection can take a while.
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`app exited at start:\n${output}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.status === 200 || options.waitFor === "answering") break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      proc.kill("SIGKILL");
      throw new Error(`app did not ${options.waitFor === "answering" ? "answer" : "become healthy"} within ${START_TIMEOUT_MS / 1000} s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    url,
    dataDir,
    process: proc,
    output: () => output,
    async stop() {
      await stopProcess(proc);
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
