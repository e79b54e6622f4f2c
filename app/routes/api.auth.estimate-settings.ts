import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { estimateSettingsSchema } from "~/schemas/estimate-settings";
import { requireUser } from "~/services/auth.server";
import { estimateSettingsOf, updateEstimateSettings } from "~/services/estimate-settings.server";
import { api, methods, parseJson } from "~/utils/http.server";

/** The account's estimate settings: tax rates per category (percent), terms, validity days, logo URL. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  return json(await estimateSettingsOf(actor.id));
});

/** Settings → Profile, Estimates: taxParts, taxLabour, taxMaterials, terms, validityDays (the logo has its own call). */
export const action = methods({
  PUT: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    const input = await parseJson(request, estimateSettingsSchema.strict("Unknown field: writable fields are taxParts, taxLabour, taxMaterials, terms, validityDays"));
    return json(await updateEstimateSettings(actor, input));
  },
});
