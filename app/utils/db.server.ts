import mongoose from "mongoose";
import path from "node:path";
import { jsonWithout } from "./json-shape";
import { retiredIndexesOf } from "./retired-indexes.server";
import { followDbClock } from "./db-clock.server";
import { env } from "./env.server";
import { startEmbeddedDb, type EmbeddedDb } from "./embedded-db.server";

// Injection defence: filters built from request data never carry operators,
// and unknown paths in filters are dropped.
mongoose.set("sanitizeFilter", true);
mongoose.set("strictQuery", true);
mongoose.set("bufferCommands", false);
// API shape: `id` instead of `_id`, no `__v`; dates become ISO strings in JSON.
mongoose.set("toJSON", jsonWithout());

const DEFAULT_DB_NAME = "damage_assess";

interface DbState {
  ready: Promise<void>;
  embedded?: EmbeddedDb;
}

const globalForDb = globalThis as unknown as { __db?: DbState };

/** The embedded engine in DATA_DIR, supervised (restarted if it dies). */
export const startEmbedded = async () => {
  const database = await startEmbeddedDb({
    dataDir: env.DATA_DIR,
    port: env.EMBEDDED_DB_PORT,
    heap: env.EMBEDDED_DB_HEAP,
    // The launcher logs errors only; each line is worth passing on.
    log: (chunk) => {
      for (const line of chunk.split("\n")) {
        if (line.trim() !== "") process.stderr.write(`[db] ${line}\n`);
      }
    },
  });
  // Said at every start: tools pointed at it (a shell, a backup) need the address.
  console.log(`Embedded database: ${database.uri} (data in ${path.join(env.DATA_DIR, "db")}; the port stays the same across restarts)`);
  return database;
};

async function connect(state: DbState) {
  let uri = env.MONGODB_URI;
  if (!uri) {
    state.embedded = await startEmbedded();
    uri = state.embedded.uri;
  }
  await mongoose.connect(uri, {
    dbName: new URL(uri.replace(/^mongodb(\+srv)?:/, "http:")).pathname.slice(1) || DEFAULT_DB_NAME,
    // Notice a lost database within about a second and fail requests fast (503)
    // instead of queueing them; the driver reconnects on its own.
    serverSelectionTimeoutMS: 1500,
    heartbeatFrequencyMS: 1000,
    // Indexes are built below, once connected: mongoose's automatic build runs when a model is
    // compiled, which (with bufferCommands off) fails for every model compiled before the
    // connection opened, and races collection creation with our build.
    autoIndex: false,
    autoCreate: false,
  });
  await followDbClock();
  await createIndexes();
}

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
      console.error(`Could not build the indexes of ${model.collection.collectionName}: ${(error as Error).message}`);
    }
  }
}

function start(): DbState {
  const state: DbState = { ready: Promise.resolve() };
  state.ready = connect(state).catch((error: unknown) => {
    console.error(`Database connection failed: ${(error as Error).message}`);
    throw error;
  });
  // Awaited by callers; never an unhandled rejection at boot.
  state.ready.catch(() => {});

  return state;
}

export function db(): DbState {
  return (globalForDb.__db ??= start());
}

/** Closes the connection and stops the embedded database (acknowledged writes are on disk). */
export async function closeDb() {
  const state = globalForDb.__db;
  if (!state) return;
  await mongoose.disconnect();
  await state.embedded?.stop();
  globalForDb.__db = undefined;
}

export function isDbConnected() {
  return mongoose.connection.readyState === mongoose.ConnectionStates.connected;
}

/** Pings the database with a short deadline; false when it does not answer. */
export async function pingDb(timeoutMs = 1000): Promise<boolean> {
  try {
    await Promise.race([
      db().ready,
      new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), timeoutMs)),
    ]);
    const admin = mongoose.connection.db?.admin();
    if (!admin) return false;
    await Promise.race([
      admin.ping(),
      new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), timeoutMs)),
    ]);
    return true;
  } catch {
    return false;
  }
}
