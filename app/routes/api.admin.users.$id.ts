import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { requireAdmin } from "~/services/auth.server";
import { deleteUser, getUserForAdmin } from "~/services/users.server";
import { api, methods } from "~/utils/http.server";

export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const actor = await requireAdmin(request);
  return json(await getUserForAdmin(actor, params.id ?? "", request));
});

export const action = methods({
  DELETE: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireAdmin(request);
    await deleteUser(actor, params.id ?? "", request);
    return json({ message: "User deleted successfully" });
  },
});
