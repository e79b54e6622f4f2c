import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { listDraft } from "~/services/storage/draft.server";
import { api } from "~/utils/http.server";

/** `GET /api/objects`: the caller's uploaded files not yet used by an assessment (the wizard's list). */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  return json(await listDraft(actor));
});
