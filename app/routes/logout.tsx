import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { logout } from "~/services/auth.server";
import { screen } from "~/utils/http.server";
import { assertSameOrigin } from "~/utils/request.server";

export const action = screen(async ({ request }: ActionFunctionArgs) => {
  assertSameOrigin(request);
  return redirect("/login", { headers: await logout(request) });
});

export const loader = () => redirect("/");
