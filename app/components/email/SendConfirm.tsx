import { Alert } from "#mantine/components/Alert/Alert";
import { Button } from "#mantine/components/Button/Button";
import { Group } from "#mantine/components/Group/Group";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { Link, useSubmit } from "@remix-run/react";
import { ValidatedForm } from "remix-validated-form";
import { sendConfirmValidator } from "~/schemas/email";
import type { SendPreview } from "~/services/email-send-preview.server";
import { useT } from "~/utils/i18n";
import { FormError } from "../form/fields/FormError";
import { SelectField } from "../form/fields/SelectField";
import { SubmitButton } from "../form/fields/SubmitButton";
import { EmailPreview } from "./EmailPreview";
import { SendKeyField } from "./SendKeyField";

const SEND_CONFIRM_FORM_ID = "send-confirm-form";

/**
 * The confirm step before an estimate leaves (issue 40 item 3): to whom, with which template, the
 * email as it will read, the PDF it carries, and a warning when the estimate was not analysed or
 * its cost is TBD. Everything the send needs rides in the form, so without JavaScript it is the
 * second step of a two-step form; "Update Preview" shows another template (with JavaScript, picking
 * one does it).
 */
export function SendConfirm({ preview, returnTo, formError }: { preview: SendPreview; returnTo: string; formError?: string | null }) {
  const t = useT();
  const submit = useSubmit();
  // The form's state is kept per form id: one per template shown, so a new preview starts from its own pick.
  const formId = `${SEND_CONFIRM_FORM_ID}-${preview.templateId || "default"}`;
  return (
    <ValidatedForm
      key={formId}
      id={formId}
      validator={sendConfirmValidator}
      defaultValues={{ templateId: preview.templateId }}
      method="post"
      noValidate
      preventScrollReset
      onChange={(event) => {
        const field = event.target as HTMLSelectElement;
        if (field.name !== "templateId" || !field.form) return;
        const data = new FormData(field.form);
        data.set("step", "review");
        submit(data, { method: "post", preventScrollReset: true });
      }}
    >
      <input type="hidden" name="intent" value="send" />
      <input type="hidden" name="assessmentId" value={preview.assessmentId} />
      <input type="hidden" name="contactId" value={preview.recipient.contactId} />
      <input type="hidden" name="additionalMessage" value={preview.additionalMessage} />
      {preview.makeRecipientCustomer && <input type="hidden" name="makeRecipientCustomer" value="on" />}
      <input type="hidden" name="returnTo" value={returnTo} />
      <SendKeyField id={`confirm:${preview.assessmentId}`} />
      <Stack data-testid="send-confirm">
        <FormError title={t("Failed to send email")} message={formError} />
        {(preview.notAnalysed || preview.costTbd) && (
          <Alert color="yellow" role="alert" title={t("Check this estimate before you send it")} data-testid="send-warning">
            {preview.notAnalysed && <div>{t("It was not analysed: nothing looked at its photos.")}</div>}
            {preview.costTbd && <div>{t("Its cost is TBD: the customer will see TBD, not a price.")}</div>}
          </Alert>
        )}
        <Text>
          <Text span c="dimmed">
            {t("To:")}{" "}
          </Text>
          <span data-testid="send-recipient">{`${preview.recipient.name} <${preview.recipient.email}>`}</span>
        </Text>
        {preview.makeRecipientCustomer && <Text size="sm">{t("{{name}} becomes this estimate's customer.", { name: preview.recipient.name })}</Text>}
        <Text>
          <Text span c="dimmed">
            {t("Estimate:")}{" "}
          </Text>
          {preview.assessmentTitle}
        </Text>
        <Group align="flex-end" wrap="wrap">
          <SelectField
            name="templateId"
            label={t("Template")}
            data={[
              { value: "", label: t("Default template") },
              ...preview.templates.map((o) => ({ value: o.id, label: o.isDefault ? `${o.name} (default)` : o.name })),
            ]}
          />
          <SubmitButton formId={formId} name="step" value="review" variant="default">
            {t("Update Preview")}
          </SubmitButton>
        </Group>
        <EmailPreview preview={{ subject: preview.message.subject, html: preview.message.html, warnings: [], error: null }} title={t("Preview")} />
        <Text size="sm">
          <Text span c="dimmed">
            {t("Attachment:")}{" "}
          </Text>
          <span data-testid="send-attachment">{preview.attachment.name}</span>
        </Text>
        <Group justify="flex-end">
          <Button component={Link} to={returnTo} preventScrollReset variant="default">
            {t("Cancel")}
          </Button>
          <SubmitButton formId={formId} name="step" value="send">
            {t("Send Email")}
          </SubmitButton>
        </Group>
      </Stack>
    </ValidatedForm>
  );
}
