import { Alert } from "#mantine/components/Alert/Alert";
import { Anchor } from "#mantine/components/Anchor/Anchor";
import { Badge } from "#mantine/components/Badge/Badge";
import { Button } from "#mantine/components/Button/Button";
import { Card } from "#mantine/components/Card/Card";
import { Checkbox } from "#mantine/components/Checkbox/Checkbox";
import { Code } from "#mantine/components/Code/Code";
import { Group } from "#mantine/components/Group/Group";
import { SimpleGrid } from "#mantine/components/SimpleGrid/SimpleGrid";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import type { SerializeFrom } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import type { ReactNode } from "react";
import { useField, ValidatedForm } from "remix-validated-form";
import { WEBHOOK_EVENT_TYPES, webhookEndpointCreateValidator } from "~/schemas/webhooks";
import type { webhooksSection } from "~/screens/settings-webhooks.server";
import { Table } from "~/components/Table";
import { FormError } from "../form/fields/FormError";
import { SubmitButton } from "../form/fields/SubmitButton";
import { TextField } from "../form/fields/TextField";
import { useFormat, useT } from "~/utils/i18n";

type Data = SerializeFrom<typeof webhooksSection>;
type ActionData = { webhookSecret?: { url: string; secret: string; rotated: boolean }; formError?: string; formId?: string } | undefined;

const FORM_ID = "webhook-create";
const STATUS_COLOR: Record<string, string> = { delivered: "green", pending: "blue", failed: "red", cancelled: "gray" };
/** A delivery's status as the catalogue names it (the API's values stay as they are). */
const STATUS_LABEL: Record<string, string> = { delivered: "Delivered", pending: "Pending", failed: "Failed", cancelled: "Cancelled" };

/** The event boxes: plain checkboxes named `events`, so the form posts without JavaScript too. */
function EventChoices() {
  const t = useT();
  const { error } = useField("events");
  return (
    <Checkbox.Group label={t("Events")} description={t("What this endpoint is sent.")} error={error && t(error)} id="events">
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing={6} mt={6}>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <Checkbox key={type} name="events" value={type} label={type} />
        ))}
      </SimpleGrid>
    </Checkbox.Group>
  );
}

