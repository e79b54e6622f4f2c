import { Anchor } from "#mantine/components/Anchor/Anchor";
import { Button } from "#mantine/components/Button/Button";
import { Card } from "#mantine/components/Card/Card";
import { Group } from "#mantine/components/Group/Group";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import { Form, Link, useNavigation } from "@remix-run/react";
import type { EmailLogJson } from "~/services/email-logs.server";
import { useT } from "~/utils/i18n";

/** An email of unknown delivery the dealer has not settled yet (docs/decisions/0054). */
export const needsSettling = (log: Pick<EmailLogJson, "status" | "settlement">) => log.status === "unknown" && !log.settlement;

/**
 * What to do about an email of unknown delivery: "Resend" or "Mark delivered", plain form posts
 * (`action`: the screen's own, e.g. "/?index" on the dashboard) that work without JavaScript.
 */
export function UnknownEmailActions({ log, action }: { log: Pick<EmailLogJson, "id" | "subject">; action?: string }) {
  const t = useT();
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.formData?.get("intent") === intent && navigation.formData?.get("id") === log.id;
  const button = (intent: string, label: string, color: string) => (
    <Form method="post" action={action} preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={log.id} />
      <Button type="submit" size="compact-xs" variant="light" color={color} loading={busy(intent)} aria-label={`${t(label)}: ${log.subject}`}>
        {t(label)}
      </Button>
    </Form>
  );
  return (
    <Stack gap={4} data-testid="unknown-email-actions">
      <Text size="sm">{t("The mail server may not have received it. Ask the recipient, then resend it or mark it delivered.")}</Text>
      <Group gap="xs">
        {button("resend-email", "Resend", "blue")}
        {button("mark-delivered", "Mark delivered", "green")}
      </Group>
    </Stack>
  );
}

/** The dashboard's notice: emails of unknown delivery, counted until each is settled. */
export function UnknownEmails({ count, logs }: { count: number; logs: EmailLogJson[] }) {
  const t = useT();
  return (
    <Card withBorder padding="lg" data-testid="unknown-emails">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {t("Emails to check")}
        </Title>
        <Text fw={700} data-testid="unknown-emails-count">
          {count}
        </Text>
      </Group>
      <Stack gap="sm">
        {logs.map((log) => (
          <div key={log.id} data-testid="unknown-email">
            <Text fw={600}>{log.subject}</Text>
            <Text size="sm" c="dimmed">
              {t("To")} {log.recipientEmail}
            </Text>
            <UnknownEmailActions log={log} action="/?index" />
          </div>
        ))}
        <Anchor component={Link} to="/email?tab=logs" size="sm">
          {t("Open the email log")}
        </Anchor>
      </Stack>
    </Card>
  );
}
