import { Stack, Title } from "@mantine/core";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { LinkTabs } from "~/components/LinkTabs";
import { ProfileTab } from "~/components/settings/ProfileTab";
import { SecurityTab } from "~/components/settings/SecurityTab";
import { SystemTab } from "~/components/settings/SystemTab";
import { profileActions, profileTab } from "~/screens/settings-profile.server";
import { securityActions, securityTab } from "~/screens/settings-security.server";
import { systemActions, systemTab } from "~/screens/settings-system.server";
import { requireUser } from "~/services/auth.server";
import { useT } from "~/utils/i18n";

export const meta: MetaFunction = () => [{ title: "Settings · DamageIQ" }];

/** Spec order. Each tab's data, form handlers and components live in their own modules. */
const TABS = [
  { value: "profile", label: "Profile" },
  { value: "security", label: "Security" },
  { value: "system", label: "System" },
] as const;
type Tab = (typeof TABS)[number]["value"];
const tabOf = (value: string | null): Tab => TABS.find((t) => t.value === value)?.value ?? "profile";

export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await requireUser(request);
  const url = new URL(request.url);
  const tab = tabOf(url.searchParams.get("tab"));
  const headers = { "Cache-Control": "no-store" };
  if (tab === "security") return json({ tab, security: await securityTab(actor) }, { headers });
  if (tab === "system") return json({ tab, system: await systemTab(actor, url) }, { headers });
  return json({ tab, profile: await profileTab(actor) }, { headers });
}

const ACTIONS = { ...profileActions, ...securityActions, ...systemActions };

/** Form posts: `intent` names the tab's handler. */
export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireUser(request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const handler = Object.hasOwn(ACTIONS, intent) ? ACTIONS[intent] : undefined;
  if (!handler) return json({ formError: "Unknown action" }, { status: 400 });
  return handler({ actor, request, form });
}

export default function Settings() {
  const data = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <Stack>
      <Title order={1}>{t("Settings")}</Title>
      <LinkTabs tabs={TABS.map((tab) => ({ ...tab, label: t(tab.label) }))} active={data.tab} label={t("Settings sections")} />
      {"profile" in data && <ProfileTab data={data.profile} />}
      {"security" in data && <SecurityTab data={data.security} />}
      {"system" in data && <SystemTab data={data.system} />}
    </Stack>
  );
}
