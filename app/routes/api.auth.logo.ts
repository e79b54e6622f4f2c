import { json, type ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { removeLogo, uploadLogo } from "~/services/estimate-settings.server";
import { methods } from "~/utils/http.server";

/** The account's logo on its estimates: POST multipart/form-data (field `logo`, PNG or JPEG, 2 MB), DELETE removes it. */
export const action = methods({
  POST: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    return json(await uploadLogo(actor, request));
  },
  DELETE: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    return json(await removeLogo(actor));
  },
});
