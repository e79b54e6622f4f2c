import { LRUCache } from "lru-cache";
import type { MongooseQueryMiddleware, Query, Schema } from "mongoose";
import { broadcast, onBroadcast } from "~/utils/broadcast.server";

/**
 * Reads kept in memory for a few seconds and dropped by any write to the collections they come
 * from (docs/decisions/0014). A write through this app empties the cache in every worker at once,
 * so the next request sees it; only a change made outside the app (another machine sharing the
 * database, the database shell) can go unseen, for at most WRITE_CACHE_MS.
 */
export const WRITE_CACHE_MS = 5_000;

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

export function writeCache(channel: string, { max = 10_000 }: { max?: number } = {}) {
  const entries = new LRUCache<string, { value: unknown }>({ max, ttl: WRITE_CACHE_MS });
  // A read that began before a write must not store what it read once the write emptied the cache.
  let generation = 0;
  onBroadcast(channel, () => {
    generation++;
    entries.clear();
  });
  const forget = () => broadcast(channel);

  return {
    /** The value kept under `key`, or what `load` reads (kept unless it is null: found nothing). */
    async get<T>(key: string, load: () => Promise<T>): Promise<T> {
      const hit = entries.get(key);
      if (hit) return hit.value as T;
      const startedAt = generation;
      const value = await load();
      if (value !== null && startedAt === generation) entries.set(key, { value });
      return value;
    },

    /**
     * Schema plugin: every successful write to the collection empties the cache in every worker,
     * except an update touching only `bookkeeping` fields (a token's last use) that no read kept
     * here depends on.
     */
    forgetOnWrite(schema: Schema, { bookkeeping = [] }: { bookkeeping?: string[] } = {}) {
      const ignored = new Set([...bookkeeping, "updatedAt"]);
      schema.post(QUERY_WRITES, { document: false, query: true }, function (this: Query<unknown, unknown>) {
        const update = this.getUpdate();
        const fields = update ? Object.values(update).flatMap((set) => (set && typeof set === "object" ? Object.keys(set) : [])) : [];
        if (bookkeeping.length > 0 && fields.length > 0 && fields.every((field) => ignored.has(field))) return;
        forget();
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
 * or a changed role takes effect on the next request.
 */
export const credentialCache = writeCache("credentials-changed");
