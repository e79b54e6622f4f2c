import { json, type ActionFunctionArgs } from "@remix-run/node";
import { linkMetaSchema } from "~/schemas/uploads";
import { requireUser } from "~/services/auth.server";
import { linkMeta } from "~/services/storage/remote-import.server";
import { methods, parseJson } from "~/utils/http.server";

/**
 * The Companion protocol's `POST url/meta` `{url}` → `{name, type, size}` (the widget's URL source,
 * decision 0068): what the link declares, fetched through the outbound rule.
 */
export const action = methods({
  POST: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    const body = await parseJson(request, linkMetaSchema);
    return json(await linkMeta(actor, { url: body.url }));
  },
});
