import { json, type ActionFunctionArgs } from "@remix-run/node";
import { settleEmailSchema } from "~/schemas/email";
import { requireUser } from "~/services/auth.server";
import { markEmailDelivered } from "~/services/email-settle.server";
import { methods, parseJson } from "~/utils/http.server";

/** An email of unknown delivery the dealer confirms arrived: 200 with it, sent (docs/decisions/0054). */
export const action = methods({
  POST: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    await parseJson(request, settleEmailSchema);
    return json(await markEmailDelivered(actor, params.id ?? ""));
  },
});
