import { Alert } from "#mantine/components/Alert/Alert";
import { Button } from "#mantine/components/Button/Button";
import { Card } from "#mantine/components/Card/Card";
import { Group } from "#mantine/components/Group/Group";
import { NativeSelect } from "~/components/form/NativeSelect";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import { Form } from "@remix-run/react";
import { roleLabel } from "~/schemas/roles";
import { useT } from "~/utils/i18n";

/** Admins only: preview the dealer or vendor interface. Plain forms, so it works without JS. */
export function RolePreviewCard({ role }: { role: "admin" | "dealer" | "vendor" }) {
  const t = useT();
  return (
    <Card withBorder data-testid="role-preview">
      <Title order={2} size="h4">
        {t("Interface Preview")}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t("View the application as a dealer or vendor sees it. Currently viewing as")} {roleLabel(role)}.
      </Text>
      <Group align="flex-end">
        <Form method="post" action="/?index" reloadDocument>
          <input type="hidden" name="intent" value="switch-role" />
          <Group align="flex-end" gap="xs">
            <NativeSelect
              name="targetRole"
              label={t("View as")}
              defaultValue={role}
              data={[
                { value: "admin", label: "Admin" },
                { value: "dealer", label: "Dealer" },
                { value: "vendor", label: "Vendor" },
              ]}
            />
            <Button type="submit">{t("Switch View")}</Button>
          </Group>
        </Form>
        <ResetToAdmin />
      </Group>
    </Card>
  );
}

function ResetToAdmin() {
  const t = useT();
  return (
    <Form method="post" action="/?index" reloadDocument>
      <input type="hidden" name="intent" value="switch-role" />
      <input type="hidden" name="targetRole" value="admin" />
      <Button type="submit" variant="light">
        {t("Reset to Admin")}
      </Button>
    </Form>
  );
}

/** Shown on every screen while an admin previews another role. */
export function PreviewBanner({ role }: { role: "admin" | "dealer" | "vendor" }) {
  const t = useT();
  return (
    <Alert color="yellow" title={t("Preview mode")} mb="md" data-testid="preview-banner">
      <Group justify="space-between">
        <Text size="sm">
          {t("You are viewing the interface as")} {roleLabel(role)}{t(". Some admin features may be hidden.")}
        </Text>
        <ResetToAdmin />
      </Group>
    </Alert>
  );
}
