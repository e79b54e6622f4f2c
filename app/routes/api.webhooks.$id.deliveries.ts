import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { webhookDeliveryQuerySchema } from "~/schemas/webhooks";
import { requireUser } from "~/services/auth.server";
import { getEndpoint, listDeliveries } from "~/services/webhooks.server";
import { api, validationError } from "~/utils/http.server";

/** The endpoint's delivery log, newest first: status, response code and timing of every attempt; `?limit=&offset=`. */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  await getEndpoint(actor, params.id ?? "");
  const url = new URL(request.url);
  const query = webhookDeliveryQuerySchema.safeParse(Object.fromEntries(["limit", "offset"].flatMap((k) => (url.searchParams.has(k) ? [[k, url.searchParams.get(k)]] : []))));
  if (!query.success) throw validationError(query.error);
  return json(await listDeliveries(actor, params.id ?? "", query.data), { headers: { "Cache-Control": "no-store" } });
});
