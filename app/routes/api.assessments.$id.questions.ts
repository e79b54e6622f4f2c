import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { listEstimateQuestions } from "~/services/estimate-questions.server";
import { api } from "~/utils/http.server";

/**
 * `GET /api/assessments/{id}/questions`: the customers' questions on every version of the estimate,
 * oldest first, each with the version it was asked on and its answers (docs/decisions/0058).
 */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  return json(await listEstimateQuestions(actor, params.id ?? ""), { headers: { "Cache-Control": "no-store" } });
});
