import { Card } from "#mantine/components/Card/Card";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import { useEffect } from "react";
import { ValidatedForm } from "remix-validated-form";
import { FormError } from "../form/fields/FormError";
import { PasswordField } from "../form/fields/PasswordField";
import { SubmitButton } from "../form/fields/SubmitButton";
import { TextField } from "../form/fields/TextField";
import { changeCredentialsValidator } from "../form/validators";
import { showToast } from "../toast";
import { useT } from "~/utils/i18n";

export type ActionData = { credentialsUpdated: true } | { formError?: string; formId?: string } | undefined;

/** Admin Settings → Credentials: change the admin's username and password. */
export function CredentialsForm({ data }: { data: ActionData }) {
  const t = useT();
  const updated = data && "credentialsUpdated" in data;
  const formError = data && "formError" in data && data.formId === "credentials" ? data.formError : null;
  useEffect(() => {
    if (updated) showToast({ title: "Success", message: "Admin credentials updated successfully", color: "green" });
  }, [updated, data]);
  return (
    <Card withBorder maw={520}>
      <Title order={2} size="h4" mb="sm">
        {t("Change credentials")}
      </Title>
      {updated && (
        <Text c="green" role="status" mb="sm">
          {t("Admin credentials updated successfully")}
        </Text>
      )}
      <ValidatedForm
        key={updated ? "reset" : "form"}
        validator={changeCredentialsValidator}
        method="post"
        id="credentials"
        noValidate
      >
        <input type="hidden" name="intent" value="change-credentials" />
        <Stack>
          <FormError title={t("Error")} message={formError ? formError || t("Failed to update credentials") : null} />
          <PasswordField name="currentPassword" label={t("Current password")} autoComplete="current-password" required />
          <TextField name="newUsername" label={t("New username (optional)")} autoComplete="off" />
          <PasswordField name="newPassword" label={t("New password (optional)")} autoComplete="new-password" />
          <PasswordField name="confirmPassword" label={t("Confirm new password")} autoComplete="new-password" />
          <SubmitButton formId="credentials">{t("Update Credentials")}</SubmitButton>
        </Stack>
      </ValidatedForm>
    </Card>
  );
}
