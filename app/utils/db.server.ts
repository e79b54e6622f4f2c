import mongoose from "mongoose";
import cluster from "node:cluster";
import path from "node:path";
import { jsonWithout } from "./json-shape";
import { retiredIndexesOf } from "./retired-indexes.server";
import { followDbClock } from "./db-clock.server";
import { env } from "./env.server";
import { startEmbeddedDb, type EmbeddedDb } from "./embedded-db.server";
import { log } from "./log.server";
import { errorMessage } from "./unknown-values";

// Injection defence: filters built from request data never carry operators,
// and unknown paths in filters are dropped.
mongoose.set("sanitizeFilter", true);
mongoose.set("strictQuery", true);
mongoose.set("bufferCommands", false);
// API shape: `id` instead of `_id`, no `__v`; dates become ISO strings in JSON.
mongoose.set("toJSON", jsonWithout());

const DEFAULT_DB_NAME = "damage_assess";

interface DbState {
  /** Resolves once the database first answered and start-up (clock, indexes) ran, or it was closed before; never rejects. */
  ready: Promise<void>;
  embedded?: EmbeddedDb;
  /** Set once `ready` resolved: from then on an outage is the driver's to ride out (it reconnects). */
  up: boolean;
  startingSince: number;
  /** Why the last attempt to connect failed (an unreachable MONGODB_URI says so here). */
  lastError?: string;
  /** Once up: the last ping went unanswered (watchForStalls). */
  stalled: boolean;
  closed: boolean;
}

declare global {
  // One per process, kept across dev reloads of this module.
  var __db: DbState | undefined;
}
const globalForDb: { __db?: DbState } = globalThis;

/** The embedded engine in DATA_DIR, supervised (restarted if it dies); its URI is known before it listens. */
export const startEmbedded = async () => {
  const database = await startEmbeddedDb({
    dataDir: env.DATA_DIR,
    port: env.EMBEDDED_DB_PORT,
    heap: env.EMBEDDED_DB_HEAP,
    wait: false,
    // The launcher logs errors only; each line is worth passing on.
    log: (chunk) => {
      for (const line of chunk.split("\n")) {
        if (line.trim() !== "") process.stderr.write(`[db] ${line}\n`);
      }
    },
  });
  // Said at every start: tools pointed at it (a shell, a backup) need the address.
  log.info(`Embedded database: ${database.uri} (data in ${path.join(env.DATA_DIR, "db")}; the port stays the same across restarts)`);
  return database;
};

/** What the engine said it is doing, as the cluster's primary (which runs it) relays it to its workers. */
let relayedProgress: string | undefined;
if (cluster.isWorker) {
  process.on("message", (message: { databaseProgress?: string | null }) => {
    if (message && typeof message === "object" && "databaseProgress" in message) relayedProgress = message.databaseProgress ?? undefined;
  });
}

/** 0.25 s doubling to 5 s, each wait somewhere in its upper half so that several workers do not retry in step. */
const retryDelayMs = (attempt: number) => Math.min(250 * 2 ** attempt, 5000) * (0.5 + Math.random() / 2);

/**
 * Tries `step` until it succeeds, however long that takes (a large embedded data directory opens in
 * minutes; a MongoDB may come up after the app): the app never latches a failed connection
 * (docs/decisions/0029). Each new reason is logged once.
 */
async function untilDone(state: DbState, step: () => Promise<unknown>) {
  for (let attempt = 0; ; attempt++) {
    if (state.closed) return false;
    try {
      await step();
      return true;
    } catch (error) {
      const message = errorMessage(error);
      if (message !== state.lastError) log.error(`Database not reachable yet (${message}); trying again until it is.`);
      state.lastError = message;
      await new Promise((r) => setTimeout(r, retryDelayMs(attempt)));
    }
  }
}

const dbNameOf = (uri: string) => new URL(uri.replace(/^mongodb(\+srv)?:/, "http:")).pathname.slice(1) || DEFAULT_DB_NAME;

