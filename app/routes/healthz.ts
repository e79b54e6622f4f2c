import { json } from "@remix-run/node";
import { STARTING_RETRY_SECONDS, startingHealth } from "~/utils/starting.server";
import { pingDb } from "~/utils/db.server";
import { diskFullHealth } from "~/utils/disk.server";
import { env } from "~/utils/env.server";

export async function loader() {
  const headers = { "Cache-Control": "no-store" };
  // Until the database first answers: why, and how far it got (docs/decisions/0029).
  const starting = startingHealth();
  if (starting) return json(starting, { status: 503, headers: { ...headers, "Retry-After": String(STARTING_RETRY_SECONDS) } });
  const [ok, diskFull] = await Promise.all([pingDb(1000), diskFullHealth(env.DATA_DIR)]);
  if (!ok) return json({ status: "unavailable" }, { status: 503, headers });
  // Reads still work, writes are refused: not healthy, and it says why (docs/decisions/0038).
  if (diskFull) return json(diskFull.body, { status: 503, headers: { ...headers, "Retry-After": String(diskFull.retryAfterSeconds) } });
  return json({ status: "ok" }, { headers });
}
