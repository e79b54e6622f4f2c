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
import { ESTIMATE_LANGUAGES, LABOUR_CATEGORIES, OPERATION_LABELS, OPERATIONS, PART_TYPE_LABELS, PART_TYPES } from "~/schemas/estimate-sheet";
import { CheckboxField } from "../form/fields/CheckboxField";
import { EstimateConflictAlert, useKeptRows } from "./EstimateConflict";
import { SelectField } from "../form/fields/SelectField";
import { SubmitButton } from "../form/fields/SubmitButton";
import { TextareaField } from "../form/fields/TextareaField";
import { TextField } from "../form/fields/TextField";
import { DAMAGE_TYPE_OPTIONS, humanize, LOCATION_OPTIONS, SEVERITY_OPTIONS } from "../training/labels";
import { useT } from "~/utils/i18n";

export const ESTIMATE_FORM_ID = "estimate-form";

const dollars = (cents: number | null) => (cents === null ? "" : (cents / 100).toFixed(2));

const OPERATION_OPTIONS = OPERATIONS.map((value) => ({ value, label: OPERATION_LABELS[value] }));
const CATEGORY_OPTIONS = [{ value: "", label: "No labour" }, ...LABOUR_CATEGORIES.map((value) => ({ value, label: value[0].toUpperCase() + value.slice(1) }))];
const PART_OPTIONS = [{ value: "", label: "No part" }, ...PART_TYPES.map((value) => ({ value, label: PART_TYPE_LABELS[value] }))];
const LANGUAGE_OPTIONS = ESTIMATE_LANGUAGES.map((value) => ({ value, label: { en: "English", es: "Español", fr: "Français" }[value] }));
const BLANK_LINE = {
  id: "",
  damage: "",
  operation: "",
  description: "",
  labourCategory: "",
  hours: "",
  rate: "",
  partType: "",
  partNumber: "",
  partDescription: "",
  quantity: "",
  unitPrice: "",
  amount: "",
  note: "",
  optional: "",
};

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
  const { sheet } = estimate;
  const rows = estimate.damages.map((d, i) => ({ line: String(i), damageType: d.damageType, location: d.location, severity: d.severity }));
  const lines = sheet.lines.map((l) => ({
    id: l.id,
    damage: l.damage === null ? "" : String(l.damage),
    operation: l.operation,
    description: l.description,
    labourCategory: l.labour?.category ?? "",
    hours: l.labour ? String(l.labour.hours) : "",
    rate: l.labour ? dollars(l.labour.rateCents) : "",
    partType: l.part?.type ?? "",
    partNumber: l.part?.number ?? "",
    partDescription: l.part?.description ?? "",
    quantity: l.part ? String(l.part.quantity) : "",
    unitPrice: l.part ? dollars(l.part.unitPriceCents) : "",
    amount: l.amountCents === 0 ? "" : dollars(l.amountCents),
    note: l.note,
    optional: l.optional ? "on" : "",
  }));
  const defaults = {
    severity: estimate.severity ?? "",
    contactId: estimate.contactId ?? "",
    reason: "",
    materialsRate: dollars(sheet.materialsRateCents),
    deductible: sheet.deductibleCents === null ? "" : dollars(sheet.deductibleCents),
    language: sheet.language ?? "en",
    mileage: sheet.mileage === null ? "" : String(sheet.mileage),
    damages: [...rows, { line: "", damageType: "", location: "front", severity: "minor" }],
    lines: [...lines, BLANK_LINE],
  };
  // A stale save refused (EstimateConflictAlert): the rows as they were posted, so what was typed
  // stays on its row with the line it was typed against (JavaScript off too).
  const kept = useKeptRows({ line: "", damageType: "", location: "", severity: "" }, BLANK_LINE);
  if (kept) Object.assign(defaults, kept);
  const added = defaults.damages.filter((row) => row.line !== "").length;
  const existingLines = defaults.lines.filter((line) => line.id !== "").length;
  const damageOptions = [
    { value: "", label: "Whole vehicle" },
    ...defaults.damages
      .slice(0, added)
      .map((d, i) => ({ value: String(i), label: `#${i + 1} ${t(humanize(d.damageType)).toLowerCase()} (${t(humanize(d.location)).toLowerCase()})` })),
  ];
  return (
    <ValidatedForm<EstimateEditInput | typeof defaults, undefined>
      key={estimate.id}
      id={ESTIMATE_FORM_ID}
      validator={estimateFormValidator}
      // The form's fields are text (amounts as typed); the schema turns them into the input's types.
      defaultValues={defaults}
      method="post"
      noValidate
      preventScrollReset
    >
      <input type="hidden" name="intent" value="update" />
      <input type="hidden" name="id" value={estimate.id} />
      {/* The version this form was read at: a save over a later one is refused (EstimateConflictAlert). */}
      <input type="hidden" name="revision" value={estimate.revision} />
      <input type="hidden" name="seenAudit" value={estimate.audit.length} />
      <Stack>
        <EstimateConflictAlert />
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
            </SimpleGrid>
            {i < added && (
              <Group mt={6}>
                <CheckboxField name={`damages[${i}].remove`} label={t("Remove this damage and its lines")} />
              </Group>
            )}
          </fieldset>
        ))}
        {defaults.lines.map((line, i) => (
          <fieldset key={`line-${i}`} style={{ border: "1px solid var(--mantine-color-gray-3)", borderRadius: 6, padding: 10, margin: 0 }} data-testid="sheet-line-row">
            <legend style={{ fontSize: 13, padding: "0 4px" }}>{i < existingLines ? t("Estimate line {{n}}", { n: i + 1 }) : t("Add a line")}</legend>
            {i < existingLines && <input type="hidden" name={`lines[${i}].id`} value={line.id} />}
            <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
              <SelectField name={`lines[${i}].damage`} label={t("Damage")} data={damageOptions} />
              <SelectField
                name={`lines[${i}].operation`}
                label={t("Operation")}
                data={i < existingLines ? OPERATION_OPTIONS : [{ value: "", label: "None" }, ...OPERATION_OPTIONS]}
              />
              <TextField name={`lines[${i}].description`} label={t("Description")} />
              <TextField name={`lines[${i}].note`} label={t("Note")} />
              <SelectField name={`lines[${i}].labourCategory`} label={t("Labour")} data={CATEGORY_OPTIONS} />
              <TextField name={`lines[${i}].hours`} label={t("Hours")} type="number" step="0.01" />
              <TextField name={`lines[${i}].rate`} label={t("Rate (USD/h)")} type="number" step="0.01" placeholder={t("Category rate")} />
              <TextField name={`lines[${i}].amount`} label={t("Sublet / other (USD)")} type="number" step="0.01" />
              <SelectField name={`lines[${i}].partType`} label={t("Part type")} data={PART_OPTIONS} />
              <TextField name={`lines[${i}].partNumber`} label={t("Part number")} />
              <TextField name={`lines[${i}].partDescription`} label={t("Part description")} />
              <SimpleGrid cols={2} spacing="xs">
                <TextField name={`lines[${i}].quantity`} label={t("Qty")} type="number" step="1" />
                <TextField name={`lines[${i}].unitPrice`} label={t("Unit price")} type="number" step="0.01" />
              </SimpleGrid>
            </SimpleGrid>
            <Group mt={6}>
              {/* Recommended, not required: the customer may leave it out when approving (docs/decisions/0063). */}
              <CheckboxField name={`lines[${i}].optional`} label={t("Optional (recommended, not required)")} />
              {i < existingLines && <CheckboxField name={`lines[${i}].remove`} label={t("Remove this line")} />}
            </Group>
          </fieldset>
        ))}
        <SimpleGrid cols={{ base: 1, sm: 4 }} spacing="xs">
          <TextField name="mileage" label={t("Mileage")} type="number" step="1" placeholder={t("Not given")} />
          <TextField name="materialsRate" label={t("Paint materials (USD per refinish hour)")} type="number" step="0.01" />
          <TextField name="deductible" label={t("Deductible (USD, insurer pays the rest)")} type="number" step="0.01" placeholder={t("None")} />
          <SelectField name="language" label={t("Estimate language")} data={LANGUAGE_OPTIONS} />
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          {t("A damage without any line keeps the total to be determined (TBD). Tax rates come from Settings → Profile.")}
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
