import { json, type ActionFunctionArgs } from "@remix-run/node";
import { settleEmailSchema } from "~/schemas/email";
import { requireUser } from "~/services/auth.server";
import { resendEmail } from "~/services/email-settle.server";
import { methods, parseJson } from "~/utils/http.server";

/** An email of unknown delivery, sent again: 202 with the new entry (docs/decisions/0054). */
export const action = methods({
  POST: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    await parseJson(request, settleEmailSchema);
    const { log } = await resendEmail(actor, params.id ?? "");
    return json(log, { status: 202 });
  },
});
