import { json, type ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { removeLogo, uploadLogo } from "~/services/estimate-settings.server";
import { jsonError, methods } from "~/utils/http.server";

const MULTIPART = /^multipart\/form-data\s*;.*\bboundary=/i;

/** The account's logo on its estimates: POST multipart/form-data (field `logo`, PNG or JPEG, 2 MB), DELETE removes it. */
export const action = methods({
  POST: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    // Anything but a multipart form is refused before a parser sees it (a JSON body was a 500).
    if (!MULTIPART.test(request.headers.get("Content-Type") ?? "")) return jsonError(415, "Send the logo as multipart/form-data (field logo)");
    return json(await uploadLogo(actor, request));
  },
  DELETE: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    return json(await removeLogo(actor));
  },
});
