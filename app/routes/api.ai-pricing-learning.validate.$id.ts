import { json, type ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { validateLearningRecord } from "~/services/vendors.server";
import { methods } from "~/utils/http.server";

/** Validate a learning record: from now on it moves the vendor's prices. */
export const action = methods({
  POST: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    return json(await validateLearningRecord(actor, params.id ?? ""));
  },
});
