import { LRUCache } from "lru-cache";
import mongoose, { type MongooseQueryMiddleware, type Query, type Schema } from "mongoose";
import { broadcast, onBroadcast } from "~/utils/broadcast.server";
import { env } from "~/utils/env.server";

/**
 * Reads kept in memory for a few seconds and dropped by any write to the collections they come
 * from (docs/decisions/0014, 0016). A write through this app empties the cache in every worker of
 * its machine at once, and bumps the channel's version in the database (`cacheversions`), which
 * every process of every instance reads every CACHE_POLL_MS: a process whose last successful check
 * is older than three polls serves nothing from its cache, so a change made on another machine is
 * seen within 3 × CACHE_POLL_MS (750 ms by default), even when the database was briefly away.
 */
export const WRITE_CACHE_MS = 5_000;
const VERSIONS = "cacheversions";

const QUERY_WRITES: MongooseQueryMiddleware[] = [
  "updateOne",
  "updateMany",
  "replaceOne",
  "findOneAndUpdate",
  "findOneAndReplace",
  "findOneAndDelete",
  "deleteOne",
  "deleteMany",
];

/** Each channel's last version seen, and what empties its cache. */
const channels = new Map<string, { seen?: number; invalidate: () => void }>();
/** When the last successful version check began (performance.now()); hits are served only after a recent one. */
let checkedAt = -Infinity;
let checking = false;

const versions = () => (mongoose.connection.readyState === mongoose.ConnectionStates.connected ? mongoose.connection.db?.collection<{ _id: string; v: number }>(VERSIONS) : undefined);

/** One query for every channel: whose version moved since the last look. */
export async function checkVersions() {
  const collection = versions();
  if (!collection || checking) return;
  checking = true;
  const startedAt = performance.now();
  try {
    const docs = await collection.find({ _id: { $in: [...channels.keys()] } }).toArray();
    const found = new Map(docs.map((d) => [d._id, d.v]));
    for (const [name, channel] of channels) {
      const version = found.get(name) ?? 0;
      // The first look empties too: what was read before it may predate a change elsewhere.
      if (channel.seen !== version) channel.invalidate();
      channel.seen = version;
    }
    checkedAt = startedAt;
  } catch {
    // The database is away: hits stop being served once the last check is too old.
  } finally {
    checking = false;
  }
}

const fresh = () => performance.now() - checkedAt <= 3 * env.CACHE_POLL_MS;

let poller: ReturnType<typeof setInterval> | undefined;
function startPolling() {
  poller ??= setInterval(() => void checkVersions(), env.CACHE_POLL_MS);
  poller.unref();
}

export function writeCache(channel: string, { max = 10_000 }: { max?: number } = {}) {
  const entries = new LRUCache<string, { value: unknown }>({ max, ttl: WRITE_CACHE_MS });
  // A read that began before a write must not store what it read once the write emptied the cache.
  let generation = 0;
  // The reads under way, by key: callers missing at once share one (8 connections counting a common
  // search term ran 8 counts, and each new request another, until the first ended: issue 43).
  const loading = new Map<string, { generation: number; value: Promise<unknown> }>();
  const invalidate = () => {
    generation++;
    entries.clear();
    loading.clear();
  };
  channels.set(channel, { invalidate });
  onBroadcast(channel, invalidate);
  startPolling();
  /** Empties this machine's caches at once and tells every other instance through the database. */
  const forget = async () => {
    broadcast(channel);
    await versions()?.updateOne({ _id: channel }, { $inc: { v: 1 } }, { upsert: true });
  };

  return {
    /** The value kept under `key`, or what `load` reads (kept unless it is null: found nothing). */
    async get<T>(key: string, load: () => Promise<T>): Promise<T> {
      const hit = fresh() ? entries.get(key) : undefined;
      // Else a read begun since the last write (this machine's) answers this caller too.
      const shared = loading.get(key);
      const known = hit ? Promise.resolve(hit.value) : shared?.generation === generation ? shared.value : undefined;
      if (known) return known as Promise<T>;
      const startedAt = generation;
      const value = load();
      loading.set(key, { generation: startedAt, value });
      try {
        const loaded = await value;
        if (loaded !== null && startedAt === generation) entries.set(key, { value: loaded });
        return loaded;
      } finally {
        if (loading.get(key)?.value === value) loading.delete(key);
      }
    },

    /**
     * Schema plugin: every successful write to the collection empties the cache in every process of
     * every instance (the write answers once the version is bumped), except an update touching
     * only `bookkeeping` fields (a token's last use) that no read kept here depends on.
     */
    forgetOnWrite(schema: Schema, { bookkeeping = [] }: { bookkeeping?: string[] } = {}) {
      const ignored = new Set([...bookkeeping, "updatedAt"]);
      schema.post(QUERY_WRITES, { document: false, query: true }, async function (this: Query<unknown, unknown>) {
        const update = this.getUpdate();
        const fields = update ? Object.values(update).flatMap((set) => (set && typeof set === "object" ? Object.keys(set) : [])) : [];
        if (bookkeeping.length > 0 && fields.length > 0 && fields.every((field) => ignored.has(field))) return;
        await forget();
      });
      schema.post(["save", "deleteOne"], { document: true, query: false }, forget);
      schema.post("insertMany", forget);
      schema.post("bulkWrite", forget);
    },
  };
}

/**
 * The records every authenticated request reads before its own work (the API token, the user): a
 * burst of API calls then costs one query each instead of three. A revoked token, a deleted user
 * or a changed role takes effect on the next request on this machine, within 3 × CACHE_POLL_MS on
 * every other.
 */
export const credentialCache = writeCache("credentials-changed");
