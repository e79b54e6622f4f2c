import { json, redirect, type ActionFunctionArgs, type HeadersFunction } from "@remix-run/node";
import { loginValidator, totpCodeValidator } from "~/schemas/auth";
import { completeSecondStep, login } from "~/services/auth.server";
import { asFormFailure, handleForm } from "~/utils/forms.server";
import { safeRedirect } from "~/utils/safe-redirect";

/**
 * Shared by /login and /admin/login. With JavaScript the page shows a toast and redirects itself
 * after the spec's delay (it sends `_js=1`); without it the answer is an immediate redirect.
 * An account with two-factor on gets `{twoFactor: true}` after its password: the page then asks
 * for the code (`intent=totp`), JavaScript or not.
 */
export async function loginScreenAction({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const signedIn = (user: unknown, headers: HeadersInit) => {
    const redirectTo = safeRedirect(form.get("redirectTo"));
    if (form.get("_js") === "1") return json({ ok: true as const, user, redirectTo }, { headers });
    return redirect(redirectTo, { headers });
  };
  if (form.get("intent") === "totp") {
    return handleForm(
      request,
      totpCodeValidator,
      async ({ code }) => {
        try {
          const { user, headers } = await completeSecondStep({ request, code });
          return signedIn(user, headers);
        } catch (error) {
          const failure = await asFormFailure(error);
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
  return handleForm(
    request,
    loginValidator,
    async (credentials) => {
      const result = await login({ request, credentials, clientIp: context.clientIp, secondStep: true });
      if (result.twoFactor) return json({ twoFactor: true as const }, { headers: result.headers });
      return signedIn(result.user, result.headers);
    },
    form,
  );
}

/**
 * The login screens' response headers: a throttled sign-in tells the browser when to try again
 * (Remix renders the page after a form post with the route's headers, not the action's).
 */
export const loginScreenHeaders: HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};
