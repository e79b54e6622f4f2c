import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { webhookEndpointUpdateSchema } from "~/schemas/webhooks";
import { requireUser } from "~/services/auth.server";
import { deleteEndpoint, editEndpoint, getEndpoint } from "~/services/webhooks.server";
import { api, methods, parseJson } from "~/utils/http.server";

export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  return json(await getEndpoint(actor, params.id ?? ""), { headers: { "Cache-Control": "no-store" } });
});

export const action = methods({
  PUT: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    // Another account's id is a 404 whatever the body says.
    await getEndpoint(actor, params.id ?? "");
    const input = await parseJson(request, webhookEndpointUpdateSchema);
    return json(await editEndpoint(actor, params.id ?? "", input));
  },
  DELETE: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    await deleteEndpoint(actor, params.id ?? "");
    return json({ message: "Webhook endpoint deleted" });
  },
});
