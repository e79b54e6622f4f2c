import { json, type ActionFunctionArgs } from "@remix-run/node";
import { createUserSchema } from "~/schemas/auth";
import { requireAdmin } from "~/services/auth.server";
import { idempotentPost } from "~/services/idempotency.server";
import { createUser } from "~/services/users.server";
import { methods, parseJson } from "~/utils/http.server";

/** Admin Settings' create (8-character passwords, role defaults to dealer). */
export const action = methods({
  POST: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireAdmin(request);
    return idempotentPost(actor, request, async () => {
      const input = await parseJson(request, createUserSchema);
      const user = await createUser(actor, input, request);
      return json({ message: "User account created successfully", user }, { status: 201 });
    });
  },
});
