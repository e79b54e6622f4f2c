import { json, type ActionFunctionArgs } from "@remix-run/node";
import { aiProviderTestSchema } from "~/schemas/ai-provider";
import { testAiProvider } from "~/services/ai-provider.server";
import { requireAdmin } from "~/services/auth.server";
import { methods, parseJson } from "~/utils/http.server";

/**
 * `POST /api/admin/ai-provider/test`: one real chat completion with the given values (any left out
 * come from what is saved, else the environment): `{ok, message, latencyMs}`.
 */
export const action = methods({
  POST: async ({ request }: ActionFunctionArgs) => {
    await requireAdmin(request);
    const input = await parseJson(request, aiProviderTestSchema);
    return json(await testAiProvider(input), { headers: { "Cache-Control": "no-store" } });
  },
});
