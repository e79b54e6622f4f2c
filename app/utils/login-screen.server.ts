import { json, redirect, type ActionFunctionArgs } from "@remix-run/node";
import { loginValidator } from "~/schemas/auth";
import { login } from "~/services/auth.server";
import { handleForm } from "./forms.server";

/** Only local paths: a crafted ?redirectTo= must not send the user to another site. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/") {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) {
    return fallback;
  }
  return to;
}

/**
 * Shared by /login and /admin/login. With JavaScript the page shows a toast and redirects itself
 * after the spec's delay (it sends `_js=1`); without it the answer is an immediate redirect.
 */
export async function loginScreenAction({ request, context }: ActionFunctionArgs) {
  return handleForm(request, loginValidator, async (credentials, form) => {
    const { user, headers } = await login({ request, credentials, clientIp: context.clientIp });
    const redirectTo = safeRedirect(form.get("redirectTo"));
    if (form.get("_js") === "1") return json({ ok: true as const, user, redirectTo }, { headers });
    return redirect(redirectTo, { headers });
  });
}
