import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { assessmentUpdateSchema } from "~/schemas/assessment";
import { deleteAssessment, getAssessment, updateAssessment } from "~/services/assessments.server";
import { requireUser } from "~/services/auth.server";
import { etagOf, ifMatchRevisions } from "~/utils/entity-tags";
import { api, methods, parseJson } from "~/utils/http.server";

export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  const assessment = await getAssessment(actor, params.id ?? "");
  return json(assessment, { headers: { ETag: etagOf(assessment.revision), "Cache-Control": "no-store" } });
});

export const action = methods({
  PUT: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    const input = await parseJson(request, assessmentUpdateSchema);
    const saved = await updateAssessment(actor, params.id ?? "", input, { readAt: ifMatchRevisions(request.headers.get("If-Match")) });
    return json(saved, { headers: { ETag: etagOf(saved.revision) } });
  },
  DELETE: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    await deleteAssessment(actor, params.id ?? "");
    return json({ message: "Assessment deleted successfully" });
  },
});
