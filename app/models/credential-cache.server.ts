import { LRUCache } from "lru-cache";
import type { MongooseQueryMiddleware, Query, Schema } from "mongoose";
import { broadcast, onBroadcast } from "~/utils/broadcast.server";

/**
 * The records every authenticated request reads before its own work (the API token, the user),
 * kept in memory for a few seconds: a burst of API calls then costs one query each instead of
 * three (docs/decisions/0014). Any write to those collections through this app empties the cache
 * in every worker at once, so a revoked token, a deleted user or a changed role takes effect on
 * the next request; only a change made outside the app (another machine, the database shell) can
 * go unseen, for at most CREDENTIAL_CACHE_MS.
 */
export const CREDENTIAL_CACHE_MS = 5_000;
const CHANNEL = "credentials-changed";

const entries = new LRUCache<string, { value: unknown }>({ max: 10_000, ttl: CREDENTIAL_CACHE_MS });
// A load that began before a change must not store what it read once the change has emptied the cache.
let generation = 0;

function forgetLocally() {
  generation++;
  entries.clear();
}
onBroadcast(CHANNEL, forgetLocally);

/** The value cached under `key`, or what `load` reads (kept only when it found something). */
export async function cachedCredential<T>(key: string, load: () => Promise<T | null>): Promise<T | null> {
  const hit = entries.get(key);
  if (hit) return hit.value as T;
  const startedAt = generation;
  const value = await load();
  if (value !== null && startedAt === generation) entries.set(key, { value });
  return value;
}

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

/**
 * Schema plugin: every successful write to this collection empties the cache in every worker,
 * except an update that only touches `bookkeeping` fields (a token's last use), which no request's
 * identity depends on.
 */
export function forgetCredentialsOnWrite(schema: Schema, { bookkeeping = [] }: { bookkeeping?: string[] } = {}) {
  const ignored = new Set([...bookkeeping, "updatedAt"]);
  const forget = () => broadcast(CHANNEL);
  schema.post(QUERY_WRITES, { document: false, query: true }, function (this: Query<unknown, unknown>) {
    const update = this.getUpdate();
    const fields = update ? Object.values(update).flatMap((set) => (set && typeof set === "object" ? Object.keys(set) : [])) : [];
    if (bookkeeping.length > 0 && fields.length > 0 && fields.every((field) => ignored.has(field))) return;
    forget();
  });
  schema.post(["save", "deleteOne"], { document: true, query: false }, forget);
  schema.post("bulkWrite", forget);
}
