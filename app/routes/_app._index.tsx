import { Stack, Text, Title } from "@mantine/core";
import { redirect, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useRouteLoaderData } from "@remix-run/react";
import { RolePreviewCard } from "~/components/RolePreview";
import { UploadMediaModal, uploaderLinks } from "~/components/upload/UploadMediaModal";
import { switchRoleValidator } from "~/schemas/auth";
import { requireUser } from "~/services/auth.server";
import { redirectWithToast } from "~/services/session.server";
import { switchRole } from "~/services/users.server";
import { asFormFailure } from "~/utils/forms.server";
import type { loader as appLoader } from "./_app";

export const meta: MetaFunction = () => [{ title: "Dashboard · DamageIQ" }];
export const links = uploaderLinks;

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireUser(request);
  const form = await request.formData();
  if (form.get("intent") === "switch-role") {
    const failed = (message = "Failed to switch role") =>
      redirectWithToast(request, "/", { title: "Error", message, color: "red" });
    const result = await switchRoleValidator.validate(form);
    if (result.error) return failed();
    try {
      const { headers } = await switchRole(actor, result.data.targetRole, request);
      return redirect("/", { headers });
    } catch (error) {
      const failure = await asFormFailure(error);
      if (!failure) throw error;
      return failed(failure.message);
    }
  }
  return redirect("/");
}

export default function Dashboard() {
  const data = useRouteLoaderData<typeof appLoader>("routes/_app");
  const user = data?.user;
  return (
    <Stack>
      <div>
        <Title order={1}>Dashboard</Title>
        <Text c="dimmed">AI damage assessment for dealers, body shops and repair vendors.</Text>
      </div>
      {user?.realRole === "admin" && <RolePreviewCard role={user.role} />}
      <div>
        <UploadMediaModal />
      </div>
    </Stack>
  );
}
