import { json, type ActionFunctionArgs } from "@remix-run/node";
import { revokeToken } from "~/services/api-tokens.server";
import { requireUser } from "~/services/auth.server";
import { methods } from "~/utils/http.server";

export const action = methods({
  DELETE: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    await revokeToken(actor, params.id ?? "");
    return json({ message: "API token revoked" });
  },
});
