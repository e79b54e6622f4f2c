import { SimpleGrid } from "#mantine/components/SimpleGrid/SimpleGrid";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ValidatedForm } from "remix-validated-form";
import { AuthCard } from "~/components/auth/AuthCard";
import { FormError } from "~/components/form/fields/FormError";
import { PasswordField } from "~/components/form/fields/PasswordField";
import { SubmitButton } from "~/components/form/fields/SubmitButton";
import { TextField } from "~/components/form/fields/TextField";
import type { RouteHandle } from "~/root";
import { acceptInviteValidator } from "~/schemas/members";
import { acceptInvite, invitePreview } from "~/services/members.server";
import { redirectWithToast } from "~/services/session.server";
import { handleForm } from "~/utils/forms.server";
import { screenAnswer } from "~/utils/http.server";
import { assertSameOrigin } from "~/utils/request.server";
import { pageTitle, useT } from "~/utils/i18n";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "Join your team") }];
/** A plain form: the page loads no JavaScript, so it works the same with it off (issue 44). */
export const handle: RouteHandle = { scripts: false };

export async function loader({ params }: LoaderFunctionArgs) {
  try {
    return json({ invite: await invitePreview(params.token ?? "") }, { headers: { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } });
  } catch (error) {
    const failure = await screenAnswer(error);
    if (!failure) throw error;
    return json({ invite: null, message: failure.message }, { status: failure.status, headers: { "Cache-Control": "no-store" } });
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  assertSameOrigin(request);
  return handleForm(request, acceptInviteValidator, async (input) => {
    const { username } = await acceptInvite(params.token ?? "", input);
    return redirectWithToast(request, "/login", {
      title: "Welcome",
      message: "Your sign-in is ready. Sign in as {{username}}.",
      color: "green",
      vars: { username },
    });
  });
}

export default function Invite() {
  const t = useT();
  const data = useLoaderData<typeof loader>();
  const result = useActionData<{ formError?: string }>();
  if (!data.invite) {
    return (
      <AuthCard title={t("Join your team")}>
        <Text ta="center">{t("This invite link has expired or was already used")}</Text>
      </AuthCard>
    );
  }
  const { invite } = data;
  return (
    <AuthCard title={t("Join your team")} subtitle={t("{{account}} invited {{email}} as {{role}}.", { account: invite.accountName, email: invite.email, role: t(invite.role) })}>
      <ValidatedForm validator={acceptInviteValidator} method="post" noValidate>
        <Stack>
          <FormError title={t("Error")} message={result?.formError ?? null} />
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <TextField name="firstName" label={t("First name")} autoComplete="given-name" required />
            <TextField name="lastName" label={t("Last name")} autoComplete="family-name" required />
          </SimpleGrid>
          <TextField name="username" label={t("Username")} autoComplete="username" required />
          <PasswordField name="password" label={t("Password")} autoComplete="new-password" required />
          <PasswordField name="confirmPassword" label={t("Confirm password")} autoComplete="new-password" required />
          <SubmitButton fullWidth>{t("Join")}</SubmitButton>
        </Stack>
      </ValidatedForm>
    </AuthCard>
  );
}
