import { Card } from "#mantine/components/Card/Card";
import { Stack } from "#mantine/components/Stack/Stack";
import { Title } from "#mantine/components/Title/Title";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { SendConfirm } from "~/components/email/SendConfirm";
import { confirmOrSend, sendConfirmData } from "~/screens/send-estimate.server";
import { requireUser } from "~/services/auth.server";
import type { SendPreview } from "~/services/email-send-preview.server";
import { pageTitle, useT } from "~/utils/i18n";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "Send Estimate") }];

/** The confirm step of "Send to Customer" (wizard), "Email" (Estimates) and "Send Estimate" (dashboard). */
export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await requireUser(request);
  return sendConfirmData(actor, request);
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireUser(request);
  return confirmOrSend(actor, request, await request.formData(), "/estimates");
}

type Confirm = { sendConfirm: SendPreview; returnTo: string; formError?: string };

export default function SendEstimate() {
  const t = useT();
  const loaded = useLoaderData<Confirm>();
  const posted = useActionData<Partial<Confirm>>();
  const shown = posted?.sendConfirm ? (posted as Confirm) : loaded;
  return (
    <Stack gap="lg" maw={760}>
      <Title order={1}>{t("Send Estimate")}</Title>
      <Card withBorder padding="lg">
        <SendConfirm preview={shown.sendConfirm} returnTo={shown.returnTo} formError={posted?.formError} />
      </Card>
    </Stack>
  );
}
