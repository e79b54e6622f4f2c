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
import { ValidatedForm, type Validator } from "remix-validated-form";
import type { AiProviderInput } from "~/schemas/ai-provider";
import type { AiProviderSettings } from "~/services/ai-provider.server";
import { FormError } from "../form/fields/FormError";
import { PasswordField } from "../form/fields/PasswordField";
import { SubmitButton } from "../form/fields/SubmitButton";
import { TextField } from "../form/fields/TextField";
import { useT } from "~/utils/i18n";

const FORM_ID = "ai-provider-form";

function currentSource(settings: AiProviderSettings) {
  if (settings.source === "settings") return `In use: ${settings.baseURL || "https://api.openai.com/v1"}, model ${settings.model} (saved here).`;
  if (settings.source === "environment") {
    return `In use: the server's OPENAI_* environment (${settings.environment.baseURL || "https://api.openai.com/v1"}, model ${settings.environment.model}). Saving here takes its place.`;
  }
  return settings.verifiedTrainingImages > 0
    ? `No AI provider is set up: photos are compared with the ${settings.verifiedTrainingImages} verified training image(s) only.`
    : "No AI provider is set up and no training image is verified: photos are not analysed until one of the two exists.";
}

/**
 * Admin Settings → AI Provider: OpenAI or any server speaking its chat completions with images
 * (llama.cpp, vLLM, Ollama). Applies to every account at once, without a restart.
 */
export function AiProviderForm({
  settings,
  validator,
  formError,
}: {
  settings: AiProviderSettings;
  validator: Validator<AiProviderInput>;
  formError?: string | null;
}) {
  const t = useT();
  return (
    <Card withBorder data-testid="ai-provider">
      <Title order={2} size="h4">
        {t("AI Provider")}
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        {t("The vision model that analyses the photos of every account: OpenAI, or any OpenAI-compatible server.")}
      </Text>
      <Text size="sm" mb="md" data-testid="ai-provider-source">
        {t(currentSource(settings))}
      </Text>
      {settings.apiKeyUnreadable && (
        <Alert color="orange" mb="md" title={t("Enter the API key again")}>
          {t("The stored key can no longer be read (the server's SESSION_SECRET changed).")}
        </Alert>
      )}
      <ValidatedForm
        key={JSON.stringify(settings)}
        resetAfterSubmit
        id={FORM_ID}
        validator={validator}
        method="post"
        noValidate
        defaultValues={{ baseURL: settings.baseURL, model: settings.model || settings.environment.model, apiKey: "" }}
      >
        <input type="hidden" name="intent" value="save-ai-provider" />
        <Stack>
          <FormError title={t("Failed to save the AI provider")} message={formError} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextField
              name="baseURL"
              label={t("Base URL")}
              placeholder="https://api.openai.com/v1"
              description={t("Blank: OpenAI. A local server: e.g. http://127.0.0.1:11434/v1")}
              autoComplete="off"
            />
            <TextField name="model" label={t("Model")} placeholder="gpt-4o-mini" autoComplete="off" required />
          </SimpleGrid>
          <PasswordField
            name="apiKey"
            label={t("API key")}
            autoComplete="new-password"
            description={settings.apiKeySet ? t("A key is stored (encrypted). Leave blank to keep it.") : t("Not set (a local server may need none).")}
          />
          {settings.apiKeySet && <Checkbox name="clearApiKey" value="on" label={t("Remove the stored key")} />}
          <Group justify="flex-end">
            <SubmitButton formId={FORM_ID}>{t("Save AI Provider")}</SubmitButton>
          </Group>
        </Stack>
      </ValidatedForm>
      <Form method="post">
        <input type="hidden" name="intent" value="test-ai-provider" />
        <Alert color="gray" mt="md" title={t("Test")}>
          <Group justify="space-between">
            <Text size="sm">{t("Sends one short request to the provider in use and says what it answered.")}</Text>
            <Button type="submit" variant="light" disabled={settings.source === "none"}>
              {t("Test")}
            </Button>
          </Group>
        </Alert>
      </Form>
      {settings.source === "settings" && (
        <Form method="post">
          <input type="hidden" name="intent" value="remove-ai-provider" />
          <Group justify="flex-end" mt="md">
            <Button type="submit" variant="subtle" color="red">
              {settings.environment.apiKeySet ? t("Remove (use the OPENAI_* environment)") : t("Remove the AI provider")}
            </Button>
          </Group>
        </Form>
      )}
    </Card>
  );
}
