import { Card } from "#mantine/components/Card/Card";
import { Group } from "#mantine/components/Group/Group";
import { Stack } from "#mantine/components/Stack/Stack";
import { Switch } from "#mantine/components/Switch/Switch";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import { ValidatedForm } from "remix-validated-form";
import { notificationsValidator, type NotificationSettings } from "~/schemas/email";
import { SubmitButton } from "../form/fields/SubmitButton";
import { useT } from "~/utils/i18n";

const FORM_ID = "notifications-form";

const EMAIL_SWITCHES = [
  { name: "assessmentCompleted", label: "Assessment completed", description: "An email when the AI analysis of one of your assessments finishes." },
  { name: "deliveryStatus", label: "Delivery status", description: "An email when an estimate email could not be delivered." },
  { name: "systemAlerts", label: "System alerts", description: "An email when something needs your attention (e.g. a delivery to check)." },
] as const;
const PUSH_SWITCHES = [
  { name: "desktop", label: "Desktop notifications", description: "Shown by your browser while the app is open." },
  { name: "sound", label: "Sound", description: "A sound with each notification." },
] as const;

/** Settings → Notifications (spec §2): switches are plain checkboxes, so the form posts without JavaScript. */
export function NotificationsTab({ settings }: { settings: NotificationSettings }) {
  const t = useT();
  const row = (s: { name: keyof NotificationSettings; label: string; description: string }) => (
    <Switch key={s.name} name={s.name} value="on" defaultChecked={settings[s.name]} label={t(s.label)} description={t(s.description)} />
  );
  return (
    <Card withBorder>
      <ValidatedForm id={FORM_ID} validator={notificationsValidator} method="post" noValidate>
        <input type="hidden" name="intent" value="save-notifications" />
        <Stack>
          <Title order={2} size="h4">
            {t("Email Notifications")}
          </Title>
          {EMAIL_SWITCHES.map(row)}
          <Title order={2} size="h4" mt="md">
            {t("Push Notifications")}
          </Title>
          <Text size="sm" c="dimmed">
            {t("Used while the app is open with JavaScript on.")}
          </Text>
          {PUSH_SWITCHES.map(row)}
          <Group justify="flex-end">
            <SubmitButton formId={FORM_ID}>{t("Save Notifications")}</SubmitButton>
          </Group>
        </Stack>
      </ValidatedForm>
    </Card>
  );
}
