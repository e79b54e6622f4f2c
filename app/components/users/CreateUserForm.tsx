import { SimpleGrid } from "#mantine/components/SimpleGrid/SimpleGrid";
import { Stack } from "#mantine/components/Stack/Stack";
import { ValidatedForm, type Validator } from "remix-validated-form";
import { FormError } from "../form/fields/FormError";
import { PasswordField } from "../form/fields/PasswordField";
import { SelectField } from "../form/fields/SelectField";
import { SubmitButton } from "../form/fields/SubmitButton";
import { TextField } from "../form/fields/TextField";
import { useT } from "~/utils/i18n";

const ROLE_OPTIONS = [
  { value: "dealer", label: "Dealer" },
  { value: "vendor", label: "Vendor" },
];

/** Creates a dealer or vendor account; the validator carries the screen's password rule. */
export function CreateUserForm<T extends Record<string, unknown>>({
  validator,
  formError,
  requireRoleChoice,
  submitLabel,
}: {
  validator: Validator<T>;
  formError?: string | null;
  requireRoleChoice: boolean;
  submitLabel: string;
}) {
  const t = useT();
  return (
    <ValidatedForm validator={validator} method="post" id="create-user" noValidate preventScrollReset>
      <input type="hidden" name="intent" value="create-user" />
      <Stack>
        <FormError title={t("Error")} message={formError} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextField name="firstName" label={t("First name")} required />
          <TextField name="lastName" label={t("Last name")} required />
          <TextField name="username" label={t("Username")} autoComplete="off" required />
          <PasswordField name="password" label={t("Password")} autoComplete="new-password" required />
          <TextField name="email" label={t("Email")} type="email" required />
          <SelectField
            name="role"
            label={t("Role")}
            required
            data={requireRoleChoice ? [{ value: "", label: "Select a role" }, ...ROLE_OPTIONS] : ROLE_OPTIONS}
          />
          <TextField name="companyName" label={t("Company name")} />
          <TextField name="phone" label={t("Phone")} type="tel" />
        </SimpleGrid>
        <SubmitButton formId="create-user">{submitLabel}</SubmitButton>
      </Stack>
    </ValidatedForm>
  );
}
