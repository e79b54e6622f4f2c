import { Avatar } from "#mantine/components/Avatar/Avatar";
import { Badge } from "#mantine/components/Badge/Badge";
import { Button } from "#mantine/components/Button/Button";
import { Card } from "#mantine/components/Card/Card";
import { Group } from "#mantine/components/Group/Group";
import { NativeSelect } from "~/components/form/NativeSelect";
import { SimpleGrid } from "#mantine/components/SimpleGrid/SimpleGrid";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import type { SerializeFrom } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { useEffect } from "react";
import { ValidatedForm } from "remix-validated-form";
import type { profileTab } from "~/screens/settings-profile.server";
import { profileValidator } from "~/schemas/settings";
import { useT } from "~/utils/i18n";
import { initials } from "../AppShellLayout";
import { roleLabel } from "~/schemas/roles";
import { FormError } from "../form/fields/FormError";
import { PasswordField } from "../form/fields/PasswordField";
import { SubmitButton } from "../form/fields/SubmitButton";
import { TextField } from "../form/fields/TextField";
import { EstimateSettingsCard } from "./EstimateSettingsCard";
import { showToast } from "../toast";

/** Settings → Profile: who is signed in, the profile form and the default vendor for pricing. */
export function ProfileTab({ data }: { data: SerializeFrom<typeof profileTab> }) {
  const { user, role, vendors } = data;
  const t = useT();
  const actionData = useActionData<{ formError?: string }>();
  // With JavaScript the refusal is also the spec's toast (the inline alert is what a JS-off page shows).
  useEffect(() => {
    if (actionData?.formError) showToast({ title: "Failed to update profile", message: actionData.formError, color: "red" });
  }, [actionData]);
  return (
    <Stack>
      <Card withBorder>
        <Group mb="md">
          <Avatar color="indigo" radius="xl" size="lg">
            {initials(user.firstName, user.lastName)}
          </Avatar>
          <div>
            <Text fw={600} data-testid="profile-name">
              {user.firstName} {user.lastName}
            </Text>
            <Text size="sm" c="dimmed">
              {user.email}
            </Text>
          </div>
          <Badge variant="light" data-testid="profile-role">
            {t(roleLabel(role))}
          </Badge>
        </Group>
        <ValidatedForm
          key={String(user.updatedAt)}
          validator={profileValidator}
          method="post"
          id="profile"
          noValidate
          defaultValues={{
            firstName: user.firstName,
            lastName: user.lastName,
            email: user.email,
            phone: user.phone ?? "",
            companyName: user.companyName ?? "",
            address: user.address ?? "",
          }}
        >
          <input type="hidden" name="intent" value="update-profile" />
          <FormError title={t("Failed to update profile")} message={actionData?.formError} />
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextField name="firstName" label={t("First name")} required autoComplete="given-name" />
              <TextField name="lastName" label={t("Last name")} required autoComplete="family-name" />
            </SimpleGrid>
            <TextField name="email" label={t("Email")} type="email" required autoComplete="email" />
            <PasswordField
              name="currentPassword"
              label={t("Current password")}
              description={t("Needed only to change the email")}
              autoComplete="current-password"
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextField name="phone" label={t("Phone")} autoComplete="tel" />
              <TextField name="companyName" label={t("Company")} autoComplete="organization" />
            </SimpleGrid>
            <TextField name="address" label={t("Address")} autoComplete="street-address" />
            <Group justify="flex-end">
              <SubmitButton formId="profile">{t("Save Changes")}</SubmitButton>
            </Group>
          </Stack>
        </ValidatedForm>
      </Card>
      <Card withBorder>
        <Title order={2} size="h4">
          {t("Pricing")}
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          {t("The vendor whose prices the upload wizard preselects for a new assessment.")}
        </Text>
        <Form method="post">
          <input type="hidden" name="intent" value="default-vendor" />
          <Group align="flex-end">
            <NativeSelect
              name="defaultVendorId"
              label={t("Default vendor")}
              defaultValue={user.defaultVendorId ?? ""}
              data={[{ value: "", label: "No default vendor" }, ...vendors.map((v) => ({ value: v.id, label: v.name }))]}
            />
            <Button type="submit" variant="light">
              {t("Save")}
            </Button>
          </Group>
        </Form>
      </Card>
      {role === "vendor" ? (
        // A vendor's own pricing lives in Vendor AI Training, which the spec's sidebar shows only to admins.
        <Card withBorder data-testid="own-pricing">
          <Title order={2} size="h4">
            {t("Your pricing")}
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            {t("Your pricing rules, packages and learning data, from which dealers' estimates are priced.")}
          </Text>
          <Button component={Link} to="/vendor-ai-training" variant="light">
            {t("Open your pricing")}
          </Button>
        </Card>
      ) : null}
      <EstimateSettingsCard settings={data.estimateSettings} />
    </Stack>
  );
}
