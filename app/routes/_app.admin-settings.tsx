import { lazyComponent } from "~/components/lazy-component";
import { Box } from "#mantine/core/Box/Box";
import { Card } from "#mantine/components/Card/Card";
import { SimpleGrid } from "#mantine/components/SimpleGrid/SimpleGrid";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import { LinkTabs } from "~/components/LinkTabs";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import type { ActionData } from "~/components/users/CredentialsForm";
import { changeCredentialsValidator, createUserValidator } from "~/schemas/validators.server";
import * as clientValidators from "~/components/form/validators";
import { requireAdmin } from "~/services/auth.server";
import { changeCredentials } from "~/services/users.server";
import { handleForm } from "~/utils/forms.server";
import { loadUserAdmin, userAdminAction } from "~/screens/user-admin-screen.server";
import { AI_PROVIDER_INTENTS } from "~/screens/ai-provider-screen.server";
import { getAiProviderSettings } from "~/services/ai-provider.server";
import { pageTitle, useT } from "~/utils/i18n";

// Each tab's forms and table load apart from the page's first JavaScript (lazyComponent): after
// it when the page opens on that tab, when the tab is opened otherwise.
const CredentialsForm = lazyComponent("admin-settings/CredentialsForm", () => import("~/components/users/CredentialsForm").then((m) => m.CredentialsForm));
const CreateUserForm = lazyComponent("admin-settings/CreateUserForm", () => import("~/components/users/CreateUserForm").then((m) => m.CreateUserForm));
const UserTable = lazyComponent("admin-settings/UserTable", () => import("~/components/users/UserTable").then((m) => m.UserTable));
const AiProviderForm = lazyComponent("admin-settings/AiProviderForm", () => import("~/components/admin/AiProviderForm").then((m) => m.AiProviderForm));
const DeleteUserConfirm = lazyComponent("admin-settings/DeleteUserConfirm", () => import("~/components/users/UserTable").then((m) => m.DeleteUserConfirm));

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "Admin Settings") }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { actor, users, confirmDelete } = await loadUserAdmin(request);
  const aiProvider = new URL(request.url).searchParams.get("tab") === "ai-provider" ? await getAiProviderSettings() : null;
  return json({ users, confirmDelete, username: actor.user.username, aiProvider });
}

export async function action({ request }: ActionFunctionArgs) {
  // Before the body is read: a post after the session ended keeps its typed fields for the sign-in.
  const actor = await requireAdmin(request);
  const form = await request.formData();
  const aiProviderAction = AI_PROVIDER_INTENTS[String(form.get("intent"))];
  if (aiProviderAction) return aiProviderAction(await requireAdmin(request), request, form);
  if (form.get("intent") === "change-credentials") {
    return handleForm(
      request,
      changeCredentialsValidator,
      async (input) => {
        const { headers } = await changeCredentials(actor, input, request);
        return json({ credentialsUpdated: true as const }, { headers });
      },
      form,
    );
  }
  return userAdminAction(request, form, {
    validator: createUserValidator,
    returnTo: "/admin-settings?tab=users",
    created: "User account created successfully",
    deleted: "User account deleted successfully",
    deleteFailed: "Failed to delete user account",
  });
}

const TABS = [
  { value: "credentials", label: "Credentials" },
  { value: "users", label: "Users" },
  { value: "ai-provider", label: "AI Provider" },
];

export default function AdminSettings() {
  const t = useT();
  const { users, confirmDelete, username, aiProvider } = useLoaderData<typeof loader>();
  const data = useActionData<ActionData>();
  const [params] = useSearchParams();
  const tab = TABS.find((t) => t.value === params.get("tab"))?.value ?? "credentials";
  const createError = data && "formError" in data && data.formId === "create-user" ? data.formError : null;
  return (
    <>
      <Title order={1}>{t("Admin Settings")}</Title>
      <Text c="dimmed" mb="md">
        {t("Signed in as")} {username}.
      </Text>
      <Box mb="md">
        <LinkTabs tabs={TABS} active={tab} label={t("Admin settings sections")} />
      </Box>
      {tab === "credentials" ? (
        <CredentialsForm data={data} />
      ) : tab === "ai-provider" && aiProvider ? (
        <AiProviderForm
          settings={aiProvider}
          validator={clientValidators.aiProviderValidator}
          formError={data && "formError" in data && data.formId === "ai-provider-form" ? data.formError || "Failed to save the AI provider" : null}
        />
      ) : (
        <Stack>
          {confirmDelete && <DeleteUserConfirm user={confirmDelete} cancelTo="/admin-settings?tab=users" />}
          {/* One column up to wide screens: beside the form, a laptop's half column cut the table off. */}
          <SimpleGrid cols={{ base: 1, xl: 2 }}>
            <Card withBorder>
              <Title order={2} size="h4" mb="sm">
                {t("Create user account")}
              </Title>
              <CreateUserForm
                // A new account joins the list: the form starts again empty (the spec resets it).
                key={users.length}
                validator={clientValidators.createUserValidator}
                formError={createError ? createError || "Failed to create user account" : null}
                requireRoleChoice={false}
                submitLabel={t("Create Account")}
              />
            </Card>
            <Card withBorder>
              <Title order={2} size="h4" mb="sm">
                {t("User accounts")}
              </Title>
              <UserTable
                users={users}
                canDelete={(u) => u.role !== "admin"}
                emptyText={t("No user accounts found")}
                deleteTo={(u) => `?tab=users&delete=${u.id}`}
              />
            </Card>
          </SimpleGrid>
        </Stack>
      )}
    </>
  );
}
