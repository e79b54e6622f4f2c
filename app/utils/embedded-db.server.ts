import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { createInterface } from "node:readline";
import { DISK_RESERVE_MB } from "./disk.server";

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
      const address = server.address();
      // A TCP server's address is an object (a string is a pipe's or socket file's).
      if (address === null || typeof address === "string") return server.close(() => reject(new Error("The probe server has no port")));
      server.close(() => resolve(address.port));
    });
  });
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
  /**
   * Resolves when the engine first listens; rejects if it exits before, unsupervised or while the
   * caller waits for it (`wait`, the default).
   */
  listening: Promise<void>;
  /** What the engine last said it is doing while it opens (`embedded database opening: …`); undefined once it listens. */
  progress(): string | undefined;
  stop(): Promise<void>;
}

const OPENING = "embedded database opening: ";
const LISTENING = "embedded database listening on ";
/** A crashed engine is restarted after 1 s, doubling on repeated crashes up to this. */
const MAX_RESTART_DELAY_MS = 30_000;
/** An engine that listened this long crashed on its own, not in a loop: the next restart is quick again. */
const STABLE_MS = 60_000;

/**
 * Starts the embedded database (mongo-java-server with H2, through our launcher; see
 * docs/decisions/0005) on loopback and keeps it running: if it dies unexpectedly it is restarted on
 * the same port (later and later when it keeps dying), so the app recovers by itself. It exits when
 * our process goes away (its stdin closes). Opening a large data directory takes as long as it takes
 * (docs/decisions/0029): `wait: false` answers at once (the port, hence the URI, is known before the
 * engine listens) and the caller connects when it can; by default it resolves once the engine listens.
 */
export async function startEmbeddedDb(options: {
  dataDir: string;
  port?: number;
  heap?: string;
  supervise?: boolean;
  wait?: boolean;
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
  let progress: string | undefined;
  let restartDelay = 1000;
  // Waited for and never listened yet: an engine that cannot start at all (a stale or broken
  // launcher jar) is an error to report, not one to restart forever while the caller hangs.
  let waitedFor = options.wait !== false;
  let listened: () => void = () => {};
  let failed: (error: Error) => void = () => {};
  const listening = new Promise<void>((resolve, reject) => {
    listened = resolve;
    failed = reject;
  });
  listening.catch(() => {});

  const launch = () => {
    const startedAt = Date.now();
    let listeningAt: number | undefined;
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
        // Writes refused below this much free space, reads go on (docs/decisions/0038).
        "--reserve-mb",
        String(DISK_RESERVE_MB),
        "--watch-stdin",
      ],
      { stdio: ["pipe", "pipe", "pipe"] },
    );
    // Standard output says what it is doing while it opens, then that it listens; errors (and
    // nothing else) come on standard error.
    createInterface({ input: proc.stdout! }).on("line", (line) => {
      if (line.startsWith(OPENING)) progress = line.slice(OPENING.length).trim();
      else if (line.startsWith(LISTENING)) {
        progress = undefined;
        listeningAt = Date.now();
        waitedFor = false;
        listened();
      }
    });
    let said = "";
    proc.stderr?.on("data", (d: Buffer) => {
      said = (said + d.toString()).slice(-2000);
      log(d.toString());
    });
    let ended = false;
    // A process that could not be spawned (no java) may report "error" without "exit".
    const end = (how: string) => {
      if (ended) return;
      ended = true;
      progress = undefined;
      if (stopping) return;
      if (options.supervise === false || waitedFor) {
        // What it said on standard error (java's "Invalid or corrupt jarfile"…) may still be arriving.
        const report = () => {
          const why = said.trim() ? `: ${said.trim()}` : "";
          failed(new Error(`embedded database exited (${how}) before it listened on port ${port} (launcher ${LAUNCHER_JAR})${why}`));
        };
        if (proc.stderr && !proc.stderr.closed) proc.stderr.once("close", report);
        else report();
        return;
      }
      restartDelay = listeningAt !== undefined && Date.now() - listeningAt >= STABLE_MS ? 1000 : restartDelay;
      log(`embedded database exited (${how}) after ${Math.round((Date.now() - startedAt) / 1000)} s; restarting in ${restartDelay / 1000} s\n`);
      setTimeout(() => {
        if (!stopping) child = launch();
      }, restartDelay).unref();
      restartDelay = Math.min(restartDelay * 2, MAX_RESTART_DELAY_MS);
    };
    proc.on("error", (error) => {
      log(`embedded database could not start: ${error.message}\n`);
      end(error.message);
    });
    proc.on("exit", (code, signal) => end(String(signal ?? code)));
    return proc;
  };

  child = launch();
  if (options.wait !== false) await listening;

  return {
    uri: `mongodb://127.0.0.1:${port}/`,
    port,
    pid: () => child?.pid,
    listening,
    progress: () => progress,
    async stop() {
      stopping = true;
      if (child) await stopProcess(child);
    },
  };
}
