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

type Data = SerializeFrom<typeof webhooksSection>;
type ActionData = { webhookSecret?: { url: string; secret: string; rotated: boolean }; formError?: string; formId?: string } | undefined;

const FORM_ID = "webhook-create";
const dateTime = (iso: string | null) => (iso ? new Date(iso).toLocaleString("en-US") : "Never");
const STATUS_COLOR: Record<string, string> = { delivered: "green", pending: "blue", failed: "red", cancelled: "gray" };

/** The event boxes: plain checkboxes named `events`, so the form posts without JavaScript too. */
function EventChoices() {
  const { error } = useField("events");
  return (
    <Checkbox.Group label="Events" description="What this endpoint is sent." error={error} id="events">
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

function DeliveryLog({ log }: { log: NonNullable<Data["log"]> }) {
  return (
    <Stack gap="xs" mt="md" data-testid="webhook-log">
      <Group justify="space-between">
        <Title order={3} size="h5">
          Deliveries to {log.endpoint.url} ({log.total})
        </Title>
        <Anchor component={Link} to="/settings?tab=security" size="sm">
          Close log
        </Anchor>
      </Group>
      {log.deliveries.length === 0 ? (
        <Text c="dimmed" size="sm">
          No deliveries yet.
        </Text>
      ) : (
        <Table verticalSpacing="xs" stackOnPhone>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Event</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Response</Table.Th>
              <Table.Th>Time</Table.Th>
              <Table.Th>Attempts</Table.Th>
              <Table.Th>Created</Table.Th>
              <Table.Th aria-label="Actions" />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {log.deliveries.map((d) => {
              const last = d.attempts[d.attempts.length - 1];
              return (
                <Table.Tr key={d.id}>
                  <Table.Td data-label="Event">
                    {d.eventType}
                    <Text size="xs" c="dimmed">
                      {d.webhookId}
                    </Text>
                  </Table.Td>
                  <Table.Td data-label="Status">
                    <Badge variant="light" color={STATUS_COLOR[d.status] ?? "gray"}>
                      {d.status}
                    </Badge>
                    {d.nextAttemptAt && (
                      <Text size="xs" c="dimmed">
                        next {dateTime(d.nextAttemptAt)}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td data-label="Response">{last ? (last.statusCode ?? last.error ?? "—") : "—"}</Table.Td>
                  <Table.Td data-label="Time">{last ? `${last.durationMs} ms` : "—"}</Table.Td>
                  <Table.Td data-label="Attempts">{d.attempts.length}</Table.Td>
                  <Table.Td data-label="Created">{dateTime(d.createdAt)}</Table.Td>
                  <Table.Td>
                    <RowForm intent="webhook-redeliver" id={d.id} extra={{ webhook: log.endpoint.id }}>
                      <Button type="submit" size="xs" variant="light" aria-label={`Redeliver ${d.eventType} ${d.webhookId}`}>
                        Redeliver
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
  const actionData = useActionData<ActionData>();
  const shown = actionData?.webhookSecret;
  const formError = actionData?.formId === FORM_ID ? actionData.formError : undefined;
  return (
    <Card withBorder id="webhooks">
      <Title order={2} size="h4">
        Webhooks
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        We POST each event you choose to your URL, signed per Standard Webhooks (<Code>webhook-id</Code>,{" "}
        <Code>webhook-timestamp</Code>, <Code>webhook-signature</Code>), and retry for about a day until it answers 2xx.
      </Text>
      {shown && (
        <Alert color="green" title={shown.rotated ? "New signing secret" : "Webhook endpoint added"} mb="md" data-testid="webhook-secret">
          <Text size="sm" mb={4}>
            Signing secret for {shown.url}. Copy it now: it will not be shown again.
            {shown.rotated ? " The previous secret keeps signing beside it for 24 hours." : ""}
          </Text>
          <Code block>{shown.secret}</Code>
        </Alert>
      )}
      <ValidatedForm validator={webhookEndpointCreateValidator} method="post" id={FORM_ID} noValidate resetAfterSubmit>
        <input type="hidden" name="intent" value="webhook-create" />
        <FormError message={formError} />
        <Stack gap="sm">
          <Group align="flex-end" grow>
            <TextField name="url" label="Endpoint URL" placeholder="https://dms.example.com/hooks/damageiq" />
            <TextField name="description" label="Description" placeholder="e.g. DMS" />
          </Group>
          <EventChoices />
          <Group justify="flex-end">
            <SubmitButton formId={FORM_ID}>Add endpoint</SubmitButton>
          </Group>
        </Stack>
      </ValidatedForm>
      {data.endpoints.length === 0 ? (
        <Text c="dimmed" mt="md">
          No webhook endpoints yet.
        </Text>
      ) : (
        <Table mt="md" verticalSpacing="xs" stackOnPhone>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>URL</Table.Th>
              <Table.Th>Events</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Last success</Table.Th>
              <Table.Th aria-label="Actions" />
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
                <Table.Td data-label="Events">
                  <Text size="xs">{e.events.join(", ")}</Text>
                </Table.Td>
                <Table.Td data-label="Status">
                  <Badge variant="light" color={e.enabled ? "green" : "red"}>
                    {e.enabled ? "On" : "Off"}
                  </Badge>
                  {e.disabledReason && (
                    <Text size="xs" c="red">
                      {e.disabledReason}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td data-label="Last success">{dateTime(e.lastSuccessAt)}</Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Button component={Link} to={`/settings?tab=security&webhook=${e.id}#webhooks`} size="xs" variant="light" aria-label={`Delivery log of ${e.url}`}>
                      Log
                    </Button>
                    <RowForm intent="webhook-enable" id={e.id} extra={{ enabled: String(!e.enabled) }}>
                      <Button type="submit" size="xs" variant="light" aria-label={`${e.enabled ? "Turn off" : "Turn on"} ${e.url}`}>
                        {e.enabled ? "Turn off" : "Turn on"}
                      </Button>
                    </RowForm>
                    <RowForm intent="webhook-rotate" id={e.id}>
                      <Button type="submit" size="xs" variant="light" aria-label={`Rotate the secret of ${e.url}`}>
                        Rotate secret
                      </Button>
                    </RowForm>
                    <RowForm intent="webhook-delete" id={e.id}>
                      <Button type="submit" size="xs" color="red" variant="light" aria-label={`Delete ${e.url}`}>
                        Delete
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
