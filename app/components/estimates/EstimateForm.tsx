import { Alert } from "#mantine/components/Alert/Alert";
import { Button } from "#mantine/components/Button/Button";
import { Group } from "#mantine/components/Group/Group";
import { SimpleGrid } from "#mantine/components/SimpleGrid/SimpleGrid";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { Link } from "@remix-run/react";
import { ValidatedForm } from "remix-validated-form";
import { estimateFormValidator } from "~/components/form/validators";
import type { EstimateEditInput } from "~/schemas/estimate";
import { REASON_MAX } from "~/schemas/estimate-limits";
import type { AssessmentJson } from "~/services/assessments.server";
import { asLines, lineCents } from "~/utils/estimate-lines";
import { CheckboxField } from "../form/fields/CheckboxField";
import { SelectField } from "../form/fields/SelectField";
import { SubmitButton } from "../form/fields/SubmitButton";
import { TextareaField } from "../form/fields/TextareaField";
import { TextField } from "../form/fields/TextField";
import { DAMAGE_TYPE_OPTIONS, LOCATION_OPTIONS, SEVERITY_OPTIONS } from "../training/labels";
import { useT } from "~/utils/i18n";

export const ESTIMATE_FORM_ID = "estimate-form";

const dollars = (cents: number | null) => (cents === null ? "" : (cents / 100).toFixed(2));

/**
 * Edit Estimate: one row per damage (type, location, severity, the line's amount in dollars, a
 * Remove box) and a blank row to add one, the overall severity and the reason. Plain fields, so it
 * posts without JavaScript; with it the same schema checks it in the browser first.
 */
export function EstimateForm({
  estimate,
  contacts,
  cancelTo,
}: {
  estimate: AssessmentJson;
  /** The customer dropdown: the estimate owner's contacts. */
  contacts: { id: string; firstName: string; lastName: string }[];
  cancelTo: string;
}) {
  const t = useT();
  const lines = asLines(estimate.lineItems);
  const priced = lines.length === estimate.damages.length;
  const rows = estimate.damages.map((d, i) => ({
    line: String(i),
    damageType: d.damageType,
    location: d.location,
    severity: d.severity,
    amount: priced ? dollars(lineCents(lines[i])) : "",
  }));
  const added = rows.length;
  const defaults = {
    severity: estimate.severity ?? "",
    contactId: estimate.contactId ?? "",
    reason: "",
    damages: [...rows, { line: "", damageType: "", location: "front", severity: "minor", amount: "" }],
  };
  return (
    <ValidatedForm
      key={estimate.id}
      id={ESTIMATE_FORM_ID}
      validator={estimateFormValidator}
      // The form's fields are text (amounts as typed); the schema turns them into the input's types.
      defaultValues={defaults as unknown as Partial<EstimateEditInput>}
      method="post"
      noValidate
      preventScrollReset
    >
      <input type="hidden" name="intent" value="update" />
      <input type="hidden" name="id" value={estimate.id} />
      <Stack>
        {estimate.status === "sent" && (
          <Alert color="blue" variant="light">
            {t("This estimate was sent: saving keeps it as it was and creates a supplement (version")} {estimate.version + 1}).
          </Alert>
        )}
        <SelectField
          name="contactId"
          label={t("Customer")}
          description={contacts.length === 0 ? t("No contacts yet: add the customer under Contacts first.") : undefined}
          data={[
            // Without a customer the first choice keeps it so; a customer, once set, is changed, not removed.
            ...(estimate.contactId ? [] : [{ value: "", label: "No contact" }]),
            ...contacts.map((c) => ({ value: c.id, label: `${c.firstName} ${c.lastName}` })),
            // The current customer stays a choice even when it is not among the newest contacts.
            ...(estimate.contactId && estimate.contact && !contacts.some((c) => c.id === estimate.contactId)
              ? [{ value: estimate.contactId, label: `${estimate.contact.firstName} ${estimate.contact.lastName}` }]
              : []),
          ]}
        />
        <SelectField name="severity" label={t("Severity")} data={[{ value: "", label: "Not determined" }, ...SEVERITY_OPTIONS]} />
        {defaults.damages.map((row, i) => (
          <fieldset key={i} style={{ border: "1px solid var(--mantine-color-gray-3)", borderRadius: 6, padding: 10, margin: 0 }} data-testid="estimate-row">
            <legend style={{ fontSize: 13, padding: "0 4px" }}>{i < added ? t("Line {{n}}", { n: i + 1 }) : t("Add a damage")}</legend>
            {i < added && <input type="hidden" name={`damages[${i}].line`} value={row.line} />}
            <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
              <SelectField
                name={`damages[${i}].damageType`}
                label={t("Damage type")}
                data={i < added ? DAMAGE_TYPE_OPTIONS : [{ value: "", label: "None" }, ...DAMAGE_TYPE_OPTIONS]}
              />
              <SelectField name={`damages[${i}].location`} label={t("Location")} data={LOCATION_OPTIONS} />
              <SelectField name={`damages[${i}].severity`} label={t("Severity")} data={SEVERITY_OPTIONS} />
              <TextField name={`damages[${i}].amount`} label={t("Amount (USD)")} type="number" step="0.01" placeholder={t("TBD")} />
            </SimpleGrid>
            {i < added && (
              <Group mt={6}>
                <CheckboxField name={`damages[${i}].remove`} label={t("Remove this line")} />
              </Group>
            )}
          </fieldset>
        ))}
        <Text size="xs" c="dimmed">
          {t("Leave an amount blank for a line still to be priced (the total then reads TBD).")}
        </Text>
        <TextareaField
          name="reason"
          label={t("Reason for the change")}
          description={t("Required when the total changes; kept in the audit trail and sent to the vendor's learning data (up to {{REASON_MAX}} characters).", { REASON_MAX })}
          autosize
          minRows={2}
        />
        <Group justify="flex-end">
          <Button component={Link} to={cancelTo} preventScrollReset variant="default">
            {t("Cancel")}
          </Button>
          <SubmitButton formId={ESTIMATE_FORM_ID}>{estimate.status === "sent" ? t("Create Supplement") : t("Save Estimate")}</SubmitButton>
        </Group>
      </Stack>
    </ValidatedForm>
  );
}
