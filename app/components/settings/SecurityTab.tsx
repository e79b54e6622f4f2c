import { Alert } from "#mantine/components/Alert/Alert";
import { Badge } from "#mantine/components/Badge/Badge";
import { Box } from "#mantine/core/Box/Box";
import { Button } from "#mantine/components/Button/Button";
import { Card } from "#mantine/components/Card/Card";
import { Code } from "#mantine/components/Code/Code";
import { Group } from "#mantine/components/Group/Group";
import { List } from "#mantine/components/List/List";
import { NativeSelect } from "~/components/form/NativeSelect";
import { SimpleGrid } from "#mantine/components/SimpleGrid/SimpleGrid";
import { Stack } from "#mantine/components/Stack/Stack";
import { Switch } from "#mantine/components/Switch/Switch";
import { Table } from "~/components/Table";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import type { SerializeFrom } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import type { ReactNode } from "react";
import { ValidatedForm } from "remix-validated-form";
import { apiTokenValidator, TOKEN_LIFETIMES } from "~/schemas/auth";
import { estimateLinkSettingsValidator, SESSION_TIMEOUT_CHOICES, twoFactorCodeValidator, twoFactorConfirmValidator } from "~/schemas/settings";
import type { securityTab } from "~/screens/settings-security.server";
import { useFormat, useT } from "~/utils/i18n";
import { FormError } from "../form/fields/FormError";
import { PasswordField } from "../form/fields/PasswordField";
import { SelectField } from "../form/fields/SelectField";
import { SubmitButton } from "../form/fields/SubmitButton";
import { TextField } from "../form/fields/TextField";
import { ChangePassword } from "./ChangePassword";

type Data = SerializeFrom<typeof securityTab>;
type ActionData =
  | { createdToken: { token: string; name: string } }
  | { recoveryCodes: string[]; revokedTokens: number }
  | { formError?: string; formId?: string; fieldErrors?: Record<string, string> }
  | undefined;

function SignInSettings({ data }: { data: Data }) {
  const t = useT();
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t("Sign-in")}
      </Title>
      <Form method="post">
        <input type="hidden" name="intent" value="update-security" />
        <Stack>
          <NativeSelect
            name="sessionTimeout"
            label={t("Session timeout")}
            description={t("How long a sign-in lasts; applies to your current sessions too.")}
            defaultValue={data.sessionTimeout}
            data={SESSION_TIMEOUT_CHOICES.map((c) => ({ ...c }))}
          />
          <Switch
            name="loginNotifications"
            value="on"
            defaultChecked={data.loginNotifications}
            label={t("Login notifications")}
            description={t("An email to you on each new sign-in.")}
          />
          <Group justify="flex-end">
            <Button type="submit">{t("Save")}</Button>
          </Group>
        </Stack>
      </Form>
    </Card>
  );
}

/** How long the customer's estimate links (in estimate emails and made through the API) stay open. */
function EstimateLinks({ days }: { days: number }) {
  const t = useT();
  return (
    <Card withBorder data-testid="estimate-links-settings">
      <Title order={2} size="h4" mb="sm">
        {t("Customer estimate links")}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t(
          "Every estimate email carries a link where your customer sees that version of the estimate and approves or declines it. New links stay open this many days; a link already sent keeps its date.",
        )}
      </Text>
      <ValidatedForm validator={estimateLinkSettingsValidator} method="post" id="estimate-links" noValidate defaultValues={{ estimateLinkDays: days }}>
        <input type="hidden" name="intent" value="update-estimate-links" />
        <Group align="flex-end">
          <TextField name="estimateLinkDays" label={t("Link expiry (days)")} type="number" step="1" />
          <SubmitButton formId="estimate-links">{t("Save link expiry")}</SubmitButton>
        </Group>
      </ValidatedForm>
    </Card>
  );
}

