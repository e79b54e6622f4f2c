import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { assessmentCreateSchema, assessmentListQueryInput, assessmentListQuerySchema } from "~/schemas/assessment";
import { createAssessment, listAssessmentsPage } from "~/services/assessments.server";
import { requireUser } from "~/services/auth.server";
import { idempotentPost } from "~/services/idempotency.server";
import { api, methods, parseJson, validationError } from "~/utils/http.server";
import { listHeaders } from "~/utils/list-headers.server";

/** The caller's assessments; `?q=` searches title, make, model and VIN; `?status=` filters; `?limit=&offset=` or `?limit=&cursor=` pages (the next page's cursor in `Link`). */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  const query = assessmentListQuerySchema.safeParse(assessmentListQueryInput(new URL(request.url)));
  if (!query.success) throw validationError(query.error);
  const { items, next, total } = await listAssessmentsPage(actor, query.data, { total: true });
  return json(items, { headers: { "Cache-Control": "no-store", ...listHeaders(request.url, { next, total }) } });
});

export const action = methods({
  POST: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    return idempotentPost(actor, request, async () => {
      const input = await parseJson(request, assessmentCreateSchema);
      return json(await createAssessment(actor, input), { status: 201 });
    });
  },
});
