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
import { CursorLinks } from "~/components/crud/CursorLinks";
import { EmptyState } from "~/components/crud/EmptyState";
import { CheckIcon, FileIcon, MailIcon, PlusIcon, SendIcon, TrendingUpIcon } from "~/components/crud/icons";
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
import { pageTitle, useT } from "~/utils/i18n";

// Dialog contents load when a dialog opens (lazyComponent): most visits open none.
const ComposeForm = lazyComponent("email/ComposeForm", () => import("~/components/email/ComposeForm").then((m) => m.ComposeForm));
const TemplateForm = lazyComponent("email/TemplateForm", () => import("~/components/email/TemplateForm").then((m) => m.TemplateForm));
const LogView = lazyComponent("email/LogView", () => import("~/components/email/LogView").then((m) => m.LogView));

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "Email Center") }];

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
  const t = useT();
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const [params] = useSearchParams();
  const loading = useListLoading(200, ["q", "cursor", "page", "tab"]);
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
      {t("New Template")}
    </Button>
  );

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>{t("Email Center")}</Title>
          <Text c="dimmed">{t("Templates and delivery of your estimate emails.")}</Text>
        </div>
        <Group>
          <Badge
            size="lg"
            variant="light"
            color={connection.connected ? "green" : "red"}
            data-testid="connection-status"
            title={connection.reason && t(connection.reason)}
          >
            {connection.connected ? t("Connected") : t("Disconnected")}
          </Badge>
          <Button component={Link} to={hrefWith({ dialog: "compose" })} preventScrollReset variant="light" leftSection={<SendIcon size={16} />}>
            {t("Compose Email")}
          </Button>
          {newButton}
        </Group>
      </Group>
      {!connection.connected && connection.reason && (
        <Text size="sm" c="dimmed" data-testid="connection-reason">
          {t(connection.reason)}
        </Text>
      )}

      <SearchBar q={q} placeholder={t("Search templates and logs...")} label={t("Search templates and logs")} keep={{ tab }} />
      <LinkTabs tabs={tabs} active={tab} label={t("Email Center sections")} hrefFor={(value) => hrefWith({ tab: value === "templates" ? null : value, cursor: null, page: null })} />

      {tab === "templates" ? (
        <>
          <SimpleGrid cols={{ base: 2, sm: 2, lg: 4 }} spacing={{ base: "xs", sm: "md" }}>
            <StatCard label={t("Total Templates")} value={stats.totalTemplates} icon={<FileIcon />} />
            <StatCard label={t("Default Templates")} value={stats.defaultTemplates} icon={<CheckIcon />} color="teal" />
            <StatCard label={t("Emails Sent Today")} value={stats.sentToday} icon={<MailIcon />} color="grape" />
            <StatCard label={t("Success Rate")} value={`${stats.successRate}%`} icon={<TrendingUpIcon />} color="orange" />
          </SimpleGrid>
          {loading ? (
            <CardGridSkeleton count={SKELETONS.templates} />
          ) : templates.templates.length === 0 ? (
            <EmptyState
              icon={<FileIcon size={28} />}
              title={t("No Templates Found")}
              message={q ? t("No templates match your search.") : t("Create your first email template.")}
              action={q ? undefined : newButton}
            />
          ) : (
            <CardGrid label={t("Templates")}>
              {templates.templates.map((t) => (
                <TemplateCard key={t.id} template={t} hrefWith={hrefWith} />
              ))}
            </CardGrid>
          )}
          <CursorLinks
            shown={templates.templates.length}
            matched={templates.matched}
            noun={t("templates")}
            newer={templates.newer}
            older={templates.older}
            hrefFor={(cursor) => hrefWith({ cursor, page: null })}
          />
        </>
      ) : (
        <>
          {loading ? (
            <CardGridSkeleton count={SKELETONS.logs} />
          ) : logs.logs.length === 0 ? (
            <EmptyState icon={<MailIcon size={28} />} title={t("No Emails Found")} message={q ? t("No emails match your search.") : t("No emails have been sent yet.")} />
          ) : (
            <CardGrid label={t("Email logs")}>
              {logs.logs.map((log) => (
                <LogCard key={log.id} log={log} timeZone={data.timeZone} viewTo={hrefWith({ log: log.id })} />
              ))}
            </CardGrid>
          )}
          <CursorLinks shown={logs.logs.length} matched={logs.matched} noun={t("emails")} newer={logs.newer} older={logs.older} hrefFor={(cursor) => hrefWith({ cursor, page: null })} />
        </>
      )}

      {dialog?.kind === "new" && (
        <DialogRoute title={t("New Template")} closeTo={closeTo}>
          <TemplateForm template={null} values={actionData?.values} preview={actionData?.preview ?? null} formError={actionData?.formError} cancelTo={closeTo} />
        </DialogRoute>
      )}
      {dialog?.kind === "edit" && (
        <DialogRoute title={t("Edit Template")} closeTo={closeTo}>
          {data.template ? (
            <TemplateForm
              template={data.template}
              values={actionData?.values}
              preview={actionData?.preview ?? data.preview}
              formError={actionData?.formError}
              cancelTo={closeTo}
            />
          ) : (
            <Text>{t("Template not found.")}</Text>
          )}
        </DialogRoute>
      )}
      {dialog?.kind === "view" && (
        <DialogRoute title={data.template?.name ?? t("Template")} closeTo={closeTo}>
          {data.template ? <EmailPreview preview={data.preview} title={t("Preview with sample data")} /> : <Text>{t("Template not found.")}</Text>}
        </DialogRoute>
      )}
      {dialog?.kind === "delete" && (
        <DialogRoute title={t("Delete Template")} closeTo={closeTo}>
          {data.template ? (
            <ConfirmDelete id={data.template.id} question={`Are you sure you want to delete the template "${data.template.name}"? This action cannot be undone.`} cancelTo={closeTo} />
          ) : (
            <Text>{t("Template not found.")}</Text>
          )}
        </DialogRoute>
      )}
      {dialog?.kind === "compose" && data.compose && (
        <DialogRoute title={t("Compose Email")} closeTo={closeTo}>
          <ComposeForm options={data.compose} assessmentId={dialog.assessmentId} formError={actionData?.formError} cancelTo={closeTo} />
        </DialogRoute>
      )}
      {dialog?.kind === "log" && (
        <DialogRoute title={data.log?.subject ?? t("Email")} closeTo={closeTo}>
          {data.log ? <LogView log={data.log} timeZone={data.timeZone} /> : <Text>{t("Email not found.")}</Text>}
        </DialogRoute>
      )}
    </Stack>
  );
}