function TwoFactor({ data, actionData }: { data: Data; actionData: ActionData }) {
  const t = useT();
  const { enabled, enrolment, recoveryCodesLeft } = data.twoFactor;
  const recoveryCodes = actionData && "recoveryCodes" in actionData ? actionData.recoveryCodes : null;
  const revokedTokens = actionData && "revokedTokens" in actionData ? actionData.revokedTokens : 0;
  const formError = actionData && "formError" in actionData && actionData.formId !== "change-password" ? actionData.formError : null;
  return (
    <Card withBorder data-testid="two-factor">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {t("Two-factor authentication")}
        </Title>
        <Badge color={enabled ? "green" : "gray"} variant="light" data-testid="two-factor-status">
          {enabled ? t("On") : t("Off")}
        </Badge>
      </Group>
      {recoveryCodes && (
        <Alert color="green" title={t("Two-factor authentication is on")} mb="md" data-testid="recovery-codes">
          <Text size="sm" mb="xs">
            {t("Keep these recovery codes somewhere safe: each signs you in once if you lose your phone. They will not be shown again.")}
          </Text>
          {revokedTokens > 0 && (
            <Text size="sm" mb="xs" data-testid="tokens-revoked">
              {t("Your existing API tokens were revoked: create new ones if you need them.")}
            </Text>
          )}
          <SimpleGrid cols={2} spacing={4}>
            {recoveryCodes.map((code) => (
              <Code key={code}>{code}</Code>
            ))}
          </SimpleGrid>
        </Alert>
      )}
      {enabled ? (
        <Stack>
          <Text size="sm">
            {t("Signing in asks for a code from your authenticator app. Recovery codes left:")} {recoveryCodesLeft}.
          </Text>
          <CodeForm intent="2fa-disable" label={t("Code to turn it off")} formError={formError}>
            <SubmitButton formId="2fa-disable" color="red" variant="light">
              {t("Turn off")}
            </SubmitButton>
          </CodeForm>
        </Stack>
      ) : enrolment ? (
        <Stack>
          <Text size="sm">
            {t("Scan this QR code with an authenticator app (Google Authenticator, 1Password, Authy…), then enter the 6-digit code it shows.")}
          </Text>
          <Group align="flex-start">
            {/* The SVG is made on the server by the qrcode library from our own otpauth URI. */}
            <Box w={180} h={180} data-testid="totp-qr" dangerouslySetInnerHTML={{ __html: enrolment.qrSvg }} />
            <Stack gap={4}>
              <Text size="sm">{t("Or type this key:")}</Text>
              <Code data-testid="totp-key">{enrolment.manualKey}</Code>
            </Stack>
          </Group>
          <CodeForm intent="2fa-confirm" label={t("Verification code")} formError={formError} withPassword>
            <SubmitButton formId="2fa-confirm">{t("Confirm")}</SubmitButton>
          </CodeForm>
          <Form method="post">
            <input type="hidden" name="intent" value="2fa-begin" />
            <Button type="submit" variant="subtle" size="xs">
              {t("Start over with a new key")}
            </Button>
          </Form>
        </Stack>
      ) : (
        <Form method="post">
          <input type="hidden" name="intent" value="2fa-begin" />
          <Text size="sm" mb="sm">
            {t("Add a second step to signing in: a code from an authenticator app on your phone.")}
          </Text>
          <Button type="submit">{t("Set up two-factor authentication")}</Button>
        </Form>
      )}
    </Card>
  );
}

/**
 * A form asking for an authenticator code, posting `intent` (the form's id too); `withPassword` also
 * asks for the current password (turning two-factor on re-authenticates).
 */
function CodeForm({
  intent,
  label,
  formError,
  withPassword = false,
  children,
}: {
  intent: string;
  label: string;
  formError: string | null | undefined;
  withPassword?: boolean;
  children: ReactNode;
}) {
  const t = useT();
  return (
    <ValidatedForm validator={withPassword ? twoFactorConfirmValidator : twoFactorCodeValidator} method="post" id={intent} noValidate>
      <input type="hidden" name="intent" value={intent} />
      <FormError message={formError} />
      <Group align="flex-end">
        <TextField name="code" label={label} autoComplete="one-time-code" />
        {withPassword && <PasswordField name="currentPassword" id="two-factor-current-password" label={t("Current password")} autoComplete="current-password" />}
        {children}
      </Group>
    </ValidatedForm>
  );
}

function ApiKeys({ keys }: { keys: Data["keys"] }) {
  const t = useT();
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t("API keys")}
      </Title>
      <List spacing="xs" listStyleType="none">
        <List.Item>
          {/* A div: the badge inside is a div too, which a <p> cannot hold. */}
          <Text size="sm" component="div">
            {t("AI key:")}{" "}
            {keys.aiKey ? (
              <Code data-testid="ai-key">{keys.aiKey}</Code>
            ) : (
              <Badge variant="light" color="gray">
                {t("Not configured (embedded analysis)")}
              </Badge>
            )}{" "}
            <Text span c="dimmed" size="xs">
              {t("model")} {keys.aiModel}
            </Text>
          </Text>
        </List.Item>
        <List.Item>
          {/* A div: the badge inside is a div too, which a <p> cannot hold. */}
          <Text size="sm" component="div">
            {t("Object storage:")} <Badge variant="light" color="green">{keys.storage.kind === "s3" ? "S3" : t("Local")}</Badge>{" "}
            <Text span size="sm" data-testid="storage-status">
              {t(keys.storage.label)}
            </Text>
          </Text>
        </List.Item>
      </List>
    </Card>
  );
}

