import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { getEmailLog } from "~/services/email-logs.server";
import { api } from "~/utils/http.server";

/** One log with its rendered message (`html`, `text`) and its delivery attempts; 404 for another account's. */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  return json(await getEmailLog(actor, params.id ?? ""), { headers: { "Cache-Control": "no-store" } });
});
