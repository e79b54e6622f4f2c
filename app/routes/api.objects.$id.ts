import { json, type ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { removeUpload } from "~/services/storage/draft.server";
import { methods } from "~/utils/http.server";

/** `DELETE /api/objects/{id}`: removes one of the caller's uploaded files (object and record). */
export const action = methods({
  DELETE: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    await removeUpload(actor, params.id ?? "");
    return json({ message: "File removed" });
  },
});
