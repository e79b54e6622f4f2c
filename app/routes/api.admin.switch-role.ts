import { json, type ActionFunctionArgs } from "@remix-run/node";
import { switchRoleSchema } from "~/schemas/auth";
import { forbidden, requireUser } from "~/services/auth.server";
import { switchRole } from "~/services/users.server";
import { methods, parseJson } from "~/utils/http.server";

export const action = methods({
  POST: async ({ request }: ActionFunctionArgs) => {
    // Checked against the real role: an admin previewing as dealer can still switch back.
    const actor = await requireUser(request);
    // Refused before its body is read: a dealer's malformed body is a 403 like any other, not a 400.
    if (actor.realRole !== "admin") throw forbidden(request);
    const { targetRole } = await parseJson(request, switchRoleSchema);
    const { message, headers } = await switchRole(actor, targetRole, request);
    return json({ message }, { headers });
  },
});
