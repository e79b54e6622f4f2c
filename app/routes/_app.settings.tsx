import { Alert, Badge, Button, Card, Code, Group, Stack, Table, Text, Title } from "@mantine/core";
import { LinkTabs } from "~/components/LinkTabs";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { ValidatedForm } from "remix-validated-form";
import { FormError, SelectField, SubmitButton, TextField } from "~/components/form/fields";
import { EmailTab } from "~/components/settings/EmailTab";
import { NotificationsTab } from "~/components/settings/NotificationsTab";
import { emailTabAction, emailTabData } from "~/screens/settings-email.server";
import { notificationsTabAction, notificationsTabData } from "~/screens/settings-notifications.server";
import { apiTokenValidator, TOKEN_LIFETIMES } from "~/schemas/auth";
import { createToken, listTokens, revokeToken } from "~/services/api-tokens.server";
import { requireUser } from "~/services/auth.server";
import { redirectWithToast } from "~/services/session.server";
import { asFormFailure, handleForm } from "~/utils/forms.server";

export const meta: MetaFunction = () => [{ title: "Settings · DamageIQ" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await requireUser(request);
  const tab = new URL(request.url).searchParams.get("tab");
  // Each tab's data comes from its own module; only the open tab's is read.
  const [tokens, email, notifications] = await Promise.all([
    listTokens(actor),
    tab === "email" ? emailTabData(actor) : null,
    tab === "notifications" ? notificationsTabData(actor) : null,
  ]);
  return json({ tokens, email, notifications }, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireUser(request);
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "save-mail-server" || intent === "test-connection") return emailTabAction(actor, request, form);
  if (intent === "save-notifications") return notificationsTabAction(actor, request, form);
  if (intent === "create-token") {
    return handleForm(
      request,
      apiTokenValidator,
      async (input) => {
        const created = await createToken(actor, input);
        // Shown once: the page renders it from this response and never again.
        return json({ createdToken: created }, { headers: { "Cache-Control": "no-store" } });
      },
      form,
    );
  }
  if (intent === "revoke-token") {
    try {
      await revokeToken(actor, String(form.get("id") ?? ""));
      return redirectWithToast(request, "/settings?tab=security", { title: "Success", message: "API token revoked" });
    } catch (error) {
      const failure = await asFormFailure(error);
      if (!failure) throw error;
      return redirectWithToast(request, "/settings?tab=security", { title: "Error", message: failure.message, color: "red" });
    }
  }
  return json({ formError: "Unknown action" }, { status: 400 });
}

// Spec order: Profile, Email, Security, Notifications, System.
const TABS = [
  { value: "email", label: "Email" },
  { value: "security", label: "Security" },
  { value: "notifications", label: "Notifications" },
];

type ActionData = { createdToken: { token: string; name: string } } | { formError?: string } | undefined;

const dateTime = (iso: string | null) => (iso ? new Date(iso).toLocaleString("en-US") : "Never");

function ApiTokens() {
  const { tokens } = useLoaderData<typeof loader>();
  const data = useActionData<ActionData>();
  const created = data && "createdToken" in data ? data.createdToken : null;
  const formError = data && "formError" in data ? data.formError : null;
  return (
    <Card withBorder>
      <Title order={2} size="h4">
        Personal API tokens
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Use a token as <Code>Authorization: Bearer &lt;token&gt;</Code> to call the JSON API from your own systems.
        A token acts with your account&apos;s permissions.
      </Text>
      {created && (
        <Alert color="green" title={`Token "${created.name}" created`} mb="md" data-testid="new-token">
          <Text size="sm" mb={4}>
            Copy it now: it will not be shown again.
          </Text>
          <Code block>{created.token}</Code>
        </Alert>
      )}
      <ValidatedForm validator={apiTokenValidator} method="post" id="create-token" noValidate resetAfterSubmit>
        <input type="hidden" name="intent" value="create-token" />
        <FormError message={formError} />
        <Group align="flex-end">
          <TextField name="name" label="Token name" placeholder="e.g. DMS integration" />
          <SelectField
            name="expiresInDays"
            label="Expires"
            data={[{ value: "", label: "Never (until revoked)" }, ...TOKEN_LIFETIMES.map((d) => ({ value: String(d), label: `In ${d} days` }))]}
          />
          <SubmitButton formId="create-token">Create token</SubmitButton>
        </Group>
      </ValidatedForm>
      {tokens.length === 0 ? (
        <Text c="dimmed" mt="md">
          No API tokens yet.
        </Text>
      ) : (
        <Table mt="md" verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Token</Table.Th>
              <Table.Th>Created</Table.Th>
              <Table.Th>Last used</Table.Th>
              <Table.Th>Expires</Table.Th>
              <Table.Th aria-label="Actions" />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tokens.map((t) => (
              <Table.Tr key={t.id}>
                <Table.Td>{t.name}</Table.Td>
                <Table.Td>
                  <Badge variant="light" color="gray">
                    {t.prefix}…
                  </Badge>
                </Table.Td>
                <Table.Td>{dateTime(t.createdAt)}</Table.Td>
                <Table.Td>{dateTime(t.lastUsedAt)}</Table.Td>
                <Table.Td>{dateTime(t.expiresAt)}</Table.Td>
                <Table.Td>
                  <Form method="post">
                    <input type="hidden" name="intent" value="revoke-token" />
                    <input type="hidden" name="id" value={t.id} />
                    <Button type="submit" size="xs" color="red" variant="light" aria-label={`Revoke ${t.name}`}>
                      Revoke
                    </Button>
                  </Form>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}

export default function Settings() {
  const [params] = useSearchParams();
  const { email, notifications } = useLoaderData<typeof loader>();
  const data = useActionData<ActionData>();
  const tab = TABS.find((t) => t.value === params.get("tab")) ?? TABS.find((t) => t.value === "security")!;
  return (
    <Stack>
      <Title order={1}>Settings</Title>
      <LinkTabs tabs={TABS} active={tab.value} label="Settings sections" />
      {tab.value === "email" && email && <EmailTab settings={email.mailServer} formError={data && "formError" in data ? data.formError : null} />}
      {tab.value === "security" && <ApiTokens />}
      {tab.value === "notifications" && notifications && <NotificationsTab settings={notifications.notifications} />}
    </Stack>
  );
}
