import { Alert } from "#mantine/components/Alert/Alert";
import { Button } from "#mantine/components/Button/Button";
import { Card } from "#mantine/components/Card/Card";
import { Checkbox } from "#mantine/components/Checkbox/Checkbox";
import { Group } from "#mantine/components/Group/Group";
import { SimpleGrid } from "#mantine/components/SimpleGrid/SimpleGrid";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import { Form } from "@remix-run/react";
import { ValidatedForm } from "remix-validated-form";
import { mailServerValidator } from "~/schemas/email";
import type { MailServerSettings } from "~/services/mail-config.server";
import { CheckboxField } from "../form/fields/CheckboxField";
import { FormError } from "../form/fields/FormError";
import { PasswordField } from "../form/fields/PasswordField";
import { SubmitButton } from "../form/fields/SubmitButton";
import { TextField } from "../form/fields/TextField";
import { useT } from "~/utils/i18n";

const FORM_ID = "mail-server-form";

/** Settings → Email (spec §2, §5): the account's mail server, all optional (port 587, secure off), and Test Connection. */
export function EmailTab({ settings, formError }: { settings: MailServerSettings; formError?: string | null }) {
  const t = useT();
  const fallback =
    settings.fallback === "environment"
      ? "Without a host here, mail goes through the server set by the administrator (SMTP_HOST)."
      : "Without a host here, no mail server is configured: messages are kept in the local mail drop (outbox/ in object storage) and not delivered.";
  return (
    <Card withBorder>
      <Title order={2} size="h4">
        {t("Mail Server")}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {t("The outgoing (SMTP) server your estimate emails are sent through.")} {settings.host ? "" : t(fallback)}
      </Text>
      <ValidatedForm
        // The saved values come back from the server: the form starts from them again (the typed password is gone).
        key={JSON.stringify(settings)}
        resetAfterSubmit
        id={FORM_ID}
        validator={mailServerValidator}
        method="post"
        noValidate
        defaultValues={{ host: settings.host, port: settings.port, secure: settings.secure, user: settings.user, password: "", from: settings.from }}
      >
        <input type="hidden" name="intent" value="save-mail-server" />
        <Stack>
          <FormError title={t("Failed to save settings")} message={formError} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextField name="host" label={t("SMTP Host")} placeholder="smtp.example.com" autoComplete="off" />
            <TextField name="port" label={t("Port")} type="number" autoComplete="off" />
            <TextField name="user" label={t("Username")} autoComplete="off" />
            <PasswordField
              name="password"
              label={t("Password")}
              autoComplete="new-password"
              description={settings.passwordSet ? t("A password is set. Leave blank to keep it.") : t("Not set.")}
            />
          </SimpleGrid>
          <TextField name="from" label={t("From Address")} type="email" placeholder={t("estimates@your-shop.com")} autoComplete="off" />
          <Group>
            <CheckboxField name="secure" label={t("Use TLS from the start (secure, usually port 465)")} />
            {settings.passwordSet && <Checkbox name="clearPassword" value="on" label={t("Remove the stored password")} />}
          </Group>
          <Group justify="flex-end">
            <SubmitButton formId={FORM_ID}>{t("Save Settings")}</SubmitButton>
          </Group>
        </Stack>
      </ValidatedForm>
      <Form method="post">
        <input type="hidden" name="intent" value="test-connection" />
        <Alert color="gray" mt="md" title={t("Test Connection")}>
          <Group justify="space-between">
            <Text size="sm">{t("Connects to the mail server and signs in, without sending anything.")}</Text>
            <Button type="submit" variant="default">
              {t("Test Connection")}
            </Button>
          </Group>
        </Alert>
      </Form>
    </Card>
  );
}
