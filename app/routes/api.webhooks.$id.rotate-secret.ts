import { json, type ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { rotateSecret } from "~/services/webhooks.server";
import { methods } from "~/utils/http.server";

export const action = methods({
  /** A new signing secret, answered once; the old one keeps signing beside it for a day. */
  POST: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    return json(await rotateSecret(actor, params.id ?? ""), { headers: { "Cache-Control": "no-store" } });
  },
});
