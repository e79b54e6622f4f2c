import { json, type ActionFunctionArgs } from "@remix-run/node";
import { analyzeAssessment } from "~/services/assessment-analysis.server";
import { requireUser } from "~/services/auth.server";
import { methods } from "~/utils/http.server";

/**
 * Queues the assessment's analysis and waits up to ~25 s for it; answers the assessment as it then
 * stands (status processing or analyzing when the analysis takes longer: ask again or poll GET).
 * The spec's client sends its mediaUrls too: the assessment already holds them, so the body is not read.
 */
export const action = methods({
  POST: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    return json(await analyzeAssessment(actor, params.id ?? ""));
  },
});
