import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { createEstimateLink, listEstimateLinks } from "~/services/estimate-links.server";
import { publicOrigin } from "~/services/storage/names.server";
import { api, methods, readJson } from "~/utils/http.server";

/**
 * `GET /api/assessments/{id}/links`: the customer links of every version of the estimate (state
 * active, expired, revoked or superseded; first and last viewed) and the customer's decisions.
 */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  return json(await listEstimateLinks(actor, params.id ?? ""), { headers: { "Cache-Control": "no-store" } });
});

/**
 * `POST /api/assessments/{id}/links` (no body): a new link to this version, 201 with its `url` and
 * `token`, shown this once (only the token's hash is stored, so the answer is not kept for an
 * Idempotency-Key replay either).
 */
export const action = methods({
  POST: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    const body = await readJson(request, { maxBytes: 1024 });
    if (typeof body !== "object" || body === null || Array.isArray(body) || Object.keys(body).length > 0) {
      return json({ message: "This call takes no fields" }, { status: 400 });
    }
    const link = await createEstimateLink(actor, params.id ?? "", { via: "api", origin: publicOrigin(request) });
    return json(link, { status: 201, headers: { "Cache-Control": "no-store" } });
  },
});
