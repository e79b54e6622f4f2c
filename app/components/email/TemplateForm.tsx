import { Button } from "#mantine/components/Button/Button";
import { Group } from "#mantine/components/Group/Group";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { Link, useFetcher } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { ValidatedForm } from "remix-validated-form";
import { emailTemplateValidator, TEMPLATE_LIMITS, TEMPLATE_VARIABLES } from "~/schemas/email";
import type { EmailTemplateJson } from "~/services/email-templates.server";
import { CheckboxField } from "../form/fields/CheckboxField";
import { FormError } from "../form/fields/FormError";
import { SubmitButton } from "../form/fields/SubmitButton";
import { TextareaField } from "../form/fields/TextareaField";
import { TextField } from "../form/fields/TextField";
import { EmailPreview, type PreviewData } from "./EmailPreview";
import { useFormat, useT } from "~/utils/i18n";

export const TEMPLATE_FORM_ID = "email-template-form";

type PreviewAnswer = { subject: string; html: string; warnings: string[] } | { message: string };

/**
 * New Template, doubling as Edit Template. With JavaScript the preview follows the typing (the
 * server renders it with sample data, 300 ms after the last key); without, the Preview button posts
 * the form and the page comes back with the preview and the entered values.
 */
export function TemplateForm({
  template,
  values,
  preview,
  formError,
  cancelTo,
}: {
  template: EmailTemplateJson | null;
  /** What was entered, when the page comes back from a no-JS preview. */
  values?: { name: string; subject: string; htmlContent: string; isDefault?: boolean } | null;
  preview: PreviewData | null;
  formError?: string | null;
  cancelTo: string;
}) {
  const t = useT();
  const fmt = useFormat();
  const fetcher = useFetcher<PreviewAnswer>();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  const source = values ?? template;
  const defaults = source
    ? { name: source.name, subject: source.subject, htmlContent: source.htmlContent, isDefault: Boolean(source.isDefault) }
    : { name: "", subject: "", htmlContent: "", isDefault: false };

  const live: PreviewData | null = fetcher.data
    ? "message" in fetcher.data
      ? { subject: "", html: "", warnings: [], error: fetcher.data.message }
      : { ...fetcher.data, error: null }
    : preview;

  const schedule = (form: HTMLFormElement) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const data = new FormData(form);
      fetcher.submit(
        { subject: String(data.get("subject") ?? ""), htmlContent: String(data.get("htmlContent") ?? "") },
        { method: "post", action: "/api/email-templates/preview", encType: "application/json" },
      );
    }, 300);
  };

  return (
    <ValidatedForm
      key={template?.id ?? "new"}
      id={TEMPLATE_FORM_ID}
      validator={emailTemplateValidator}
      defaultValues={defaults}
      method="post"
      noValidate
      preventScrollReset
      onChange={(event) => schedule(event.currentTarget)}
    >
      <input type="hidden" name="intent" value={template ? "update-template" : "create-template"} />
      {template && <input type="hidden" name="id" value={template.id} />}
      <Stack>
        <FormError title={template ? t("Failed to update template") : t("Failed to create template")} message={formError} />
        <TextField name="name" label={t("Template Name")} required autoComplete="off" />
        <TextField name="subject" label={t("Subject")} required autoComplete="off" />
        <TextareaField
          name="htmlContent"
          label={t("Content")}
          required
          autosize
          minRows={6}
          description={t("HTML; up to {{n}} characters", { n: fmt.count(TEMPLATE_LIMITS.htmlContent) })}
        />
        <Text size="xs" c="dimmed">
          {t("Variables:")} {TEMPLATE_VARIABLES.map((v) => `{{${v}}}`).join(" ")}
        </Text>
        <CheckboxField name="isDefault" label={t("Default template")} />
        <EmailPreview preview={live} />
        <Group justify="flex-end">
          <Button component={Link} to={cancelTo} preventScrollReset variant="default">
            {t("Cancel")}
          </Button>
          {/* Without JavaScript there is no live preview: this posts the form to see it. */}
          <noscript>
            <Button type="submit" name="preview" value="1" variant="light">
              {t("Preview")}
            </Button>
          </noscript>
          <SubmitButton formId={TEMPLATE_FORM_ID}>{template ? t("Update Template") : t("Create Template")}</SubmitButton>
        </Group>
      </Stack>
    </ValidatedForm>
  );
}
