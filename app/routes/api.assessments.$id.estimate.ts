import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { estimateEditSchema } from "~/schemas/estimate";
import { requireUser } from "~/services/auth.server";
import { editEstimate, getEstimate } from "~/services/estimates.server";
import { etagOf, ifMatchRevisions } from "~/utils/entity-tags";
import { api, methods, parseJson } from "~/utils/http.server";

/**
 * The estimate with its lines, totals, version label (Original, S01, S02…), the versions before and
 * after it, and for a supplement the differences from the version it revises; its ETag is the
 * version an edit sends back in If-Match.
 */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  const estimate = await getEstimate(actor, params.id ?? "");
  return json(estimate, { headers: { ETag: etagOf(estimate.revision) } });
});

/**
 * Edits an estimate (severity, damages and their line amounts, the reason): the saved estimate, or
 * for a sent one the new supplement (201), in the assessment's JSON shape, with its ETag. With
 * If-Match, only the version it names is edited (412 with the current one otherwise).
 */
export const action = methods({
  PUT: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    const input = await parseJson(request, estimateEditSchema);
    const id = params.id ?? "";
    const saved = await editEstimate(actor, id, input, { readAt: ifMatchRevisions(request.headers.get("If-Match")) });
    return json(saved, { status: saved.id === id ? 200 : 201, headers: { ETag: etagOf(saved.revision) } });
  },
});
