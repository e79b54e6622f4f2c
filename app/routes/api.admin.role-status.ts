import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { forbidden, requireUser } from "~/services/auth.server";
import { roleStatus } from "~/services/users.server";
import { api } from "~/utils/http.server";

export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  // The real role decides: an admin previewing as dealer still reads its preview state.
  const actor = await requireUser(request);
  if (actor.realRole !== "admin") throw forbidden(request);
  return json(roleStatus(actor), { headers: { "Cache-Control": "no-store" } });
});
