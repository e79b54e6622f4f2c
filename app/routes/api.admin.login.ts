import { json, type ActionFunctionArgs } from "@remix-run/node";
import { login } from "~/services/auth.server";
import { methods, readJson } from "~/utils/http.server";

/** Signs in any role (the login tabs only change wording); answers the user and sets the session cookie. */
export const action = methods({
  POST: async ({ request, context }: ActionFunctionArgs) => {
    const credentials = await readJson(request);
    const { user, headers } = await login({ request, credentials, clientIp: context.clientIp });
    return json({ message: "Login successful", user }, { headers });
  },
});
