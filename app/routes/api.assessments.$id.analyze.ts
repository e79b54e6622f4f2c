import { json, type ActionFunctionArgs } from "@remix-run/node";
import { analyzeAssessment, ANALYZE_WAIT_MS } from "~/services/assessment-analysis.server";
import { requireUser } from "~/services/auth.server";
import { methods } from "~/utils/http.server";

/**
 * Queues the assessment's analysis and waits a few seconds for it (none with `Prefer: respond-async`,
 * RFC 7240): 200 with the finished assessment, or 202 with the assessment as it stands (processing
 * or analyzing), its address in `Location` and `Retry-After`: poll GET there. The analysis runs on
 * whichever instance claims it, so a caller never waits on one instance staying up for minutes.
 * The spec's client sends its mediaUrls too: the assessment already holds them, so the body is not read.
 */
export const action = methods({
  POST: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    const respondAsync = /(^|[,;\s])respond-async\b/i.test(request.headers.get("Prefer") ?? "");
    const { assessment, underWay } = await analyzeAssessment(actor, params.id ?? "", respondAsync ? 0 : ANALYZE_WAIT_MS);
    if (!underWay) return json(assessment);
    return json(assessment, {
      status: 202,
      headers: {
        Location: `/api/assessments/${assessment.id}`,
        "Retry-After": "2",
        ...(respondAsync ? { "Preference-Applied": "respond-async" } : {}),
      },
    });
  },
});
