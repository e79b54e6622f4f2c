import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { aiProviderSchema } from "~/schemas/ai-provider";
import { getAiProviderSettings, removeAiProviderSettings, saveAiProviderSettings } from "~/services/ai-provider.server";
import { requireAdmin } from "~/services/auth.server";
import { api, methods, parseJson } from "~/utils/http.server";

/** Admin Settings → AI Provider: the installation's provider; the key only as `apiKeySet`. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  await requireAdmin(request);
  return json(await getAiProviderSettings(), { headers: { "Cache-Control": "no-store" } });
});

export const action = methods({
  PUT: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireAdmin(request);
    const input = await parseJson(request, aiProviderSchema);
    return json(await saveAiProviderSettings(actor, input));
  },
  /** Back to the OPENAI_* environment (or no provider). */
  DELETE: async ({ request }: ActionFunctionArgs) => {
    await requireAdmin(request);
    return json(await removeAiProviderSettings());
  },
});
