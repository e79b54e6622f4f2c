import { json, type ActionFunctionArgs } from "@remix-run/node";
import { switchRoleSchema } from "~/schemas/auth";
import { requireUser } from "~/services/auth.server";
import { switchRole } from "~/services/users.server";
import { methods, parseJson } from "~/utils/http.server";

export const action = methods({
  POST: async ({ request }: ActionFunctionArgs) => {
    // Checked against the real role: an admin previewing as dealer can still switch back.
    const actor = await requireUser(request);
    const { targetRole } = await parseJson(request, switchRoleSchema);
    const { message, headers } = await switchRole(actor, targetRole, request);
    return json({ message }, { headers });
  },
});
