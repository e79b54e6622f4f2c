import { json, type ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { copyEmailTemplate } from "~/services/email-templates.server";
import { idempotentPost } from "~/services/idempotency.server";
import { methods } from "~/utils/http.server";

/** A copy of the template, named "<name> (Copy)" and never the default: 201 with it. */
export const action = methods({
  POST: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    return idempotentPost(actor, request, async () => json(await copyEmailTemplate(actor, params.id ?? ""), { status: 201 }));
  },
});
