import { json, type ActionFunctionArgs } from "@remix-run/node";
import { changePasswordSchema } from "~/schemas/auth";
import { requireUser } from "~/services/auth.server";
import { assertPasswordChangeAllowed, changePassword } from "~/services/users.server";
import { methods, parseJson } from "~/utils/http.server";

/**
 * `{currentPassword, newPassword, confirmPassword}`: changes the caller's password (any role, from a
 * signed-in session); other sessions end, API tokens are revoked, the answer carries a fresh session.
 */
export const action = methods({
  PUT: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    assertPasswordChangeAllowed(actor);
    const input = await parseJson(request, changePasswordSchema);
    const { headers, message } = await changePassword(actor, input, request);
    return json({ message }, { headers });
  },
});
