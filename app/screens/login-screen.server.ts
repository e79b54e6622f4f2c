import { createCookie, json, redirect, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { loginValidator, totpCodeValidator } from "~/schemas/auth";
import { completeSecondStep, login } from "~/services/auth.server";
import { handleForm } from "~/utils/forms.server";
import { screenAnswer } from "~/utils/http.server";
import { safeRedirect } from "~/utils/safe-redirect";
import { isRecord } from "~/utils/unknown-values";

export const LOGIN_TABS = ["admin", "dealer", "vendor"] as const;
type LoginTab = (typeof LOGIN_TABS)[number];
const isLoginTab = (value: unknown): value is LoginTab => LOGIN_TABS.some((tab) => tab === value);

/** The /login tab of the last sign-in on this browser: the login opens on it (after a logout too). */
const lastTabCookie = createCookie("login-tab", { path: "/login", httpOnly: true, sameSite: "lax", maxAge: 365 * 86400 });

/** /login's loader: the remembered tab, for a visit without ?tab=. */
export async function loginScreenLoader({ request }: LoaderFunctionArgs) {
  const remembered: unknown = await lastTabCookie.parse(request.headers.get("Cookie"));
  return json({ lastTab: isLoginTab(remembered) ? remembered : null });
}

/** Remembers the tab a sign-in used (the combined login's `tab` field). */
async function rememberTab(form: FormData, headers: HeadersInit) {
  const tab = form.get("tab");
  const all = new Headers(headers);
  if (isLoginTab(tab)) all.append("Set-Cookie", await lastTabCookie.serialize(tab));
  return all;
}

/**
 * Shared by /login and /admin/login. With JavaScript the page shows a toast and redirects itself
 * after the spec's delay (it sends `_js=1`); without it the answer is an immediate redirect.
 * An account with two-factor on gets `{twoFactor: true}` after its password: the page then asks
 * for the code (`intent=totp`), JavaScript or not.
 */
/**
 * The spec's success message (part 1 §8): the admin login's, or the combined login's with its tab.
 * With JavaScript the page shows it before redirecting; without, the first page after shows it.
 */
export function loginSuccessMessage(request: Request, tab: unknown) {
  if (new URL(request.url).pathname.startsWith("/admin/")) return "Login successful! Redirecting to dashboard...";
  const role = isLoginTab(tab) ? tab : "admin";
  return `${role[0].toUpperCase()}${role.slice(1)} login successful! Redirecting to dashboard...`;
}

export async function loginScreenAction({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const welcome = form.get("_js") === "1" ? undefined : { title: "Success", message: loginSuccessMessage(request, form.get("tab")), color: "green" as const };
  const signedIn = async (user: unknown, sessionHeaders: HeadersInit) => {
    const redirectTo = safeRedirect(form.get("redirectTo"));
    const headers = await rememberTab(form, sessionHeaders);
    if (form.get("_js") === "1") return json({ ok: true as const, user, redirectTo }, { headers });
    return redirect(redirectTo, { headers });
  };
  if (form.get("intent") === "totp") {
    return handleForm(
      request,
      totpCodeValidator,
      async ({ code }) => {
        try {
          const { user, headers } = await completeSecondStep({ request, code, welcome });
          return signedIn(user, headers);
        } catch (error) {
          const failure = await screenAnswer(error);
          if (!failure) throw error;
          // Stay on the code step (an expired step goes back to the password).
          const expired = failure.status === 401 && !failure.fieldErrors;
          const headers = failure.retryAfter ? { "Retry-After": failure.retryAfter } : undefined;
          return json({ twoFactor: !expired, formError: failure.message }, { status: failure.status, headers });
        }
      },
      form,
    );
  }
  const answer = await handleForm(
    request,
    loginValidator,
    async (credentials) => {
      const result = await login({ request, credentials, clientIp: context.clientIp, secondStep: true, welcome });
      if (result.twoFactor) return json({ twoFactor: true as const }, { headers: result.headers });
      return signedIn(result.user, result.headers);
    },
    form,
  );
  // A refused sign-in (wrong password, throttled) keeps the username for the next try; never the password.
  const username = form.get("username");
  if (answer.status >= 400 && answer.headers.get("Content-Type")?.includes("json") && typeof username === "string") {
    const body: unknown = await answer.clone().json();
    if (isRecord(body) && "formError" in body) return json({ ...body, username: username.slice(0, 200) }, { status: answer.status, headers: answer.headers });
  }
  return answer;
}

/**
 * The login screens' response headers: a throttled sign-in tells the browser when to try again
 * (Remix renders the page after a form post with the route's headers, not the action's).
 */
export const loginScreenHeaders: HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};
