import { json, redirect } from "@remix-run/node";
import { apiTokenValidator, changePasswordValidator } from "~/schemas/auth";
import { estimateLinkSettingsValidator, securityValidator, twoFactorCodeValidator, twoFactorConfirmValidator } from "~/schemas/settings";
import { createToken, listTokens, revokeToken } from "~/services/api-tokens.server";
import type { Actor } from "~/services/actor";
import { getSession } from "~/services/session.server";
import { apiKeysOverview, enableTwoFactor, updatePreferences, updateSecurity } from "~/services/settings.server";
import { changePassword } from "~/services/users.server";
import {
  beginEnrolment,
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
    /** Changes with every save of the account (the Change Password form's key). */
    accountVersion: String(actor.user.updatedAt),
    sessionTimeout: actor.user.sessionTimeout ?? "7d",
    loginNotifications: Boolean(actor.user.loginNotifications),
    estimateLinkDays: actor.user.estimateLinkDays ?? 30,
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
  "update-estimate-links": ({ actor, request, form }) =>
    handleForm(
      request,
      estimateLinkSettingsValidator,
      async (input) => {
        await updatePreferences(actor, input);
        return toTab(request, "security", { title: "Settings Saved", message: `New estimate links stay open ${input.estimateLinkDays} days.` });
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
      twoFactorConfirmValidator,
      async (input) => {
        const { recoveryCodes, revokedTokens } = await enableTwoFactor(actor, input);
        // Shown once: the page renders them from this answer and never again.
        return json({ recoveryCodes, revokedTokens }, { headers: { "Cache-Control": "no-store" } });
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
  "change-password": ({ actor, request, form }) =>
    handleForm(
      request,
      changePasswordValidator,
      async (input) => {
        // The caller's fresh session (the old one ended with the others) carries the toast.
        const { headers } = await changePassword(actor, input, request);
        return redirect("/settings?tab=security", { headers });
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
