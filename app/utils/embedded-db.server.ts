import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import net from "node:net";
import path from "node:path";

export const LAUNCHER_PATH = path.resolve(
  process.env.FERRETDB_LAUNCHER ?? "tools/ferretdb/ferretdb-launcher",
);

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function waitForPort(port: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`embedded database did not open port ${port} within ${timeoutMs} ms`);
}

/** SIGTERM, then SIGKILL after 5 s; resolves once the process has exited. */
export async function stopProcess(proc: ChildProcess) {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => proc.kill("SIGKILL"), 5000);
    proc.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    proc.kill("SIGTERM");
  });
}

export interface EmbeddedDb {
  uri: string;
  port: number;
  /** The current server process id (changes after an automatic restart). */
  pid(): number | undefined;
  stop(): Promise<void>;
}

/**
 * Starts FerretDB (SQLite backend) on loopback and keeps it running: if it dies
 * unexpectedly it is restarted on the same port, so the app recovers by itself.
 */
export async function startEmbeddedDb(options: {
  dataDir: string;
  port?: number;
  supervise?: boolean;
  log?: (line: string) => void;
}): Promise<EmbeddedDb> {
  if (!existsSync(LAUNCHER_PATH)) {
    throw new Error(
      `The embedded database launcher is missing (${LAUNCHER_PATH}). Run "npm start" to build it, or set MONGODB_URI.`,
    );
  }
  const dbDir = path.resolve(options.dataDir, "db");
  mkdirSync(dbDir, { recursive: true });
  const port = options.port ?? (await freePort());
  const log = options.log ?? (() => {});
  let child: ChildProcess | undefined;
  let stopping = false;

  const launch = () => {
    const proc = spawn(
      LAUNCHER_PATH,
      ["-listen", `127.0.0.1:${port}`, "-dir", dbDir, "-watch-parent"],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    proc.stdout?.on("data", (d: Buffer) => log(d.toString()));
    proc.stderr?.on("data", (d: Buffer) => log(d.toString()));
    proc.on("exit", (code, signal) => {
      if (stopping || options.supervise === false) return;
      log(`embedded database exited (${signal ?? code}); restarting in 1 s\n`);
      setTimeout(() => {
        if (!stopping) child = launch();
      }, 1000).unref();
    });
    return proc;
  };

  child = launch();
  await waitForPort(port, 15_000);

  return {
    uri: `mongodb://127.0.0.1:${port}/`,
    port,
    pid: () => child?.pid,
    async stop() {
      stopping = true;
      if (child) await stopProcess(child);
    },
  };
}
