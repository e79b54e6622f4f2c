import { json, type ActionFunctionArgs } from "@remix-run/node";
import { approveAssessment } from "~/services/assessments.server";
import { requireUser } from "~/services/auth.server";
import { methods } from "~/utils/http.server";

/** Review's Approve (the dashboard board, API clients): completed → reviewed; 409 from any other status. */
export const action = methods({
  POST: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    return json(await approveAssessment(actor, params.id ?? ""));
  },
});