async function connect(state: DbState) {
  let uri = env.MONGODB_URI;
  if (!uri && !(await untilDone(state, async () => (state.embedded ??= await startEmbedded())))) return;
  if (state.embedded) {
    uri = state.embedded.uri;
    // Supervised, it listens sooner or later; meanwhile there is nothing to connect to.
    await state.embedded.listening;
  }
  const connected = await untilDone(state, async () => {
    try {
      await mongoose.connect(uri!, {
        dbName: dbNameOf(uri!),
        // Notice a lost database within about a second and fail requests fast (503)
        // instead of queueing them; the driver reconnects on its own.
        serverSelectionTimeoutMS: 1500,
        heartbeatFrequencyMS: 1000,
        // A stalled database (connections open, nothing answers) fails the driver's check of it after
        // this long, which clears the pool and interrupts the operations waiting on it (the default,
        // 30 s, held them that long). Requests are answered 503 sooner by the stall watch below.
        connectTimeoutMS: 5000,
        // Indexes are built below, once connected: mongoose's automatic build runs when a model is
        // compiled, which (with bufferCommands off) fails for every model compiled before the
        // connection opened, and races collection creation with our build.
        autoIndex: false,
        autoCreate: false,
      });
    } catch (error) {
      // A failed first connection is not retried by the driver: close it and open a new one.
      await mongoose.disconnect().catch(() => {});
      throw error;
    }
  });
  if (!connected) return;
  await followDbClock();
  await createIndexes();
  state.up = true;
  state.lastError = undefined;
  watchForStalls(state);
}

/** How often the stall watch pings (each ping is given DB_STALL_MS). */
const STALL_CHECK_EVERY_MS = 250;

/**
 * Pings the database every quarter second, each ping given DB_STALL_MS (docs/decisions/0045): a
 * database that stopped answering (stalled, or gone) is known here within about 1.25 s at the default,
 * so requests waiting on it are answered 503 instead of hanging for the driver's timeouts.
 */
function watchForStalls(state: DbState) {
  const check = async () => {
    if (state.closed) return;
    const answered = await pingDb(env.DB_STALL_MS);
    if (answered === state.stalled) {
      state.stalled = !answered;
      log[answered ? "info" : "warn"](answered ? "The database answers again." : `The database did not answer a ping within ${env.DB_STALL_MS} ms.`);
    }
    setTimeout(check, STALL_CHECK_EVERY_MS).unref();
  };
  void check();
}

/** Whether the database, once up, stopped answering its pings. */
export const databaseStalled = () => {
  const state = db();
  return state.up && state.stalled;
};

/**
 * Every model's declared indexes, one model after another, before the first request, and its
 * retired ones dropped. A failure is logged and start-up goes on: a missing index makes lists slow,
 * never wrong (a unique index that cannot be built is reported here and by the writes it would have
 * refused).
 */
async function createIndexes() {
  for (const model of Object.values(mongoose.models)) {
    try {
      await model.createIndexes();
      const present = new Set((await model.collection.indexes()).map((index) => index.name));
      for (const name of retiredIndexesOf(model)) if (present.has(name)) await model.collection.dropIndex(name);
    } catch (error) {
      log.error(`Could not build the indexes of ${model.collection.collectionName}: ${errorMessage(error)}`);
    }
  }
}

function start(): DbState {
  const state: DbState = { ready: Promise.resolve(), up: false, startingSince: Date.now(), stalled: false, closed: false };
  state.ready = connect(state);
  return state;
}

export function db(): DbState {
  return (globalForDb.__db ??= start());
}

/** Closes the connection and stops the embedded database (acknowledged writes are on disk). */
export async function closeDb() {
  const state = globalForDb.__db;
  if (!state) return;
  state.closed = true;
  await mongoose.disconnect();
  await state.embedded?.stop();
  globalForDb.__db = undefined;
}

/** Until the database first answered: why the app is not ready, for /healthz and the "starting" page. */
export interface DatabaseStarting {
  startingSeconds: number;
  /** What the embedded engine last said it is doing while it opens. */
  progress?: string;
  lastError?: string;
}

/** Null once the database has been up (a later outage is an outage, not a start). */
export function databaseStarting(): DatabaseStarting | null {
  const state = db();
  if (state.up) return null;
  const progress = state.embedded?.progress() ?? relayedProgress;
  return {
    startingSeconds: Math.floor((Date.now() - state.startingSince) / 1000),
    ...(progress ? { progress } : {}),
    ...(state.lastError ? { lastError: state.lastError } : {}),
  };
}

/**
 * `work`, or a rejection once `ms` passed without it. The deadline's verdict waits for one more turn
 * of the event loop's I/O (setImmediate runs after it): when this process itself was held past the
 * deadline (a long render, a large parse), the database's answer that arrived meanwhile is read
 * first and counts, so a busy app does not call its database stalled (docs/decisions/0045).
 */
function within<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => setImmediate(() => !settled && reject(new Error("timeout"))), ms);
    work.then(
      (value) => {
        settled = true;
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        settled = true;
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Pings the database with a short deadline; false when it does not answer. */
export async function pingDb(timeoutMs = 1000): Promise<boolean> {
  try {
    await within(db().ready, timeoutMs);
    const admin = mongoose.connection.db?.admin();
    if (!admin) return false;
    await within(admin.ping(), timeoutMs);
    return true;
  } catch {
    return false;
  }
}
