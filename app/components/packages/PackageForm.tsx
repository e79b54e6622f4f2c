import { Button } from "#mantine/components/Button/Button";
import { Group } from "#mantine/components/Group/Group";
import { Stack } from "#mantine/components/Stack/Stack";
import { Switch } from "#mantine/components/Switch/Switch";
import { Link } from "@remix-run/react";
import { useT } from "~/utils/i18n";
import { useField, ValidatedForm } from "remix-validated-form";
import { packageValidator } from "~/components/form/validators";
import type { PackageInput } from "~/schemas/package";
import { PACKAGE_LIMITS } from "~/schemas/package-limits";
import type { PackageJson } from "~/services/packages.server";
import { SubmitButton } from "../form/fields/SubmitButton";
import { TextareaField } from "../form/fields/TextareaField";
import { TextField } from "../form/fields/TextField";

export const PACKAGE_FORM_ID = "package-form";

/** The active switch posts "on" when checked and nothing when not (plain HTML checkbox). */
function ActiveSwitch() {
  const t = useT();
  const { defaultValue } = useField("isActive");
  const checked = defaultValue === true || defaultValue === "on" || defaultValue === "true";
  return <Switch name="isActive" value="on" defaultChecked={checked} label={t("Active")} />;
}

/**
 * Add Package, doubling as Edit Package. Features are typed one per line; the shared schema trims
 * them, drops empty lines and stores a list.
 */
export function PackageForm({ pkg, cancelTo }: { pkg?: PackageJson | null; cancelTo: string }) {
  const t = useT();
  const defaults = pkg
    ? {
        name: pkg.name,
        description: pkg.description ?? "",
        price: String(pkg.price),
        features: pkg.features.join("\n"),
        isActive: pkg.isActive,
      }
    : { isActive: true };
  return (
    <ValidatedForm<PackageInput | typeof defaults, undefined>
      key={pkg?.id ?? "new"}
      id={PACKAGE_FORM_ID}
      validator={packageValidator}
      // The form's own shape (price as text, features as lines), not the parsed one.
      defaultValues={defaults}
      method="post"
      noValidate
      preventScrollReset
    >
      <input type="hidden" name="intent" value={pkg ? "update" : "create"} />
      {pkg && <input type="hidden" name="id" value={pkg.id} />}
      <Stack>
        <TextField name="name" label={t("Package Name")} required autoComplete="off" />
        <TextareaField name="description" label={t("Description")} autosize minRows={2} />
        <TextField name="price" label={t("Price (USD)")} type="number" step="0.01" required />
        <TextareaField
          name="features"
          label={t("Features")}
          description={t("One per line (up to {{features}})", { features: PACKAGE_LIMITS.features })}
          autosize
          minRows={4}
        />
        <ActiveSwitch />
        <Group justify="flex-end">
          <Button component={Link} to={cancelTo} preventScrollReset variant="default">
            {t("Cancel")}
          </Button>
          <SubmitButton formId={PACKAGE_FORM_ID}>{pkg ? t("Update Package") : t("Create Package")}</SubmitButton>
        </Group>
      </Stack>
    </ValidatedForm>
  );
}
