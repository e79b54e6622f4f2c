import { json, redirect, type ActionFunctionArgs, type HeadersFunction } from "@remix-run/node";
import { loginValidator } from "~/schemas/auth";
import { login } from "~/services/auth.server";
import { handleForm } from "~/utils/forms.server";

const LOCAL = "http://local.invalid";

/**
 * Only a path of this site: a crafted ?redirectTo= must not send the user to another one. Browsers
 * drop tabs and newlines from URLs and read a backslash as a slash, so "/\t/evil.example" or
 * "/\\evil.example" would leave the site: control characters and backslashes are refused outright,
 * and what remains must resolve to this origin. The answer is the normalised path.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/") {
  // eslint-disable-next-line no-control-regex
  if (typeof to !== "string" || !to.startsWith("/") || /[\u0000-\u001f\u007f\\]/.test(to)) return fallback;
  let url: URL;
  try {
    url = new URL(to, LOCAL);
  } catch {
    return fallback;
  }
  if (url.origin !== LOCAL || to.startsWith("//")) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
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

/**
 * The login screens' response headers: a throttled sign-in tells the browser when to try again
 * (Remix renders the page after a form post with the route's headers, not the action's).
 */
export const loginScreenHeaders: HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};
