import { json } from "@remix-run/node";
import { STARTING_RETRY_SECONDS, startingHealth } from "~/utils/starting.server";
import { pingDb } from "~/utils/db.server";

export async function loader() {
  const headers = { "Cache-Control": "no-store" };
  // Until the database first answers: why, and how far it got (docs/decisions/0029).
  const starting = startingHealth();
  if (starting) return json(starting, { status: 503, headers: { ...headers, "Retry-After": String(STARTING_RETRY_SECONDS) } });
  const ok = await pingDb(1000);
  return json({ status: ok ? "ok" : "unavailable" }, { status: ok ? 200 : 503, headers });
}
