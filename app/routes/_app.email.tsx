import { Badge } from "#mantine/components/Badge/Badge";
import { Button } from "#mantine/components/Button/Button";
import { Group } from "#mantine/components/Group/Group";
import { SimpleGrid } from "#mantine/components/SimpleGrid/SimpleGrid";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { CardGrid, CardGridSkeleton, useListLoading } from "~/components/crud/CardGrid";
import { ConfirmDelete } from "~/components/crud/ConfirmDelete";
import { EmptyState } from "~/components/crud/EmptyState";
import { CheckIcon, FileIcon, MailIcon, PlusIcon, SendIcon, TrendingUpIcon } from "~/components/crud/icons";
import { PageLinks } from "~/components/crud/PageLinks";
import { SearchBar } from "~/components/crud/SearchBar";
import { StatCard } from "~/components/crud/StatCard";
import { DialogRoute } from "~/components/DialogRoute";
import { lazyComponent } from "~/components/lazy-component";
import { EmailPreview, type PreviewData } from "~/components/email/EmailPreview";
import { LogCard } from "~/components/email/LogCard";
import { TemplateCard } from "~/components/email/TemplateCard";
import { LinkTabs } from "~/components/LinkTabs";
import { emailCenterAction, emailCenterData } from "~/screens/email-center.server";
import { requireUser } from "~/services/auth.server";
import { EMAIL_LIST_PARAMS, readEmailDialog } from "~/utils/email-url";
import { listSearch } from "~/utils/list-url";

// Dialog contents load when a dialog opens (lazyComponent): most visits open none.
const ComposeForm = lazyComponent("email/ComposeForm", () => import("~/components/email/ComposeForm").then((m) => m.ComposeForm));
const TemplateForm = lazyComponent("email/TemplateForm", () => import("~/components/email/TemplateForm").then((m) => m.TemplateForm));
const LogView = lazyComponent("email/LogView", () => import("~/components/email/LogView").then((m) => m.LogView));

