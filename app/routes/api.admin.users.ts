import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { createManagedUserSchema } from "~/schemas/auth";
import { requireAdmin } from "~/services/auth.server";
import { idempotentPost } from "~/services/idempotency.server";
import { createUser, listUsers } from "~/services/users.server";
import { wholeListAnswer, wholeListQuery } from "~/utils/list-headers.server";
import { api, methods, parseJson } from "~/utils/http.server";

export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const actor = await requireAdmin(request);
  return wholeListAnswer(request, await listUsers(actor, request, wholeListQuery(request)));
});

/** User Management's create (6-character passwords, role required). */
export const action = methods({
  POST: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireAdmin(request);
    return idempotentPost(actor, request, async () => {
      const input = await parseJson(request, createManagedUserSchema);
      const user = await createUser(actor, input, request);
      return json({ message: "User created successfully", user }, { status: 201 });
    });
  },
});
