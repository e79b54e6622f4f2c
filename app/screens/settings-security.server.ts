import { json } from "@remix-run/node";
import { apiTokenValidator } from "~/schemas/auth";
import { securityValidator, twoFactorCodeValidator } from "~/schemas/settings";
import { createToken, listTokens, revokeToken } from "~/services/api-tokens.server";
import type { Actor } from "~/services/auth.server";
import { getSession } from "~/services/session.server";
import { apiKeysOverview, updateSecurity } from "~/services/settings.server";
import {
  beginEnrolment,
  confirmEnrolment,
  disableTwoFactor,
  pendingEnrolment,
  recoveryCodesLeft,
} from "~/services/two-factor.server";
import { handleForm } from "~/utils/forms.server";
import { toTab, writeOrToast, type SettingsAction } from "./settings.server";

const accountLabel = (actor: Actor) => actor.user.email || actor.user.username;

/** Settings → Security: session timeout, login notifications, two-factor, API tokens and keys. */
export async function securityTab(actor: Actor) {
  const enabled = Boolean(actor.user.twoFactor?.enabled);
  const [tokens, enrolment, codesLeft, keys] = await Promise.all([
    listTokens(actor),
    enabled ? null : pendingEnrolment(actor.id, accountLabel(actor)),
    enabled ? recoveryCodesLeft(actor.id) : 0,
    apiKeysOverview(),
  ]);
  return {
    sessionTimeout: (actor.user.sessionTimeout as string | undefined) ?? "7d",
    loginNotifications: Boolean(actor.user.loginNotifications),
    twoFactor: { enabled, enrolment, recoveryCodesLeft: codesLeft },
    tokens,
    keys,
  };
}

export const securityActions: Record<string, SettingsAction> = {
  "update-security": ({ actor, request, form }) =>
    handleForm(
      request,
      securityValidator,
      async (input) => {
        const session = await getSession(request);
        await updateSecurity(actor, input, session.id || undefined);
        return toTab(request, "security", { title: "Settings Saved", message: "Your security settings have been saved." });
      },
      form,
    ),
  "2fa-begin": ({ actor, request }) =>
    writeOrToast(request, "security", async () => {
      await beginEnrolment(actor.id, accountLabel(actor));
      return toTab(request, "security", {
        title: "Two-factor set-up",
        message: "Scan the QR code with your authenticator app, then enter a code to confirm.",
        color: "blue",
      });
    }),
  "2fa-confirm": ({ actor, request, form }) =>
    handleForm(
      request,
      twoFactorCodeValidator,
      async ({ code }) => {
        const { recoveryCodes } = await confirmEnrolment(actor.id, code);
        // Shown once: the page renders them from this answer and never again.
        return json({ recoveryCodes }, { headers: { "Cache-Control": "no-store" } });
      },
      form,
    ),
  "2fa-disable": ({ actor, request, form }) =>
    handleForm(
      request,
      twoFactorCodeValidator,
      async ({ code }) => {
        await disableTwoFactor(actor.id, code);
        return toTab(request, "security", { title: "Success", message: "Two-factor authentication is off." });
      },
      form,
    ),
  "create-token": ({ actor, request, form }) =>
    handleForm(
      request,
      apiTokenValidator,
      async (input) => {
        const created = await createToken(actor, input);
        // Shown once: the page renders it from this response and never again.
        return json({ createdToken: created }, { headers: { "Cache-Control": "no-store" } });
      },
      form,
    ),
  "revoke-token": ({ actor, request, form }) =>
    writeOrToast(request, "security", async () => {
      await revokeToken(actor, String(form.get("id") ?? ""));
      return toTab(request, "security", { title: "Success", message: "API token revoked" });
    }),
};
