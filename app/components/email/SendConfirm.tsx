import { Alert } from "#mantine/components/Alert/Alert";
import { Button } from "#mantine/components/Button/Button";
import { Group } from "#mantine/components/Group/Group";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { Form, Link, useNavigation, useSubmit } from "@remix-run/react";
import type { SendPreview } from "~/services/email-send-preview.server";
import { useT } from "~/utils/i18n";
import { FormError } from "../form/fields/FormError";
import { NativeSelect } from "../form/NativeSelect";
import { EmailPreview } from "./EmailPreview";
import { SendKeyField } from "./SendKeyField";

/**
 * The confirm step before an estimate leaves (issue 40 item 3): to whom, with which template, the
 * email as it will read, the PDF it carries, and a warning when the estimate was not analysed or
 * its cost is TBD. Everything the send needs rides in the form, so without JavaScript it is the
 * second step of a two-step form; "Update Preview" shows another template (with JavaScript, picking
 * one does it). A plain form, not the form library: its only field is a select the server checks
 * (sendConfirmSchema), and the library would make /send the one screen loading it at first, which
 * reshaped every screen's shared chunks (decision 0039).
 */
export function SendConfirm({ preview, returnTo, formError }: { preview: SendPreview; returnTo: string; formError?: string | null }) {
  const t = useT();
  const submit = useSubmit();
  const navigation = useNavigation();
  const step = navigation.state === "submitting" ? navigation.formData?.get("step") : null;
  return (
    <Form
      // A new preview starts from its own template's pick.
      key={preview.templateId || "default"}
      method="post"
      preventScrollReset
      onChange={(event) => {
        const field = event.target;
        if (!(field instanceof HTMLInputElement || field instanceof HTMLSelectElement || field instanceof HTMLTextAreaElement)) return;
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
          <NativeSelect
            id="templateId"
            name="templateId"
            label={t("Template")}
            defaultValue={preview.templateId}
            data={[
              { value: "", label: "Default template" },
              ...preview.templates.map((o) => ({ value: o.id, label: o.isDefault ? t("{{name}} (default)", { name: o.name }) : o.name })),
            ]}
          />
          <Button type="submit" name="step" value="review" variant="default" loading={step === "review"}>
            {t("Update Preview")}
          </Button>
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
          <Button type="submit" name="step" value="send" loading={step === "send"}>
            {t("Send Email")}
          </Button>
        </Group>
      </Stack>
    </Form>
  );
}
