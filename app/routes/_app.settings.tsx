import { Stack } from "#mantine/components/Stack/Stack";
import { Title } from "#mantine/components/Title/Title";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { LinkTabs } from "~/components/LinkTabs";
import { lazyComponent } from "~/components/lazy-component";
import { emailTabAction, emailTabData } from "~/screens/settings-email.server";
import { notificationsTabAction, notificationsTabData } from "~/screens/settings-notifications.server";
import { profileActions, profileTab } from "~/screens/settings-profile.server";
import { securityActions, securityTab } from "~/screens/settings-security.server";
import { systemActions, systemTab } from "~/screens/settings-system.server";
import { seesTeam, teamActions, teamTab } from "~/screens/settings-team.server";
import { webhookActions, webhooksSection } from "~/screens/settings-webhooks.server";
import type { SettingsAction } from "~/screens/settings.server";
import { requireUser } from "~/services/auth.server";
import { pageTitle, useT } from "~/utils/i18n";

// Each tab's code (its forms, with their schemas) loads apart from the page's first JavaScript:
// before hydration for the tab the page opens on, when another tab is opened (lazyComponent).
const ProfileTab = lazyComponent("settings/ProfileTab", () => import("~/components/settings/ProfileTab").then((m) => m.ProfileTab));
const EmailTab = lazyComponent("settings/EmailTab", () => import("~/components/settings/EmailTab").then((m) => m.EmailTab));
const SecurityTab = lazyComponent("settings/SecurityTab", () => import("~/components/settings/SecurityTab").then((m) => m.SecurityTab));
const NotificationsTab = lazyComponent("settings/NotificationsTab", () => import("~/components/settings/NotificationsTab").then((m) => m.NotificationsTab));
const SystemTab = lazyComponent("settings/SystemTab", () => import("~/components/settings/SystemTab").then((m) => m.SystemTab));
const TeamTab = lazyComponent("settings/TeamTab", () => import("~/components/settings/TeamTab").then((m) => m.TeamTab));
const WebhooksCard = lazyComponent("settings/WebhooksCard", () => import("~/components/settings/WebhooksCard").then((m) => m.WebhooksCard));


export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "Settings") }];

/** Spec order. Each tab's data, form handlers and components live in their own modules. */
const TABS = [
  { value: "profile", label: "Profile" },
  { value: "email", label: "Email" },
  { value: "security", label: "Security" },
  { value: "notifications", label: "Notifications" },
  { value: "system", label: "System" },
  // The account's people: its owner's only (issue 44, docs/decisions/0067).
  { value: "team", label: "Team" },
] as const;
type Tab = (typeof TABS)[number]["value"];
const tabOf = (value: string | null): Tab => TABS.find((t) => t.value === value)?.value ?? "profile";

export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await requireUser(request);
  const url = new URL(request.url);
  const team = seesTeam(actor);
  const asked = tabOf(url.searchParams.get("tab"));
  const tab = asked === "team" && !team ? "profile" : asked;
  const headers = { "Cache-Control": "no-store" };
  if (tab === "team") return json({ tab, team: await teamTab(actor), showTeam: team }, { headers });
  if (tab === "email") return json({ tab, email: await emailTabData(actor), showTeam: team }, { headers });
  if (tab === "security") {
    const [security, webhooks] = await Promise.all([securityTab(actor), webhooksSection(actor, url)]);
    return json({ tab, security, webhooks, showTeam: team }, { headers });
  }
  if (tab === "notifications") return json({ tab, notifications: await notificationsTabData(actor), showTeam: team }, { headers });
  if (tab === "system") return json({ tab, system: await systemTab(actor, url), showTeam: team }, { headers });
  return json({ tab, profile: await profileTab(actor), showTeam: team }, { headers });
}

const ACTIONS: Record<string, SettingsAction> = {
  ...profileActions,
  ...securityActions,
  ...systemActions,
  ...webhookActions,
  ...teamActions,
  "save-mail-server": ({ actor, request, form }) => emailTabAction(actor, request, form),
  "test-connection": ({ actor, request, form }) => emailTabAction(actor, request, form),
  "save-notifications": ({ actor, request, form }) => notificationsTabAction(actor, request, form),
};

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
  const result = useActionData<{ formError?: string; invited?: { email: string; inviteUrl: string } }>();
  const t = useT();
  return (
    <Stack>
      <Title order={1}>{t("Settings")}</Title>
      <LinkTabs tabs={TABS.filter((tab) => tab.value !== "team" || data.showTeam).map((tab) => ({ ...tab, label: t(tab.label) }))} active={data.tab} label={t("Settings sections")} />
      {"profile" in data && <ProfileTab data={data.profile} />}
      {"email" in data && <EmailTab settings={data.email.mailServer} formError={result?.formError} />}
      {"security" in data && <SecurityTab data={data.security} />}
      {"webhooks" in data && <WebhooksCard data={data.webhooks} />}
      {"notifications" in data && <NotificationsTab settings={data.notifications.notifications} />}
      {"system" in data && <SystemTab data={data.system} />}
      {"team" in data && <TeamTab members={data.team.members} invited={result?.invited} formError={result?.formError} />}
    </Stack>
  );
}