function RowForm({ intent, id, children, extra }: { intent: string; id: string; children: ReactNode; extra?: Record<string, string> }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      {Object.entries(extra ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
    </Form>
  );
}

/** A date and time in the account's language (the server's time zone), or Never. */
function useDateTime() {
  const t = useT();
  const fmt = useFormat();
  return (iso: string | null) => (iso ? fmt.when(iso) : t("Never"));
}

function DeliveryLog({ log }: { log: NonNullable<Data["log"]> }) {
  const t = useT();
  const dateTime = useDateTime();
  return (
    <Stack gap="xs" mt="md" data-testid="webhook-log">
      <Group justify="space-between">
        <Title order={3} size="h5">
          {t("Deliveries to {{url}} ({{total}})", { url: log.endpoint.url, total: log.total })}
        </Title>
        <Anchor component={Link} to="/settings?tab=security" size="sm">
          {t("Close log")}
        </Anchor>
      </Group>
      {log.deliveries.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t("No deliveries yet.")}
        </Text>
      ) : (
        <Table verticalSpacing="xs" stackOnPhone>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t("Event")}</Table.Th>
              <Table.Th>{t("Status")}</Table.Th>
              <Table.Th>{t("Response")}</Table.Th>
              <Table.Th>{t("Time")}</Table.Th>
              <Table.Th>{t("Attempts")}</Table.Th>
              <Table.Th>{t("Created")}</Table.Th>
              <Table.Th aria-label={t("Actions")} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {log.deliveries.map((d) => {
              const last = d.attempts[d.attempts.length - 1];
              return (
                <Table.Tr key={d.id}>
                  <Table.Td data-label={t("Event")}>
                    {d.eventType}
                    <Text size="xs" c="dimmed">
                      {d.webhookId}
                    </Text>
                  </Table.Td>
                  <Table.Td data-label={t("Status")}>
                    <Badge variant="light" color={STATUS_COLOR[d.status] ?? "gray"}>
                      {t(STATUS_LABEL[d.status] ?? d.status)}
                    </Badge>
                    {d.nextAttemptAt && (
                      <Text size="xs" c="dimmed">
                        {t("Next attempt {{time}}", { time: dateTime(d.nextAttemptAt) })}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td data-label={t("Response")}>{last ? (last.statusCode ?? last.error ?? "—") : "—"}</Table.Td>
                  <Table.Td data-label={t("Time")}>{last ? `${last.durationMs} ms` : "—"}</Table.Td>
                  <Table.Td data-label={t("Attempts")}>{d.attempts.length}</Table.Td>
                  <Table.Td data-label={t("Created")}>{dateTime(d.createdAt)}</Table.Td>
                  <Table.Td>
                    <RowForm intent="webhook-redeliver" id={d.id} extra={{ webhook: log.endpoint.id }}>
                      <Button type="submit" size="xs" variant="light" aria-label={t("Redeliver {{event}} {{id}}", { event: d.eventType, id: d.webhookId })}>
                        {t("Redeliver")}
                      </Button>
                    </RowForm>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

/** Settings → Security → Webhooks: endpoints, their secrets (shown once), and each one's delivery log. */
export function WebhooksCard({ data }: { data: Data }) {
  const t = useT();
  const dateTime = useDateTime();
  // One sentence for the translators; the header names (protocol identifiers) go where {{headers}} is.
  const [intro, outro] = t("We POST each event you choose to your URL, signed per Standard Webhooks ({{headers}}), and retry for about a day until it answers 2xx.").split("{{headers}}");
  const actionData = useActionData<ActionData>();
  const shown = actionData?.webhookSecret;
  const formError = actionData?.formId === FORM_ID ? actionData.formError : undefined;
  return (
    <Card withBorder id="webhooks">
      <Title order={2} size="h4">
        {t("Webhooks")}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {intro}
        <Code>webhook-id</Code>, <Code>webhook-timestamp</Code>, <Code>webhook-signature</Code>
        {outro}
      </Text>
      {shown && (
        <Alert color="green" title={shown.rotated ? t("New signing secret") : t("Webhook endpoint added")} mb="md" data-testid="webhook-secret">
          <Text size="sm" mb={4}>
            {t("Signing secret for {{url}}. Copy it now: it will not be shown again.", { url: shown.url })}
            {shown.rotated ? ` ${t("The previous secret keeps signing beside it for 24 hours.")}` : ""}
          </Text>
          <Code block>{shown.secret}</Code>
        </Alert>
      )}
      <ValidatedForm validator={webhookEndpointCreateValidator} method="post" id={FORM_ID} noValidate resetAfterSubmit>
        <input type="hidden" name="intent" value="webhook-create" />
        <FormError message={formError} />
        <Stack gap="sm">
          <Group align="flex-end" grow>
            <TextField name="url" label={t("Endpoint URL")} placeholder="https://dms.example.com/hooks/damageiq" />
            <TextField name="description" label={t("Description")} placeholder={t("e.g. DMS")} />
          </Group>
          <EventChoices />
          <Group justify="flex-end">
            <SubmitButton formId={FORM_ID}>{t("Add endpoint")}</SubmitButton>
          </Group>
        </Stack>
      </ValidatedForm>
      {data.endpoints.length === 0 ? (
        <Text c="dimmed" mt="md">
          {t("No webhook endpoints yet.")}
        </Text>
      ) : (
        <Table mt="md" verticalSpacing="xs" stackOnPhone>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>URL</Table.Th>
              <Table.Th>{t("Events")}</Table.Th>
              <Table.Th>{t("Status")}</Table.Th>
              <Table.Th>{t("Last success")}</Table.Th>
              <Table.Th aria-label={t("Actions")} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.endpoints.map((e) => (
              <Table.Tr key={e.id} data-testid="webhook-row">
                <Table.Td data-label="URL">
                  <Text size="sm" style={{ wordBreak: "break-all" }}>
                    {e.url}
                  </Text>
                  {e.description && (
                    <Text size="xs" c="dimmed">
                      {e.description}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td data-label={t("Events")}>
                  <Text size="xs">{e.events.join(", ")}</Text>
                </Table.Td>
                <Table.Td data-label={t("Status")}>
                  <Badge variant="light" color={e.enabled ? "green" : "red"}>
                    {e.enabled ? t("On") : t("Off")}
                  </Badge>
                  {e.disabledReason && (
                    <Text size="xs" c="red">
                      {e.disabledReason}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td data-label={t("Last success")}>{dateTime(e.lastSuccessAt)}</Table.Td>
                <Table.Td>
                  <Group gap={6} justify="flex-end">
                    <Button component={Link} to={`/settings?tab=security&webhook=${e.id}#webhooks`} size="xs" variant="light" aria-label={t("Delivery log of {{url}}", { url: e.url })}>
                      {t("Log")}
                    </Button>
                    <RowForm intent="webhook-enable" id={e.id} extra={{ enabled: String(!e.enabled) }}>
                      <Button type="submit" size="xs" variant="light" aria-label={`${e.enabled ? t("Turn off") : t("Turn on")} ${e.url}`}>
                        {e.enabled ? t("Turn off") : t("Turn on")}
                      </Button>
                    </RowForm>
                    <RowForm intent="webhook-rotate" id={e.id}>
                      <Button type="submit" size="xs" variant="light" aria-label={t("Rotate secret for {{url}}", { url: e.url })}>
                        {t("Rotate secret")}
                      </Button>
                    </RowForm>
                    <RowForm intent="webhook-delete" id={e.id}>
                      <Button type="submit" size="xs" color="red" variant="light" aria-label={t("Delete {{noun}}", { noun: e.url })}>
                        {t("Delete")}
                      </Button>
                    </RowForm>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {data.log && <DeliveryLog log={data.log} />}
    </Card>
  );
}
