import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";

/** The launcher jar that `npm start` / `npm test` build with Maven (tools/mongo-launcher). */
export const LAUNCHER_JAR = path.resolve(
  process.env.EMBEDDED_DB_JAR ?? "tools/mongo-launcher/target/mongo-launcher.jar",
);

/** JVM heap for the embedded database: `512m`, `1g`, … (env EMBEDDED_DB_HEAP). */
export const DEFAULT_HEAP = "512m";

/** A heap size in megabytes; the MVStore page cache gets a quarter of it. */
export function heapMegabytes(heap: string) {
  const match = /^(\d+)([mg])$/i.exec(heap.trim());
  if (!match) throw new Error(`EMBEDDED_DB_HEAP must look like 512m or 1g, not "${heap}"`);
  return Number(match[1]) * (match[2].toLowerCase() === "g" ? 1024 : 1);
}

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

/** Where the embedded database's port is kept, so it stays the same from one start to the next. */
export const portFile = (dataDir: string) => path.resolve(dataDir, "db", "port");

const isFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });

/**
 * The port this data directory's engine used before (anything pointed at it keeps working after a
 * restart); the first time, or when something else took it meanwhile, a free one, kept from then on.
 */
async function storedPort(dataDir: string) {
  const file = portFile(dataDir);
  const previous = Number(readFileSync(file, { encoding: "utf8", flag: "a+" }).trim());
  if (Number.isInteger(previous) && previous > 0 && previous < 65536 && (await isFree(previous))) return previous;
  const port = await freePort();
  writeFileSync(file, `${port}\n`);
  return port;
}

export interface EmbeddedDb {
  uri: string;
  port: number;
  /** The current server process id (changes after an automatic restart). */
  pid(): number | undefined;
  stop(): Promise<void>;
}

/**
 * Starts the embedded database (mongo-java-server with H2, through our launcher; see
 * docs/decisions/0005) on loopback and keeps it running: if it dies unexpectedly it is restarted on
 * the same port, so the app recovers by itself. It exits when our process goes away (its stdin closes).
 */
export async function startEmbeddedDb(options: {
  dataDir: string;
  port?: number;
  heap?: string;
  supervise?: boolean;
  log?: (line: string) => void;
}): Promise<EmbeddedDb> {
  if (!existsSync(LAUNCHER_JAR)) {
    throw new Error(
      `The embedded database launcher is missing (${LAUNCHER_JAR}). Run "npm start" to build it, or set MONGODB_URI.`,
    );
  }
  const dbDir = path.resolve(options.dataDir, "db");
  mkdirSync(dbDir, { recursive: true });
  const port = options.port ?? (await storedPort(options.dataDir));
  const heapMb = heapMegabytes(options.heap ?? DEFAULT_HEAP);
  const log = options.log ?? (() => {});
  let child: ChildProcess | undefined;
  let stopping = false;

  const launch = () => {
    const proc = spawn(
      "java",
      [
        `-Xmx${heapMb}m`,
        // Two cores and one user of the heap: the serial collector is the lightest.
        "-XX:+UseSerialGC",
        // Out of memory: exit, so the supervisor restarts it instead of a half-working server.
        "-XX:+ExitOnOutOfMemoryError",
        "-jar",
        LAUNCHER_JAR,
        "--port",
        String(port),
        "--dir",
        dbDir,
        "--cache-mb",
        String(Math.max(16, Math.floor(heapMb / 4))),
        "--watch-stdin",
      ],
      { stdio: ["pipe", "pipe", "pipe"] },
    );
    // Standard output says only "listening"; errors (and nothing else) come on standard error.
    proc.stdout?.resume();
    proc.stderr?.on("data", (d: Buffer) => log(d.toString()));
    proc.on("error", (error) => log(`embedded database could not start: ${error.message}\n`));
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
  await waitForPort(port, 20_000);

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
