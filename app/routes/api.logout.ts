import { json, redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { logout } from "~/services/auth.server";
import { api } from "~/utils/http.server";

/** Ends the session; a browser following a link lands on /login, an API client gets JSON. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const headers = await logout(request);
  if (request.headers.get("Accept")?.includes("text/html")) return redirect("/login", { headers });
  return json({ message: "Logged out successfully" }, { headers });
});
