import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { profileSchema } from "~/schemas/settings";
import { currentUserJson, requireUser } from "~/services/auth.server";
import { updateProfile } from "~/services/settings.server";
import { api, methods, parseJson } from "~/utils/http.server";

export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  return json(currentUserJson(actor), { headers: { "Cache-Control": "no-store" } });
});

/** Settings → Profile: firstName, lastName, email, phone, companyName. */
export const action = methods({
  PUT: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    const input = await parseJson(request, profileSchema);
    return json(await updateProfile(actor, input));
  },
});
