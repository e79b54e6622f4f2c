import { Button } from "#mantine/components/Button/Button";
import { SimpleGrid } from "#mantine/components/SimpleGrid/SimpleGrid";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { showToast } from "~/components/toast";
import { json, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { ValidatedForm } from "remix-validated-form";
import { AuthCard } from "~/components/auth/AuthCard";
import { FormError } from "~/components/form/fields/FormError";
import { PasswordField } from "~/components/form/fields/PasswordField";
import { SubmitButton } from "~/components/form/fields/SubmitButton";
import { TextField } from "~/components/form/fields/TextField";
import { registrationValidator } from "~/components/form/validators";
import { checkSetup, createAdminAccount } from "~/services/users.server";
import { handleForm } from "~/utils/forms.server";
import { assertSameOrigin } from "~/utils/request.server";
import { pageTitle, useT } from "~/utils/i18n";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "Admin Setup") }];

export async function loader() {
  return json(await checkSetup());
}

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  return handleForm(request, registrationValidator, async (input) => {
    await createAdminAccount(input);
    return json({ created: true as const });
  });
}

type ActionData = { created: true } | { formError: string } | undefined;

export default function AdminSetup() {
  const t = useT();
  const { adminExists } = useLoaderData<typeof loader>();
  const data = useActionData<ActionData>();
  const created = data && "created" in data;
  const formError = data && "formError" in data ? data.formError : null;

  useEffect(() => {
    if (created) {
      showToast({
        title: "Success",
        message: "Admin account created successfully! You can now log in.",
        color: "green",
      });
    } else if (formError) {
      showToast({ title: "Error", message: formError || "Failed to create admin account", color: "red" });
    }
  }, [created, formError]);

  if (created) {
    return (
      <AuthCard title={t("Admin Account Created")}>
        <Stack>
          <Text ta="center">{t("Your admin account is ready. You can now log in.")}</Text>
          <Button component={Link} to="/admin/login" fullWidth>
            {t("Go to Admin Login")}
          </Button>
        </Stack>
      </AuthCard>
    );
  }
  if (adminExists) {
    return (
      <AuthCard title={t("Admin Already Set Up")}>
        <Stack>
          <Text ta="center">{t("An admin account already exists. Please use the admin login to access the system.")}</Text>
          <Button component={Link} to="/admin/login" fullWidth>
            {t("Go to Admin Login")}
          </Button>
        </Stack>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t("Admin Setup")} subtitle={t("Create the first administrator account.")}>
      <ValidatedForm validator={registrationValidator} method="post" noValidate>
        <Stack>
          <FormError title={t("Error")} message={formError} />
          <TextField name="username" label={t("Username")} autoComplete="username" required />
          <PasswordField name="password" label={t("Password")} autoComplete="new-password" required />
          <TextField name="email" label={t("Email")} type="email" autoComplete="email" required />
          <SimpleGrid cols={2}>
            <TextField name="firstName" label={t("First name")} autoComplete="given-name" required />
            <TextField name="lastName" label={t("Last name")} autoComplete="family-name" required />
          </SimpleGrid>
          <SubmitButton fullWidth pendingLabel={t("Creating Account...")}>
            {t("Create Admin Account")}
          </SubmitButton>
        </Stack>
      </ValidatedForm>
    </AuthCard>
  );
}
