import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { dashboardStats } from "~/services/assessments.server";
import { requireUser } from "~/services/auth.server";
import { api } from "~/utils/http.server";

/** The dashboard's figures over the caller's assessments (an admin's: everyone's); see dashboardStats. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  return json(await dashboardStats(actor), { headers: { "Cache-Control": "no-store" } });
});
