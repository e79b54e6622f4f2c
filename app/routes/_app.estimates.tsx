import { lazyComponent } from "~/components/lazy-component";
import { Button } from "#mantine/components/Button/Button";
import { Group } from "#mantine/components/Group/Group";
import { NativeSelect } from "~/components/form/NativeSelect";
import { SimpleGrid } from "#mantine/components/SimpleGrid/SimpleGrid";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useFormAction, useLoaderData, useSearchParams } from "@remix-run/react";
import { CardGrid, CardGridSkeleton, useListLoading } from "~/components/crud/CardGrid";
import { ConfirmDelete } from "~/components/crud/ConfirmDelete";
import { EmptyState } from "~/components/crud/EmptyState";
import { ClockIcon, CurrencyIcon, FileIcon, PlusIcon, SendIcon } from "~/components/crud/icons";
import { CursorLinks } from "~/components/crud/CursorLinks";
import { UrlChoicesForm } from "~/components/crud/PostButtons";
import { SearchBar } from "~/components/crud/SearchBar";
import { StatCard } from "~/components/crud/StatCard";
import { DialogRoute } from "~/components/DialogRoute";
import { EstimateCard } from "~/components/estimates/EstimateCard";
import { ASSESSMENT_STATUSES, BEING_ANALYZED } from "~/schemas/assessment-status";
import { estimatesAction, estimatesData } from "~/screens/estimates.server";
import { requireUser } from "~/services/auth.server";
import { ESTIMATE_LIST_PARAMS, readEstimateDialog } from "~/utils/estimate-url";
import { listSearch } from "~/utils/list-url";
import { pageTitle, useFormat, useT } from "~/utils/i18n";

// Dialog contents load when a dialog opens (lazyComponent): most visits open none.
const EstimateDetail = lazyComponent("estimates/EstimateDetail", () => import("~/components/estimates/EstimateDetail").then((m) => m.EstimateDetail));
const EstimateForm = lazyComponent("estimates/EstimateForm", () => import("~/components/estimates/EstimateForm").then((m) => m.EstimateForm));

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "Estimates") }];

export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await requireUser(request);
  return json(await estimatesData(actor, request.url));
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireUser(request);
  return estimatesAction(actor, request);
}

const STATUS_OPTIONS = [{ value: "all", label: "All Statuses" }, ...ASSESSMENT_STATUSES.map((s) => ({ value: s, label: s }))];
/** Loading placeholders on Estimates (spec §9). */
const PLACEHOLDERS = 5;

export default function EstimatesPage() {
  const t = useT();
  const fmt = useFormat();
  const { q, status, assessments, matched, older, newer, summary, target, timeZone, contacts, links, decisions, questions } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const formAction = useFormAction();
  const loading = useListLoading(200, ESTIMATE_LIST_PARAMS);
  const dialog = readEstimateDialog(params);
  const closeTo = listSearch(params, {}, ESTIMATE_LIST_PARAMS) || "/estimates";
  const hrefWith = (changes: Record<string, string | number | null>) => listSearch(params, changes, ESTIMATE_LIST_PARAMS) || "/estimates";
  const formatTime = (iso: string) => fmt.dateTime(iso, timeZone);
  const estimate = dialog && target?.id === dialog.id ? target : null;
  const filtered = Boolean(q) || status !== "all";
  const newButton = (label: string) => (
    <Button component={Link} to="/upload" leftSection={<PlusIcon size={16} />}>
      {t(label)}
    </Button>
  );

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>{t("Estimates")}</Title>
          <Text c="dimmed">{t("Review, download and send your damage estimates.")}</Text>
        </div>
        {newButton("New Estimate")}
      </Group>

      <SimpleGrid cols={{ base: 2, xs: 2, md: 4 }} spacing={{ base: "xs", sm: "md" }}>
        <StatCard label={t("Total Estimates")} value={summary.total} icon={<FileIcon />} />
        <StatCard label={t("Pending Review")} value={summary.pendingReview} icon={<ClockIcon />} color="yellow" />
        <StatCard label={t("Total Value")} value={fmt.dollars(summary.totalValue)} icon={<CurrencyIcon />} color="teal" />
        <StatCard label={t("Sent Today")} value={summary.sentToday} icon={<SendIcon />} color="grape" />
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <SearchBar q={q} placeholder={t("Search estimates...")} label={t("Search estimates")} keep={status === "all" ? {} : { status }} />
        <UrlChoicesForm submitLabel={t("Filter")}>
          {q && <input type="hidden" name="q" value={q} />}
          <NativeSelect name="status" aria-label="Status" defaultValue={status} key={status} data={STATUS_OPTIONS} style={{ flex: 1 }} />
        </UrlChoicesForm>
      </SimpleGrid>

      {loading ? (
        <CardGridSkeleton count={PLACEHOLDERS} />
      ) : assessments.length === 0 ? (
        <EmptyState
          icon={<FileIcon size={28} />}
          title={t("No Estimates Found")}
          message={filtered ? t("No estimates match your current filters.") : t("You haven't created any estimates yet.")}
          action={newButton("Create Your First Estimate")}
        />
      ) : (
        <CardGrid label={t("Estimates")}>
          {assessments.map((a) => (
            <EstimateCard key={a.id} estimate={a} hrefWith={hrefWith} formAction={formAction} />
          ))}
        </CardGrid>
      )}

      <CursorLinks shown={assessments.length} matched={matched} noun={t("estimates")} newer={newer} older={older} hrefFor={(cursor) => hrefWith({ cursor, page: null })} />

      {dialog && (
        <DialogRoute
          title={dialog.kind === "view" ? estimate?.title ?? t("Estimate") : dialog.kind === "edit" ? t("Edit Estimate") : t("Delete Estimate")}
          closeTo={closeTo}
          // The edit form's lines hold up to eight fields a row: room for them on a laptop.
          size={dialog.kind === "edit" ? "xl" : "lg"}
        >
          {!estimate ? (
            <Text>{t("Estimate not found.")}</Text>
          ) : dialog.kind === "view" ? (
            <EstimateDetail estimate={estimate} links={links} decisions={decisions} questions={questions} hrefWith={hrefWith} formatTime={formatTime} />
          ) : dialog.kind === "edit" && BEING_ANALYZED.includes(estimate.status) ? (
            <Text>{t("This estimate is being analyzed: edit it when the analysis is done.")}</Text>
          ) : dialog.kind === "edit" ? (
            <EstimateForm estimate={estimate} contacts={contacts} cancelTo={hrefWith({ view: estimate.id })} />
          ) : (
            <ConfirmDelete id={estimate.id} question={`Are you sure you want to delete “${estimate.title}”? This action cannot be undone.`} cancelTo={closeTo} />
          )}
        </DialogRoute>
      )}
    </Stack>
  );
}
