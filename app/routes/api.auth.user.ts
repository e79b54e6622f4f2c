import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { currentUserJson, requireUser } from "~/services/auth.server";
import { api } from "~/utils/http.server";

export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  return json(currentUserJson(actor), { headers: { "Cache-Control": "no-store" } });
});
