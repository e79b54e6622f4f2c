import { discardUploadsOf } from "./account-archive.server";

/**
 * Server-side caches that hold something of one account. Settings → System → Clear Cache empties
 * every one of them for the caller and says what each cleared. A module with such a cache registers
 * it here once (the mailer's compiled templates join at merge).
 */
export interface AccountCache {
  name: string;
  /** Drops what the cache holds for the account; answers how many entries went. */
  clear(ownerId: string): number | Promise<number>;
}

const caches = new Map<string, AccountCache>();

/** Registers (or replaces, by name: a module evaluated again in development) a cache. */
export function registerAccountCache(cache: AccountCache) {
  caches.set(cache.name, cache);
}

export async function clearAccountCaches(ownerId: string) {
  const cleared: { name: string; entries: number }[] = [];
  for (const cache of caches.values()) cleared.push({ name: cache.name, entries: await cache.clear(ownerId) });
  return cleared;
}

// Uploaded import archives waiting for their confirmation (Settings → System → Import Data).
registerAccountCache({
  name: "Pending data imports",
  clear: (ownerId) => discardUploadsOf(ownerId, { keepUnfinished: true }),
});
