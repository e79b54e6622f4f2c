import { SimpleGrid } from "#mantine/components/SimpleGrid/SimpleGrid";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { DashboardStatCards, RecentAssessments, WorkflowBoard } from "~/components/dashboard/AssessmentPanels";
import { CustomerDecisions } from "~/components/dashboard/CustomerDecisions";
import { lazyComponent } from "~/components/lazy-component";
import layout from "~/components/dashboard/DashboardLayout.module.css";
import { ActivePackages, AiInsights, QuickActions, VendorPricing } from "~/components/dashboard/InfoPanels";
import { RolePreviewCard } from "~/components/RolePreview";
import { DraftNotice } from "~/components/upload/DraftNotice";
import { uploaderLinks } from "~/components/upload/links";
import { dashboardAction, dashboardData } from "~/screens/dashboard.server";
import { requireUser } from "~/services/auth.server";
import type { loader as appLoader } from "./_app";
import { pageTitle, useT } from "~/utils/i18n";

// Shown only while an email's delivery is unknown: its code loads then (the dashboard's first load stays in budget).
const UnknownEmails = lazyComponent("dashboard/UnknownEmails", () => import("~/components/email/UnknownEmailActions").then((m) => m.UnknownEmails));
// Shown only while a customer's question waits for an answer (docs/decisions/0058): lazily, for the same reason.
const UnansweredQuestionsCard = lazyComponent("dashboard/UnansweredQuestions", () => import("~/components/dashboard/UnansweredQuestions").then((m) => m.UnansweredQuestionsCard));

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "Dashboard") }];
export const links = uploaderLinks;

export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await requireUser(request);
  return json(await dashboardData(actor));
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireUser(request);
  return dashboardAction(actor, request);
}

export default function Dashboard() {
  const t = useT();
  const { stats, board, packages, rates, draftFiles, decisions, unknownEmails, questions } = useLoaderData<typeof loader>();
  const user = useRouteLoaderData<typeof appLoader>("routes/_app")?.user;
  return (
    <Stack>
      <div>
        <Title order={1}>{t("Dashboard")}</Title>
        <Text c="dimmed">{t("AI damage assessment for dealers, body shops and repair vendors.")}</Text>
      </div>
      {user?.realRole === "admin" && <RolePreviewCard role={user.role} />}
      {draftFiles > 0 && <DraftNotice count={draftFiles} />}
      <DashboardStatCards stats={stats} />
      <div className={layout.columns}>
        <Stack>
          {unknownEmails.count > 0 && <UnknownEmails count={unknownEmails.count} logs={unknownEmails.logs} />}
          {questions.count > 0 && <UnansweredQuestionsCard questions={questions} />}
          {decisions.length > 0 && <CustomerDecisions decisions={decisions} />}
          <RecentAssessments assessments={stats.recentAssessments} />
        </Stack>
        <Stack>
          <QuickActions recent={stats.recentAssessments} />
          <AiInsights />
        </Stack>
      </div>
      <WorkflowBoard stats={stats} items={board} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <ActivePackages packages={packages} />
        <VendorPricing rates={rates} />
      </SimpleGrid>
    </Stack>
  );
}
