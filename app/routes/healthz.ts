import { json } from "@remix-run/node";
import { STARTING_RETRY_SECONDS, startingHealth } from "~/utils/starting.server";
import { databaseStalled, pingDb } from "~/utils/db.server";
import { diskFullHealth } from "~/utils/disk.server";
import { env } from "~/utils/env.server";

export async function loader() {
  const headers = { "Cache-Control": "no-store" };
  // Until the database first answers: why, and how far it got (docs/decisions/0029).
  const starting = startingHealth();
  if (starting) return json(starting, { status: 503, headers: { ...headers, "Retry-After": String(STARTING_RETRY_SECONDS) } });
  const [ok, diskFull] = await Promise.all([pingDb(1000), diskFullHealth(env.DATA_DIR)]);
  // Unavailable until the stall watch has seen it answer too: "ok" means requests are served.
  if (!ok || databaseStalled()) return json({ status: "unavailable" }, { status: 503, headers: { ...headers, "Retry-After": "2" } });
  // Reads still work, writes are refused: not healthy, and it says why (docs/decisions/0038).
  if (diskFull) return json(diskFull.body, { status: 503, headers: { ...headers, "Retry-After": String(diskFull.retryAfterSeconds) } });
  return json({ status: "ok" }, { headers });
}
