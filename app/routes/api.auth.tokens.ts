import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { apiTokenSchema } from "~/schemas/auth";
import { createToken, listTokens } from "~/services/api-tokens.server";
import { requireUser } from "~/services/auth.server";
import { wholeListAnswer, wholeListQuery } from "~/utils/list-headers.server";
import { api, methods, parseJson } from "~/utils/http.server";

export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  return wholeListAnswer(request, await listTokens(actor, wholeListQuery(request)));
});

export const action = methods({
  POST: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    const input = await parseJson(request, apiTokenSchema);
    return json(await createToken(actor, input), { status: 201, headers: { "Cache-Control": "no-store" } });
  },
});
