import { Button } from "#mantine/components/Button/Button";
import { Card } from "#mantine/components/Card/Card";
import { Group } from "#mantine/components/Group/Group";
import { SimpleGrid } from "#mantine/components/SimpleGrid/SimpleGrid";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import { Form } from "@remix-run/react";
import { ValidatedForm } from "remix-validated-form";
import { estimateSettingsValidator, TERMS_MAX, TERMS_VARIABLES } from "~/schemas/estimate-settings";
import { SubmitButton } from "../form/fields/SubmitButton";
import { TextareaField } from "../form/fields/TextareaField";
import { TextField } from "../form/fields/TextField";
import { useT } from "~/utils/i18n";

export interface EstimateSettingsView {
  taxRates: { parts: number; labour: number; materials: number };
  terms: string;
  validityDays: number;
  logoUrl: string | null;
}

/**
 * Settings → Profile, Estimates: the logo on the PDF (its own multipart form: it posts with
 * JavaScript off too), tax rates per category, the terms printed above the signature and how long
 * an estimate is valid.
 */
export function EstimateSettingsCard({ settings }: { settings: EstimateSettingsView }) {
  const t = useT();
  return (
    <Card withBorder data-testid="estimate-settings">
      <Title order={2} size="h4">
        {t("Estimates")}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t("What your estimates are priced and printed with.")}
      </Text>
      <Stack>
        <Group align="flex-end">
          {settings.logoUrl ? (
            <img src={settings.logoUrl} alt={t("Your logo")} style={{ maxHeight: 56, maxWidth: 200 }} data-testid="logo-preview" />
          ) : (
            <Text size="sm">{t("No logo yet.")}</Text>
          )}
          <Form method="post" action="/settings/logo" encType="multipart/form-data" reloadDocument>
            <Group align="flex-end">
              <label style={{ fontSize: 14 }}>
                {t("Logo (PNG or JPEG, up to 2 MB)")}
                <br />
                <input type="file" name="logo" accept=".png,.jpg,.jpeg,image/png,image/jpeg" required />
              </label>
              <Button type="submit" variant="light">
                {t("Upload Logo")}
              </Button>
            </Group>
          </Form>
          {settings.logoUrl && (
            <Form method="post" action="/settings/logo" reloadDocument>
              <input type="hidden" name="intent" value="remove-logo" />
              <Button type="submit" variant="subtle" color="red">
                {t("Remove Logo")}
              </Button>
            </Form>
          )}
        </Group>
        <ValidatedForm
          validator={estimateSettingsValidator}
          method="post"
          id="estimate-settings-form"
          noValidate
          defaultValues={{
            taxParts: settings.taxRates.parts,
            taxLabour: settings.taxRates.labour,
            taxMaterials: settings.taxRates.materials,
            terms: settings.terms,
            validityDays: settings.validityDays,
          }}
        >
          <input type="hidden" name="intent" value="estimate-settings" />
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 4 }}>
              <TextField name="taxParts" label={t("Tax on parts (%)")} type="number" step="0.001" />
              <TextField name="taxLabour" label={t("Tax on labour (%)")} type="number" step="0.001" />
              <TextField name="taxMaterials" label={t("Tax on paint materials (%)")} type="number" step="0.001" />
              <TextField name="validityDays" label={t("Valid for (days)")} type="number" step="1" />
            </SimpleGrid>
            <TextareaField
              name="terms"
              label={t("Terms")}
              description={t("Printed above the signature, up to {{max}} characters. Variables: {{variables}}.", { max: TERMS_MAX, variables: TERMS_VARIABLES.map((v) => `{{${v}}}`).join(", ") })}
              autosize
              minRows={3}
            />
            <Group justify="flex-end">
              <SubmitButton formId="estimate-settings-form">{t("Save Estimate Settings")}</SubmitButton>
            </Group>
          </Stack>
        </ValidatedForm>
      </Stack>
    </Card>
  );
}