export const meta: MetaFunction = () => [{ title: "Email Center · DamageIQ" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await requireUser(request);
  return json(await emailCenterData(actor, request.url));
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireUser(request);
  return emailCenterAction(actor, request);
}

type ActionData = {
  preview?: PreviewData;
  values?: { name: string; subject: string; htmlContent: string; isDefault?: boolean };
  formError?: string;
};

/** Spec §9: loading placeholders, 3 for templates and 5 for logs. */
const SKELETONS = { templates: 3, logs: 5 } as const;

export default function EmailCenter() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const [params] = useSearchParams();
  const loading = useListLoading(200, ["q", "page", "tab"]);
  const dialog = readEmailDialog(params);
  const { tab, q, templates, logs, stats, connection } = data;
  const closeTo = listSearch(params, {}, EMAIL_LIST_PARAMS) || "/email";
  const hrefWith = (changes: Record<string, string | number | null>) => listSearch(params, changes, EMAIL_LIST_PARAMS) || "/email";
  const tabs = [
    { value: "templates", label: `Templates (${templates.matched})` },
    { value: "logs", label: `Email Logs (${logs.matched})` },
  ];
  const newButton = (
    <Button component={Link} to={hrefWith({ dialog: "new" })} preventScrollReset leftSection={<PlusIcon size={16} />}>
      New Template
    </Button>
  );

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>Email Center</Title>
          <Text c="dimmed">Templates and delivery of your estimate emails.</Text>
        </div>
        <Group>
          <Badge
            size="lg"
            variant="light"
            color={connection.connected ? "green" : "red"}
            data-testid="connection-status"
            title={connection.reason}
          >
            {connection.connected ? "Connected" : "Disconnected"}
          </Badge>
          <Button component={Link} to={hrefWith({ dialog: "compose" })} preventScrollReset variant="light" leftSection={<SendIcon size={16} />}>
            Compose Email
          </Button>
          {newButton}
        </Group>
      </Group>
      {!connection.connected && connection.reason && (
        <Text size="sm" c="dimmed" data-testid="connection-reason">
          {connection.reason}
        </Text>
      )}

      <SearchBar q={q} placeholder="Search templates and logs..." label="Search templates and logs" keep={{ tab }} />
      <LinkTabs tabs={tabs} active={tab} label="Email Center sections" hrefFor={(value) => hrefWith({ tab: value === "templates" ? null : value, page: null })} />

      {tab === "templates" ? (
        <>
          <SimpleGrid cols={{ base: 2, sm: 2, lg: 4 }} spacing={{ base: "xs", sm: "md" }}>
            <StatCard label="Total Templates" value={stats.totalTemplates} icon={<FileIcon />} />
            <StatCard label="Default Templates" value={stats.defaultTemplates} icon={<CheckIcon />} color="teal" />
            <StatCard label="Emails Sent Today" value={stats.sentToday} icon={<MailIcon />} color="grape" />
            <StatCard label="Success Rate" value={`${stats.successRate}%`} icon={<TrendingUpIcon />} color="orange" />
          </SimpleGrid>
          {loading ? (
            <CardGridSkeleton count={SKELETONS.templates} />
          ) : templates.templates.length === 0 ? (
            <EmptyState
              icon={<FileIcon size={28} />}
              title="No Templates Found"
              message={q ? "No templates match your search." : "Create your first email template."}
              action={q ? undefined : newButton}
            />
          ) : (
            <CardGrid label="Templates">
              {templates.templates.map((t) => (
                <TemplateCard key={t.id} template={t} hrefWith={hrefWith} />
              ))}
            </CardGrid>
          )}
          <PageLinks page={templates.page} pageCount={templates.pageCount} matched={templates.matched} pageSize={data.pageSize} noun="templates" hrefFor={(p) => hrefWith({ page: p })} />
        </>
      ) : (
        <>
          {loading ? (
            <CardGridSkeleton count={SKELETONS.logs} />
          ) : logs.logs.length === 0 ? (
            <EmptyState icon={<MailIcon size={28} />} title="No Emails Found" message={q ? "No emails match your search." : "No emails have been sent yet."} />
          ) : (
            <CardGrid label="Email logs">
              {logs.logs.map((log) => (
                <LogCard key={log.id} log={log} timeZone={data.timeZone} viewTo={hrefWith({ log: log.id })} />
              ))}
            </CardGrid>
          )}
          <PageLinks page={logs.page} pageCount={logs.pageCount} matched={logs.matched} pageSize={data.pageSize} noun="emails" hrefFor={(p) => hrefWith({ page: p })} />
        </>
      )}

      {dialog?.kind === "new" && (
        <DialogRoute title="New Template" closeTo={closeTo}>
          <TemplateForm template={null} values={actionData?.values} preview={actionData?.preview ?? null} formError={actionData?.formError} cancelTo={closeTo} />
        </DialogRoute>
      )}
      {dialog?.kind === "edit" && (
        <DialogRoute title="Edit Template" closeTo={closeTo}>
          {data.template ? (
            <TemplateForm
              template={data.template}
              values={actionData?.values}
              preview={actionData?.preview ?? data.preview}
              formError={actionData?.formError}
              cancelTo={closeTo}
            />
          ) : (
            <Text>Template not found.</Text>
          )}
        </DialogRoute>
      )}
      {dialog?.kind === "view" && (
        <DialogRoute title={data.template?.name ?? "Template"} closeTo={closeTo}>
          {data.template ? <EmailPreview preview={data.preview} title="Preview with sample data" /> : <Text>Template not found.</Text>}
        </DialogRoute>
      )}
      {dialog?.kind === "delete" && (
        <DialogRoute title="Delete Template" closeTo={closeTo}>
          {data.template ? (
            <ConfirmDelete id={data.template.id} question={`Are you sure you want to delete the template "${data.template.name}"? This action cannot be undone.`} cancelTo={closeTo} />
          ) : (
            <Text>Template not found.</Text>
          )}
        </DialogRoute>
      )}
      {dialog?.kind === "compose" && data.compose && (
        <DialogRoute title="Compose Email" closeTo={closeTo}>
          <ComposeForm options={data.compose} assessmentId={dialog.assessmentId} formError={actionData?.formError} cancelTo={closeTo} />
        </DialogRoute>
      )}
      {dialog?.kind === "log" && (
        <DialogRoute title={data.log?.subject ?? "Email"} closeTo={closeTo}>
          {data.log ? <LogView log={data.log} timeZone={data.timeZone} /> : <Text>Email not found.</Text>}
        </DialogRoute>
      )}
    </Stack>
  );
}
