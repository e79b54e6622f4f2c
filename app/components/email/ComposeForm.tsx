import { Button } from "#mantine/components/Button/Button";
import { Group } from "#mantine/components/Group/Group";
import { Stack } from "#mantine/components/Stack/Stack";
import { Checkbox } from "#mantine/components/Checkbox/Checkbox";
import { Link, useActionData } from "@remix-run/react";
import { useState } from "react";
import { useField, ValidatedForm } from "remix-validated-form";
import { composeEmailValidator, TEMPLATE_LIMITS } from "~/schemas/email";
import { focusIfInvalid } from "../form/fields/field-base";
import { FormError } from "../form/fields/FormError";
import { SelectField } from "../form/fields/SelectField";
import { SubmitButton } from "../form/fields/SubmitButton";
import { TextareaField } from "../form/fields/TextareaField";
import type { SendPreview } from "~/services/email-send-preview.server";
import { SendConfirm } from "./SendConfirm";
import { useT } from "~/utils/i18n";

export const COMPOSE_FORM_ID = "compose-email-form";

export interface ComposeOptions {
  assessments: { id: string; title: string; contactId: string | null }[];
  contacts: { id: string; name: string; email: string }[];
  templates: { id: string; name: string; isDefault: boolean }[];
}

type Picked = { assessmentId: string; contactId: string };

/**
 * Compose Email (spec §5): assessment and contact required; template and additional message optional.
 * A contact who is not the chosen estimate's customer gets the confirmation "Make <name> this
 * estimate's customer" (issue 40): live as they are picked with JavaScript, and without it after the
 * server's refusal, from the values it sends back. Its submit shows the confirm step; nothing leaves before it.
 */
export function ComposeForm({ options, assessmentId, formError, cancelTo }: { options: ComposeOptions; assessmentId?: string; formError?: string | null; cancelTo: string }) {
  const t = useT();
  const chosen = options.assessments.find((a) => a.id === assessmentId);
  const actionData = useActionData<{ repopulateFields?: Partial<Picked>; sendConfirm?: SendPreview; returnTo?: string; formError?: string }>();
  const posted = actionData?.repopulateFields;
  const [picked, setPicked] = useState<Picked>({
    assessmentId: posted?.assessmentId ?? chosen?.id ?? "",
    contactId: posted?.contactId ?? chosen?.contactId ?? "",
  });
  const customerId = options.assessments.find((a) => a.id === picked.assessmentId)?.contactId ?? null;
  const recipient = customerId && picked.contactId && picked.contactId !== customerId ? options.contacts.find((c) => c.id === picked.contactId) : undefined;
  // The first submit shows the confirm step in its place (issue 40 item 3); its own submit sends.
  if (actionData?.sendConfirm) return <SendConfirm preview={actionData.sendConfirm} returnTo={actionData.returnTo ?? "/email?tab=logs"} formError={actionData.formError} />;
  return (
    <ValidatedForm
      id={COMPOSE_FORM_ID}
      validator={composeEmailValidator}
      defaultValues={{ assessmentId: chosen?.id ?? "", contactId: chosen?.contactId ?? "", templateId: "", additionalMessage: "" }}
      method="post"
      noValidate
      preventScrollReset
      onChange={(event) => {
        const field = event.target;
        if (!(field instanceof HTMLInputElement || field instanceof HTMLSelectElement || field instanceof HTMLTextAreaElement)) return;
        const { name, value } = field;
        if (name === "assessmentId" || name === "contactId") setPicked((now) => ({ ...now, [name]: value }));
      }}
    >
      <input type="hidden" name="intent" value="send" />
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
        {recipient ? <MakeCustomer name={recipient.name} /> : null}
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

/** The confirmation a send to someone other than the estimate's customer needs; the server's refusal shows under it. */
function MakeCustomer({ name }: { name: string }) {
  const t = useT();
  const { error, defaultValue } = useField("makeRecipientCustomer", { formId: COMPOSE_FORM_ID });
  const checked = defaultValue === true || defaultValue === "on" || defaultValue === "true";
  return (
    <Checkbox
      id="makeRecipientCustomer"
      name="makeRecipientCustomer"
      value="on"
      defaultChecked={checked}
      label={t("Make {{name}} this estimate's customer", { name })}
      error={error}
      {...focusIfInvalid(error)}
    />
  );
}
