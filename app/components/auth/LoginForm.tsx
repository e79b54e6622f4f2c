import { Anchor } from "#mantine/components/Anchor/Anchor";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { useMounted } from "@mantine/hooks";
import { showToast } from "../toast";
import { Link, useActionData, useSearchParams } from "@remix-run/react";
import { useEffect } from "react";
import { ValidatedForm } from "remix-validated-form";
import { loginValidator } from "~/components/form/validators";
import { FormError } from "../form/fields/FormError";
import { PasswordField } from "../form/fields/PasswordField";
import { SubmitButton } from "../form/fields/SubmitButton";
import { TextField } from "../form/fields/TextField";

type LoginActionData = { ok: true; redirectTo: string } | { formError: string } | undefined;

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
}: {
  failureTitle: string;
  successMessage: string;
  redirectDelayMs: number;
  submitLabel?: string;
  showSetupLink?: boolean;
}) {
  const data = useActionData<LoginActionData>();
  const hydrated = useMounted();
  const [params] = useSearchParams();

  useEffect(() => {
    if (!data) return;
    if ("ok" in data) {
      showToast({ title: "Success", message: successMessage, color: "green" });
      const timer = setTimeout(() => window.location.assign(data.redirectTo), redirectDelayMs);
      return () => clearTimeout(timer);
    }
    if ("formError" in data) {
      showToast({ title: failureTitle, message: data.formError || "Invalid credentials", color: "red" });
    }
  }, [data, failureTitle, successMessage, redirectDelayMs]);

  const formError = data && "formError" in data ? data.formError : null;
  return (
    <ValidatedForm validator={loginValidator} method="post" noValidate>
      <Stack>
        <FormError title={failureTitle} message={formError} />
        {data && "ok" in data && <Text c="green" role="status">{successMessage}</Text>}
        <input type="hidden" name="_js" value={hydrated ? "1" : ""} />
        <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? "/"} />
        <TextField name="username" label="Username" autoComplete="username" required />
        <PasswordField name="password" label="Password" autoComplete="current-password" required />
        <SubmitButton fullWidth>{submitLabel}</SubmitButton>
        {showSetupLink && (
          <Text size="sm" ta="center">
            <Anchor component={Link} to="/admin/setup">
              Create Admin Account
            </Anchor>
          </Text>
        )}
      </Stack>
    </ValidatedForm>
  );
}
