import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { requireAdmin } from "~/services/auth.server";
import { deleteUser, getUserForAdmin, USER_DATA_REMOVAL } from "~/services/users.server";
import { api, methods } from "~/utils/http.server";

export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const actor = await requireAdmin(request);
  return json(await getUserForAdmin(actor, params.id ?? "", request));
});

export const action = methods({
  DELETE: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireAdmin(request);
    const { dataRemoved } = await deleteUser(actor, params.id ?? "", request);
    // 202: the account is deleted (nobody can use it) and its records are still being removed.
    return dataRemoved ? json({ message: "User deleted successfully" }) : json({ message: USER_DATA_REMOVAL }, { status: 202 });
  },
});
