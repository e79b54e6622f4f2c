import { Card } from "#mantine/components/Card/Card";
import { Group } from "#mantine/components/Group/Group";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import { ValidatedForm } from "remix-validated-form";
import { changePasswordValidator } from "~/schemas/auth";
import { FormError } from "../form/fields/FormError";
import { PasswordField } from "../form/fields/PasswordField";
import { SubmitButton } from "../form/fields/SubmitButton";
import { useT } from "~/utils/i18n";

/**
 * Settings → Security → Change Password (every role). Success comes back to the tab in a fresh
 * session (the others ended) with the "Password Changed" toast.
 */
export function ChangePassword({ formError, version }: { formError: string | null | undefined; version: string }) {
  const t = useT();
  return (
    <Card withBorder data-testid="change-password">
      <Title order={2} size="h4" mb="xs">
        {t("Change Password")}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {t("At least 8 characters. Your other sessions are signed out and your API tokens revoked.")}
      </Text>
      {/* A new password saves the account: the form starts empty again (its key changes). */}
      <ValidatedForm key={version} validator={changePasswordValidator} method="post" id="change-password" noValidate>
        <input type="hidden" name="intent" value="change-password" />
        <FormError message={formError} />
        <Stack maw={420}>
          <PasswordField name="currentPassword" label={t("Current password")} autoComplete="current-password" required />
          <PasswordField name="newPassword" label={t("New password")} autoComplete="new-password" required />
          <PasswordField name="confirmPassword" label={t("Confirm new password")} autoComplete="new-password" required />
          <Group justify="flex-end">
            <SubmitButton formId="change-password">{t("Change Password")}</SubmitButton>
          </Group>
        </Stack>
      </ValidatedForm>
    </Card>
  );
}
