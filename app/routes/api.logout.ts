import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { logout } from "~/services/auth.server";
import { api, methods } from "~/utils/http.server";
import { assertNotFromAnotherSite, assertSameOrigin } from "~/utils/request.server";

/** Ends the session; a browser following a link lands on /login, an API client gets JSON. */
async function endSession(request: Request) {
  const headers = await logout(request);
  if (request.headers.get("Accept")?.includes("text/html")) return redirect("/login", { headers });
  return json({ message: "Logged out successfully" }, { headers });
}

/** The spec's GET stays for API clients, but another site cannot sign a user out with a link or an image. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  assertNotFromAnotherSite(request);
  return endSession(request);
});

export const action = methods({
  POST: async ({ request }: ActionFunctionArgs) => {
    assertSameOrigin(request);
    return endSession(request);
  },
});
