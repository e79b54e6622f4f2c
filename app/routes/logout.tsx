import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { logout } from "~/services/auth.server";
import { assertSameOrigin } from "~/utils/request.server";

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  return redirect("/login", { headers: await logout(request) });
}

export const loader = () => redirect("/");
