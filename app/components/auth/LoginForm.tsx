import { Anchor } from "#mantine/components/Anchor/Anchor";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { useMounted } from "@mantine/hooks";
import { showToast } from "../toast";
import { Link, useActionData, useSearchParams } from "@remix-run/react";
import { useEffect } from "react";
import { ValidatedForm } from "remix-validated-form";
import { loginValidator, totpCodeValidator } from "~/schemas/auth";
import { useT } from "~/utils/i18n";
import { safeRedirect } from "~/utils/safe-redirect";
import { FormError } from "../form/fields/FormError";
import { PasswordField } from "../form/fields/PasswordField";
import { SubmitButton } from "../form/fields/SubmitButton";
import { TextField } from "../form/fields/TextField";

type LoginActionData =
  | { ok: true; redirectTo: string }
  | { formError: string; twoFactor?: boolean; username?: string }
  | { twoFactor: true }
  | undefined;

/**
 * Username + password form shared by /login and /admin/login. The messages and the redirect
 * delay differ per screen; without JavaScript the server redirects at once.
 */
export function LoginForm({
  failureTitle,
  successMessage,
  redirectDelayMs,
  submitLabel = "Sign In",
  showSetupLink = false,
  tab,
}: {
  failureTitle: string;
  successMessage: string;
  redirectDelayMs: number;
  submitLabel?: string;
  showSetupLink?: boolean;
  /** The combined login's tab, remembered with the sign-in. */
  tab?: string;
}) {
  const data = useActionData<LoginActionData>();
  const hydrated = useMounted();
  const [params] = useSearchParams();
  const t = useT();

  useEffect(() => {
    if (!data) return;
    if ("ok" in data) {
      showToast({ title: "Success", message: successMessage, color: "green" });
      const timer = setTimeout(() => window.location.assign(safeRedirect(data.redirectTo)), redirectDelayMs);
      return () => clearTimeout(timer);
    }
    if ("formError" in data) {
      showToast({ title: failureTitle, message: data.formError || "Invalid credentials", color: "red" });
    }
  }, [data, failureTitle, successMessage, redirectDelayMs]);

  const formError = data && "formError" in data ? data.formError : null;
  const redirectTo = safeRedirect(params.get("redirectTo"));
  if (data && "twoFactor" in data && data.twoFactor) {
    return (
      <ValidatedForm validator={totpCodeValidator} method="post" noValidate id="totp-step">
        <Stack>
          <FormError title={failureTitle} message={formError} />
          <Text size="sm">
            {t("Two-factor authentication is on for this account. Enter the 6-digit code from your authenticator app, or one of your recovery codes.")}
          </Text>
          <input type="hidden" name="intent" value="totp" />
          <input type="hidden" name="_js" value={hydrated ? "1" : ""} />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          {tab && <input type="hidden" name="tab" value={tab} />}
          <TextField name="code" label={t("Verification code")} autoComplete="one-time-code" required />
          <SubmitButton fullWidth formId="totp-step">
            {t("Verify")}
          </SubmitButton>
        </Stack>
      </ValidatedForm>
    );
  }
  return (
    <ValidatedForm
      validator={loginValidator}
      method="post"
      noValidate
      // A refused sign-in comes back with the username typed (never the password).
      defaultValues={data && "username" in data && data.username ? { username: data.username } : undefined}
    >
      <Stack>
        <FormError title={failureTitle} message={formError} />
        {data && "ok" in data && <Text c="green" role="status">{successMessage}</Text>}
        <input type="hidden" name="_js" value={hydrated ? "1" : ""} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {tab && <input type="hidden" name="tab" value={tab} />}
        <TextField name="username" label={t("Username")} autoComplete="username" required />
        <PasswordField name="password" label={t("Password")} autoComplete="current-password" required />
        <SubmitButton fullWidth>{t(submitLabel)}</SubmitButton>
        {showSetupLink && (
          <Text size="sm" ta="center">
            <Anchor component={Link} to="/admin/setup">
              {t("Create Admin Account")}
            </Anchor>
          </Text>
        )}
      </Stack>
    </ValidatedForm>
  );
}
