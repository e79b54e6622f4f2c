import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { testConnection } from "~/services/mail-config.server";
import { api } from "~/utils/http.server";

/** `{connected, reason?, via}`: `transporter.verify()` against the caller's mail route, now (Test Connection). */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  return json(await testConnection(actor, { fresh: true }), { headers: { "Cache-Control": "no-store" } });
});
