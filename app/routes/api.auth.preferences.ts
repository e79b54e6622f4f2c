import { json, type ActionFunctionArgs } from "@remix-run/node";
import { preferencesSchema } from "~/schemas/settings";
import { requireUser } from "~/services/auth.server";
import { getSession } from "~/services/session.server";
import { updatePreferences } from "~/services/settings.server";
import { methods, parseJson } from "~/utils/http.server";

/** Settings → Security and Appearance, and the default vendor: only the fields sent change. */
export const action = methods({
  PUT: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    const input = await parseJson(request, preferencesSchema);
    const sessionId = actor.via === "session" ? (await getSession(request)).id : undefined;
    return json(await updatePreferences(actor, input, sessionId || undefined));
  },
});
