import { json } from "@remix-run/node";
import { pingDb } from "~/utils/db.server";

export async function loader() {
  const ok = await pingDb(1000);
  return json(
    { status: ok ? "ok" : "unavailable" },
    { status: ok ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
