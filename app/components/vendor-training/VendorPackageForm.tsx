import { Button } from "#mantine/components/Button/Button";
import { Group } from "#mantine/components/Group/Group";
import { SimpleGrid } from "#mantine/components/SimpleGrid/SimpleGrid";
import { Stack } from "#mantine/components/Stack/Stack";
import { Link } from "@remix-run/react";
import { ValidatedForm } from "remix-validated-form";
import { PRICING_MODELS } from "~/schemas/damage";
import { vendorPackageValidator } from "~/components/form/validators";
import type { VendorPackageInput } from "~/schemas/vendor-pricing";
import type { VendorPackageJson } from "~/services/vendors.server";
import { CheckboxField } from "../form/fields/CheckboxField";
import { SelectField } from "../form/fields/SelectField";
import { SubmitButton } from "../form/fields/SubmitButton";
import { TextareaField } from "../form/fields/TextareaField";
import { TextField } from "../form/fields/TextField";
import { humanize } from "../training/labels";
import { useT } from "~/utils/i18n";

export const VENDOR_PACKAGE_FORM_ID = "vendor-package-form";

const text = (v: number | undefined | null, digits?: number) =>
  v === undefined || v === null ? "" : digits === undefined ? String(v) : v.toFixed(digits);

/** Add Package (a vendor package), doubling as Edit Package; warranty and turnaround 0, AI weight 1.00. */
export function VendorPackageForm({ pkg, cancelTo }: { pkg?: VendorPackageJson | null; cancelTo: string }) {
  const t = useT();
  const defaults = pkg
    ? {
        packageName: pkg.packageName,
        description: pkg.description ?? "",
        serviceTypes: pkg.serviceTypes.join(", "),
        pricingModel: pkg.pricingModel,
        basePrice: text(pkg.basePrice, 2),
        hourlyRate: text(pkg.hourlyRate, 2),
        warrantyMonths: text(pkg.warrantyMonths),
        turnaroundDays: text(pkg.turnaroundDays),
        minimumOrder: text(pkg.minimumOrder, 2),
        aiWeighting: text(pkg.aiWeighting, 2),
        includesPickupDelivery: pkg.includesPickupDelivery,
        isActive: pkg.isActive,
      }
    : { pricingModel: "flat_rate", warrantyMonths: "0", turnaroundDays: "0", aiWeighting: "1.00", isActive: true };
  return (
    <ValidatedForm<VendorPackageInput | typeof defaults, undefined>
      key={pkg?.id ?? "new"}
      id={VENDOR_PACKAGE_FORM_ID}
      validator={vendorPackageValidator}
      defaultValues={defaults}
      method="post"
      noValidate
      preventScrollReset
    >
      <input type="hidden" name="intent" value={pkg ? "update-package" : "create-package"} />
      {pkg && <input type="hidden" name="id" value={pkg.id} />}
      <Stack>
        <TextField name="packageName" label={t("Name")} required autoComplete="off" />
        <TextareaField name="description" label={t("Description")} autosize minRows={2} />
        <TextField name="serviceTypes" label={t("Service Types")} description={t("Comma-separated")} required />
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <SelectField
            name="pricingModel"
            label={t("Pricing Model")}
            data={PRICING_MODELS.map((value) => ({ value, label: humanize(value) }))}
            required
          />
          <TextField name="basePrice" label={t("Base Price (USD)")} type="number" step="0.01" />
          <TextField name="hourlyRate" label={t("Hourly Rate (USD)")} type="number" step="0.01" />
          <TextField name="minimumOrder" label={t("Minimum Order (USD)")} type="number" step="0.01" />
          <TextField name="warrantyMonths" label={t("Warranty (months)")} type="number" />
          <TextField name="turnaroundDays" label={t("Turnaround (days)")} type="number" />
          <TextField name="aiWeighting" label={t("AI Weight")} type="number" step="0.01" />
        </SimpleGrid>
        <CheckboxField name="includesPickupDelivery" label={t("Includes pickup & delivery")} />
        <CheckboxField name="isActive" label={t("Active")} />
        <Group justify="flex-end">
          <Button component={Link} to={cancelTo} preventScrollReset variant="default">
            {t("Cancel")}
          </Button>
          <SubmitButton formId={VENDOR_PACKAGE_FORM_ID}>{pkg ? t("Update Package") : t("Create Package")}</SubmitButton>
        </Group>
      </Stack>
    </ValidatedForm>
  );
}
