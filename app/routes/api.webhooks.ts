import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { webhookEndpointCreateSchema } from "~/schemas/webhooks";
import { requireUser } from "~/services/auth.server";
import { createEndpoint, listEndpoints } from "~/services/webhooks.server";
import { wholeListAnswer, wholeListQuery } from "~/utils/list-headers.server";
import { api, methods, parseJson } from "~/utils/http.server";

/** The caller's webhook endpoints (never their secrets). */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  return wholeListAnswer(request, await listEndpoints(actor, wholeListQuery(request)));
});

export const action = methods({
  /** A new endpoint; the answer carries its signing secret, shown this once. */
  POST: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    const input = await parseJson(request, webhookEndpointCreateSchema);
    return json(await createEndpoint(actor, input), { status: 201, headers: { "Cache-Control": "no-store" } });
  },
});
