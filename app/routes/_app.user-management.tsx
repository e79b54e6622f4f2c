import { lazyComponent } from "~/components/lazy-component";
import { Button } from "#mantine/components/Button/Button";
import { Card } from "#mantine/components/Card/Card";
import { Group } from "#mantine/components/Group/Group";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { DialogRoute } from "~/components/DialogRoute";
import { DeleteUserConfirm, UserTable } from "~/components/users/UserTable";
import { createManagedUserValidator } from "~/schemas/validators.server";
import * as clientValidators from "~/components/form/validators";
import { loadUserAdmin, userAdminAction } from "~/screens/user-admin-screen.server";
import { pageTitle, useT } from "~/utils/i18n";

// Dialog contents load when a dialog opens (lazyComponent): most visits open none.
const CreateUserForm = lazyComponent("user-management/CreateUserForm", () => import("~/components/users/CreateUserForm").then((m) => m.CreateUserForm));

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "User Management") }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { users, confirmDelete } = await loadUserAdmin(request);
  return json({ users, confirmDelete });
}

export async function action({ request }: ActionFunctionArgs) {
  return userAdminAction(request, await request.formData(), {
    validator: createManagedUserValidator,
    returnTo: "/user-management",
    created: "User created successfully",
    deleted: "User deleted successfully",
    deleteFailed: "Failed to delete user",
  });
}

export default function UserManagement() {
  const t = useT();
  const { users, confirmDelete } = useLoaderData<typeof loader>();
  const data = useActionData<{ formError?: string }>();
  const [params] = useSearchParams();
  const dialogOpen = params.get("dialog") === "new" || data !== undefined;
  return (
    <>
      <Group justify="space-between" mb="md">
        <div>
          <Title order={1}>{t("User Management")}</Title>
          <Text c="dimmed">{t("Create and remove dealer and vendor accounts.")}</Text>
        </div>
        <Button component={Link} to="?dialog=new" preventScrollReset>
          {t("Create User")}
        </Button>
      </Group>
      {dialogOpen && (
        <DialogRoute title={t("Create User")} closeTo="/user-management">
          <CreateUserForm
            validator={clientValidators.createManagedUserValidator}
            formError={data?.formError ? data.formError || "Failed to create user" : null}
            requireRoleChoice
            submitLabel={t("Create User")}
          />
        </DialogRoute>
      )}
      {confirmDelete && <DeleteUserConfirm user={confirmDelete} cancelTo="/user-management" />}
      <Card withBorder>
        <UserTable
          users={users}
          canDelete={() => true}
          emptyText={t("No users found. Create your first dealer or vendor account.")}
        />
      </Card>
    </>
  );
}
