import { json, type ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { redeliver } from "~/services/webhooks.server";
import { methods } from "~/utils/http.server";

export const action = methods({
  /** Sends the delivery's event to its endpoint again, now, with the same webhook-id. */
  POST: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    return json(await redeliver(actor, params.id ?? ""), { status: 202 });
  },
});
