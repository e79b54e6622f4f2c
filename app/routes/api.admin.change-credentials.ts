import { json, type ActionFunctionArgs } from "@remix-run/node";
import { changeCredentialsSchema } from "~/schemas/auth";
import { requireAdmin } from "~/services/auth.server";
import { changeCredentials } from "~/services/users.server";
import { methods, parseJson } from "~/utils/http.server";

export const action = methods({
  PUT: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireAdmin(request);
    const input = await parseJson(request, changeCredentialsSchema);
    const { user, headers } = await changeCredentials(actor, input, request);
    return json({ message: "Admin credentials updated successfully", user }, { headers });
  },
});
