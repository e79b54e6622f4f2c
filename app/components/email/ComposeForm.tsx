import { Button } from "#mantine/components/Button/Button";
import { Group } from "#mantine/components/Group/Group";
import { Stack } from "#mantine/components/Stack/Stack";
import { Link } from "@remix-run/react";
import { ValidatedForm } from "remix-validated-form";
import { composeEmailValidator, TEMPLATE_LIMITS } from "~/schemas/email";
import { FormError } from "../form/fields/FormError";
import { SelectField } from "../form/fields/SelectField";
import { SubmitButton } from "../form/fields/SubmitButton";
import { TextareaField } from "../form/fields/TextareaField";
import { SendKeyField } from "./SendKeyField";
import { useT } from "~/utils/i18n";

export const COMPOSE_FORM_ID = "compose-email-form";

export interface ComposeOptions {
  assessments: { id: string; title: string; contactId: string | null }[];
  contacts: { id: string; name: string; email: string }[];
  templates: { id: string; name: string; isDefault: boolean }[];
}

/** Compose Email (spec §5): assessment and contact required; template and additional message optional. */
export function ComposeForm({ options, assessmentId, formError, cancelTo }: { options: ComposeOptions; assessmentId?: string; formError?: string | null; cancelTo: string }) {
  const t = useT();
  const chosen = options.assessments.find((a) => a.id === assessmentId);
  return (
    <ValidatedForm
      id={COMPOSE_FORM_ID}
      validator={composeEmailValidator}
      defaultValues={{ assessmentId: chosen?.id ?? "", contactId: chosen?.contactId ?? "", templateId: "", additionalMessage: "" }}
      method="post"
      noValidate
      preventScrollReset
    >
      <input type="hidden" name="intent" value="send" />
      <SendKeyField id="compose" />
      <Stack>
        <FormError title={t("Failed to send email")} message={formError} />
        <SelectField
          name="assessmentId"
          label={t("Assessment")}
          required
          data={[{ value: "", label: "Select an assessment" }, ...options.assessments.map((a) => ({ value: a.id, label: a.title }))]}
        />
        <SelectField
          name="contactId"
          label={t("Contact")}
          required
          data={[{ value: "", label: "Select a contact" }, ...options.contacts.map((c) => ({ value: c.id, label: `${c.name} <${c.email}>` }))]}
        />
        <SelectField
          name="templateId"
          label={t("Template")}
          data={[
            { value: "", label: "Default template" },
            ...options.templates.map((t) => ({ value: t.id, label: t.isDefault ? `${t.name} (default)` : t.name })),
          ]}
        />
        <TextareaField
          name="additionalMessage"
          label={t("Additional Message")}
          autosize
          minRows={3}
          description={t("Optional; added below the template (up to {{additionalMessage}} characters)", { additionalMessage: TEMPLATE_LIMITS.additionalMessage })}
        />
        <Group justify="flex-end">
          <Button component={Link} to={cancelTo} preventScrollReset variant="default">
            {t("Cancel")}
          </Button>
          <SubmitButton formId={COMPOSE_FORM_ID}>{t("Send Email")}</SubmitButton>
        </Group>
      </Stack>
    </ValidatedForm>
  );
}
