import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { mailServerSchema } from "~/schemas/email";
import { requireUser } from "~/services/auth.server";
import { getMailServerSettings, saveMailServerSettings } from "~/services/mail-config.server";
import { api, methods, parseJson } from "~/utils/http.server";

/** Settings → Email: the caller's mail server; the password only as `passwordSet`. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  return json(await getMailServerSettings(actor), { headers: { "Cache-Control": "no-store" } });
});

export const action = methods({
  PUT: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    const input = await parseJson(request, mailServerSchema);
    return json(await saveMailServerSettings(actor, input));
  },
});
