import { json, type ActionFunctionArgs } from "@remix-run/node";
import { estimateEditSchema } from "~/schemas/estimate";
import { requireUser } from "~/services/auth.server";
import { editEstimate } from "~/services/estimates.server";
import { methods, parseJson } from "~/utils/http.server";

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
