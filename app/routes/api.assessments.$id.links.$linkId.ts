import { json, type ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { revokeEstimateLink } from "~/services/estimate-links.server";
import { methods } from "~/utils/http.server";

/** `DELETE /api/assessments/{id}/links/{linkId}`: revokes the link (its page answers 410 from now on). */
export const action = methods({
  DELETE: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    return json(await revokeEstimateLink(actor, params.id ?? "", params.linkId ?? ""));
  },
});