function ApiTokens({ tokens, actionData }: { tokens: Data["tokens"]; actionData: ActionData }) {
  const t = useT();
  const fmt = useFormat();
  // In the account's language and the server's time zone: the server's HTML and the browser's render agree.
  const dateTime = (iso: string | null) => (iso ? fmt.when(iso) : t("Never"));
  const created = actionData && "createdToken" in actionData ? actionData.createdToken : null;
  return (
    <Card withBorder>
      <Title order={2} size="h4">
        {t("Personal API tokens")}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {t("Use a token as")} <Code>{t("Authorization: Bearer <token>")}</Code> {t("to call the JSON API from your own systems. A token acts with your account's permissions.")}
      </Text>
      {created && (
        <Alert color="green" title={t("Token \"{{name}}\" created", { name: created.name })} mb="md" data-testid="new-token">
          <Text size="sm" mb={4}>
            {t("Copy it now: it will not be shown again.")}
          </Text>
          <Code block>{created.token}</Code>
        </Alert>
      )}
      <ValidatedForm validator={apiTokenValidator} method="post" id="create-token" noValidate resetAfterSubmit>
        <input type="hidden" name="intent" value="create-token" />
        <Group align="flex-end">
          <TextField name="name" label={t("Token name")} placeholder={t("e.g. DMS integration")} />
          <SelectField
            name="expiresInDays"
            label={t("Expires")}
            data={[{ value: "", label: "Never (until revoked)" }, ...TOKEN_LIFETIMES.map((d) => ({ value: String(d), label: `In ${d} days` }))]}
          />
          <SubmitButton formId="create-token">{t("Create token")}</SubmitButton>
        </Group>
      </ValidatedForm>
      {tokens.length === 0 ? (
        <Text c="dimmed" mt="md">
          {t("No API tokens yet.")}
        </Text>
      ) : (
        <Table mt="md" verticalSpacing="xs" stackOnPhone>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t("Name")}</Table.Th>
              <Table.Th>{t("Token")}</Table.Th>
              <Table.Th>{t("Created")}</Table.Th>
              <Table.Th>{t("Last used")}</Table.Th>
              <Table.Th>{t("Expires")}</Table.Th>
              <Table.Th aria-label="Actions" />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tokens.map((token) => (
              <Table.Tr key={token.id}>
                <Table.Td data-label={t("Name")}>{token.name}</Table.Td>
                <Table.Td data-label={t("Token")}>
                  <Badge variant="light" color="gray">
                    {token.prefix}…
                  </Badge>
                </Table.Td>
                <Table.Td data-label={t("Created")}>{dateTime(token.createdAt)}</Table.Td>
                <Table.Td data-label={t("Last used")}>{dateTime(token.lastUsedAt)}</Table.Td>
                <Table.Td data-label={t("Expires")}>{dateTime(token.expiresAt)}</Table.Td>
                <Table.Td>
                  <Form method="post">
                    <input type="hidden" name="intent" value="revoke-token" />
                    <input type="hidden" name="id" value={token.id} />
                    <Button type="submit" size="xs" color="red" variant="light" aria-label={`Revoke ${token.name}`}>
                      {t("Revoke")}
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

/** Settings → Security. */
export function SecurityTab({ data }: { data: Data }) {
  const actionData = useActionData<ActionData>();
  // A refusal of the Change Password form is shown on it (its field errors on their fields).
  const passwordError = actionData && "formError" in actionData && actionData.formId === "change-password" ? actionData.formError : null;
  return (
    <Stack>
      <SignInSettings data={data} />
      <EstimateLinks days={data.estimateLinkDays} />
      <ChangePassword formError={passwordError} version={data.accountVersion} />
      <TwoFactor data={data} actionData={actionData} />
      <ApiKeys keys={data.keys} />
      <ApiTokens tokens={data.tokens} actionData={actionData} />
    </Stack>
  );
}
