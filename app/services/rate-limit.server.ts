import { countRequest } from "~/models/rate-counter.server";
import { dbNowMs } from "~/utils/db-clock.server";

/**
 * One fixed-window limit in the database's counters (shared by every instance): counts the request
 * under `key` and answers null, or the seconds until the window ends when the count is over `max`.
 */
export async function countAgainstLimit({ key, max, windowS }: { key: string; max: number; windowS: number }) {
  const windowMs = windowS * 1000;
  const now = dbNowMs();
  const windowStart = new Date(Math.floor(now / windowMs) * windowMs);
  const count = await countRequest({ key, windowStart, expiresAt: new Date(windowStart.getTime() + 2 * windowMs) });
  return count > max ? Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now) / 1000)) : null;
}
