import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { estimateEditSchema } from "~/schemas/estimate";
import { requireUser } from "~/services/auth.server";
import { editEstimate, getEstimate } from "~/services/estimates.server";
import { api, methods, parseJson } from "~/utils/http.server";

/**
 * The estimate with its lines, totals, version label (Original, S01, S02…), the versions before and
 * after it, and for a supplement the differences from the version it revises.
 */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  return json(await getEstimate(actor, params.id ?? ""));
});

/**
 * Edits an estimate (severity, damages and their line amounts, the reason): the saved estimate, or
 * for a sent one the new supplement (201), in the assessment's JSON shape.
 */
export const action = methods({
  PUT: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    const input = await parseJson(request, estimateEditSchema);
    const id = params.id ?? "";
    const saved = await editEstimate(actor, id, input);
    return json(saved, { status: saved.id === id ? 200 : 201 });
  },
});
