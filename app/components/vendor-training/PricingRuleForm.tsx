import { Button } from "#mantine/components/Button/Button";
import { Group } from "#mantine/components/Group/Group";
import { SimpleGrid } from "#mantine/components/SimpleGrid/SimpleGrid";
import { Stack } from "#mantine/components/Stack/Stack";
import { Link } from "@remix-run/react";
import { ValidatedForm } from "remix-validated-form";
import { pricingRuleValidator } from "~/components/form/validators";
import type { PricingRuleInput } from "~/schemas/vendor-pricing";
import type { PricingRuleJson } from "~/services/vendors.server";
import { CheckboxField } from "../form/fields/CheckboxField";
import { SelectField } from "../form/fields/SelectField";
import { SubmitButton } from "../form/fields/SubmitButton";
import { TextareaField } from "../form/fields/TextareaField";
import { TextField } from "../form/fields/TextField";
import { DAMAGE_TYPE_OPTIONS, SEVERITY_OPTIONS } from "../training/labels";
import { ModifierRows } from "./ModifierRows";
import { useT } from "~/utils/i18n";

export const PRICING_RULE_FORM_ID = "pricing-rule-form";

const money = (v: number | null | undefined) => (v === undefined || v === null ? "" : v.toFixed(2));

/** Add Pricing Rule, doubling as Edit Pricing Rule; markup and minimum charge start at 0.00. */
export function PricingRuleForm({ rule, cancelTo }: { rule?: PricingRuleJson | null; cancelTo: string }) {
  const t = useT();
  const defaults = rule
    ? {
        damageType: rule.damageType,
        severity: rule.severity,
        basePrice: money(rule.basePrice),
        laborRate: money(rule.laborRate),
        markupPercentage: money(rule.markupPercentage),
        minimumCharge: money(rule.minimumCharge),
        refinishHours: rule.refinishHours == null ? "" : String(rule.refinishHours),
        refinishRate: money(rule.refinishRate),
        materialsRate: money(rule.materialsRate),
        partPrice: money(rule.partPrice),
        notes: rule.notes ?? "",
        isActive: rule.isActive,
      }
    : { damageType: "scratch", severity: "minor", markupPercentage: "0.00", minimumCharge: "0.00", isActive: true };
  return (
    <ValidatedForm<PricingRuleInput | typeof defaults, undefined>
      key={rule?.id ?? "new"}
      id={PRICING_RULE_FORM_ID}
      validator={pricingRuleValidator}
      defaultValues={defaults}
      method="post"
      noValidate
      preventScrollReset
    >
      <input type="hidden" name="intent" value={rule ? "update-rule" : "create-rule"} />
      {rule && <input type="hidden" name="id" value={rule.id} />}
      <Stack>
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <SelectField name="damageType" label={t("Damage Type")} data={DAMAGE_TYPE_OPTIONS} required />
          <SelectField name="severity" label={t("Severity")} data={SEVERITY_OPTIONS} required />
          <TextField name="basePrice" label={t("Base Price (USD)")} type="number" step="0.01" required />
          <TextField name="laborRate" label={t("Labor Rate (USD/hour)")} type="number" step="0.01" required />
          <TextField name="markupPercentage" label={t("Markup (%)")} type="number" step="0.01" />
          <TextField name="minimumCharge" label={t("Minimum Charge (USD)")} type="number" step="0.01" />
        </SimpleGrid>
        <fieldset style={{ border: "1px solid var(--mantine-color-gray-3)", borderRadius: 6, padding: 10, margin: 0 }}>
          <legend style={{ fontSize: 13, padding: "0 4px" }}>{t("Estimate line defaults (optional)")}</legend>
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <TextField name="partPrice" label={t("Part Price (USD)")} type="number" step="0.01" />
            <TextField name="refinishHours" label={t("Refinish Hours")} type="number" step="0.01" />
            <TextField name="refinishRate" label={t("Refinish Rate (USD/hour)")} description={t("Blank: the labor rate")} type="number" step="0.01" />
            <TextField name="materialsRate" label={t("Paint Materials Rate (USD/refinish hour)")} type="number" step="0.01" />
          </SimpleGrid>
        </fieldset>
        <ModifierRows
          kind="vehicleMakeModifier"
          label={t("Vehicle make modifier")}
          keyLabel={t("Make")}
          placeholder={t("e.g. BMW")}
          initial={rule?.vehicleMakeModifier ?? {}}
          formId={PRICING_RULE_FORM_ID}
        />
        <ModifierRows
          kind="locationModifier"
          label={t("Location modifier")}
          keyLabel={t("Location")}
          placeholder={t("e.g. front")}
          initial={rule?.locationModifier ?? {}}
          formId={PRICING_RULE_FORM_ID}
        />
        <ModifierRows
          kind="seasonalModifier"
          label={t("Seasonal modifier")}
          keyLabel={t("Month")}
          placeholder="1–12, e.g. 12"
          initial={rule?.seasonalModifier ?? {}}
          formId={PRICING_RULE_FORM_ID}
        />
        <TextareaField name="notes" label={t("Notes")} autosize minRows={2} />
        <CheckboxField name="isActive" label={t("Active")} />
        <Group justify="flex-end">
          <Button component={Link} to={cancelTo} preventScrollReset variant="default">
            {t("Cancel")}
          </Button>
          <SubmitButton formId={PRICING_RULE_FORM_ID}>{rule ? t("Update Pricing Rule") : t("Create Pricing Rule")}</SubmitButton>
        </Group>
      </Stack>
    </ValidatedForm>
  );
}
