import { json, type ActionFunctionArgs } from "@remix-run/node";
import { assessmentRejectSchema } from "~/schemas/assessment";
import { rejectAssessment } from "~/services/assessments.server";
import { requireUser } from "~/services/auth.server";
import { methods, parseJson } from "~/utils/http.server";

/** Review's Reject: completed or reviewed → uploaded, with an optional `note`; 409 from any other status. */
export const action = methods({
  POST: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    const { note } = await parseJson(request, assessmentRejectSchema);
    return json(await rejectAssessment(actor, params.id ?? "", note));
  },
});
