import { lazyComponent } from "~/components/lazy-component";
import { Button } from "#mantine/components/Button/Button";
import { Group } from "#mantine/components/Group/Group";
import { NativeSelect } from "~/components/form/NativeSelect";
import { SimpleGrid } from "#mantine/components/SimpleGrid/SimpleGrid";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import {
  json,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { CardGrid, CardGridSkeleton, useListLoading } from "~/components/crud/CardGrid";
import { CursorLinks } from "~/components/crud/CursorLinks";
import { EmptyState } from "~/components/crud/EmptyState";
import { BoxIcon, CheckIcon, PlusIcon, StarIcon, TrendingUpIcon } from "~/components/crud/icons";
import { keepListWhenOpeningDialog, listSearch, readDialog } from "~/utils/list-url";
import { ListDialogs } from "~/components/crud/ListDialogs";
import { UrlChoicesForm } from "~/components/crud/PostButtons";
import { StatCard } from "~/components/crud/StatCard";
import { DAMAGE_TYPE_OPTIONS, humanize, SEVERITY_OPTIONS } from "~/components/training/labels";
import { TrainingCard } from "~/components/training/TrainingCard";
import { uploaderLinks } from "~/components/upload/links";
import { MODEL_ACCURACY_DISPLAY, VERIFIED_FILTERS } from "~/schemas/training-display";
import { trainingFilterSchema, trainingItemValidator } from "~/schemas/validators.server";
import { requireAdmin } from "~/services/auth.server";
import { receiveFormUploads } from "~/services/storage/form-uploads.server";
import { mediaUrl } from "~/services/storage/names.server";
import {
  createTrainingItem,
  deleteTrainingItem,
  getTrainingItem,
  trainingPage,
  updateTrainingItem,
  verifyTrainingItem,
} from "~/services/training.server";
import { handleForm, validationError } from "~/utils/forms.server";
import { jsonError } from "~/utils/http.server";
import { listReturnTo, nullIfNotFound, readListPosition, writeAndReturn } from "~/screens/list-screen.server";
import { pageTitle, useT } from "~/utils/i18n";

// Dialog contents load when a dialog opens (lazyComponent): most visits open none.
const TrainingForm = lazyComponent("training/TrainingForm", () => import("~/components/training/TrainingForm").then((m) => m.TrainingForm));

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "AI Training Center") }];
export const links: LinksFunction = () => uploaderLinks();

const PAGE_SIZE = 24;
/** The list's URL state: the three filters and the page, by cursor or an old `?page=` (dialogs come and go over it). */
const LIST_KEYS = ["damageType", "severity", "verified", "cursor", "page"] as const;

/** The filters as the URL holds them ('all' or absent: no filter; anything unknown: ignored). */
function readFilters(params: URLSearchParams) {
  const pick = (key: string, allowed: readonly string[]) => {
    const value = params.get(key) ?? "all";
    return allowed.includes(value) ? value : "all";
  };
  const damageType = pick("damageType", DAMAGE_TYPE_OPTIONS.map((o) => o.value));
  const severity = pick("severity", SEVERITY_OPTIONS.map((o) => o.value));
  const verified = pick("verified", VERIFIED_FILTERS);
  const filter = trainingFilterSchema.parse({
    damageType: damageType === "all" ? undefined : damageType,
    severity: severity === "all" ? undefined : severity,
    isVerified: verified === "all" ? undefined : String(verified === "verified"),
  });
  return { damageType, severity, verified, filter };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const { filter, ...filters } = readFilters(params);
  const dialog = readDialog(params);
  const [list, target] = await Promise.all([
    trainingPage(actor, { filter, ...readListPosition(request.url, PAGE_SIZE), pageSize: PAGE_SIZE }),
    dialog && dialog.kind !== "new" ? getTrainingItem(actor, dialog.id).catch(nullIfNotFound) : null,
  ]);
  return json({ ...filters, ...list, target });
}

export const shouldRevalidate = keepListWhenOpeningDialog;

/**
 * The form posts: create and update come as multipart (without JavaScript the image file is in
 * the post and is stored under the training limits first); verify and delete as plain forms.
 */
export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireAdmin(request);
  let form: FormData;
  if (/^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? "")) {
    const { stored, errors, fields } = await receiveFormUploads(actor, request, "training");
    form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.set(key, value);
    if (stored[0]) form.set("imageUrl", mediaUrl(String(stored[0]._id)));
    if (errors.length > 0) return validationError({ fieldErrors: { imageUrl: errors[0] } }, fields);
  } else {
    form = await request.formData();
  }
  const id = String(form.get("id") ?? "");
  const back = listReturnTo(request.url, { keys: LIST_KEYS });
  /** One service call, then back to the list with the spec's success or failure toast. */
  const write = (run: () => Promise<unknown>, message: string, failure: string, returnTo = back) =>
    writeAndReturn(request, returnTo, async () => (await run(), { title: "Success", message }), failure);
  switch (form.get("intent")) {
    case "create":
      return handleForm(
        request,
        trainingItemValidator,
        (input) =>
          write(
            () => createTrainingItem(actor, input),
            "Training data added successfully",
            "Failed to add training data",
            listReturnTo(request.url, { keys: LIST_KEYS, firstPage: true }),
          ),
        form,
      );
    case "update":
      return handleForm(
        request,
        trainingItemValidator,
        (input) => write(() => updateTrainingItem(actor, id, input), "Training data updated successfully", "Failed to update training data"),
        form,
      );
    case "verify":
      return write(() => verifyTrainingItem(actor, id), "Training data updated successfully", "Failed to update training data");
    case "delete":
      return write(() => deleteTrainingItem(actor, id), "Training data deleted successfully", "Failed to delete training data");
    default:
      throw jsonError(400, "Unknown action");
  }
}

/** The filters, kept in the URL. */
function Filters({ damageType, severity, verified }: { damageType: string; severity: string; verified: string }) {
  const t = useT();
  return (
    <UrlChoicesForm submitLabel={t("Apply")}>
      <NativeSelect
        name="damageType"
        label={t("Damage type")}
        defaultValue={damageType}
        data={[{ value: "all", label: "All damage types" }, ...DAMAGE_TYPE_OPTIONS]}
      />
      <NativeSelect
        name="severity"
        label={t("Severity")}
        defaultValue={severity}
        data={[{ value: "all", label: "All severities" }, ...SEVERITY_OPTIONS]}
      />
      <NativeSelect
        name="verified"
        label={t("Status")}
        defaultValue={verified}
        data={VERIFIED_FILTERS.map((v) => ({ value: v, label: humanize(v) }))}
      />
    </UrlChoicesForm>
  );
}

export default function AiTrainingPage() {
  const t = useT();
  const { damageType, severity, verified, items, matched, newer, older, stats, target } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const loading = useListLoading();
  const dialog = readDialog(params);
  const hrefWith = (changes: Record<string, string | number | null>) => listSearch(params, changes, LIST_KEYS) || "/ai-training";
  const closeTo = hrefWith({});
  const dialogItem =
    dialog && dialog.kind !== "new" ? (target?.id === dialog.id ? target : items.find((i) => i.id === dialog.id)) ?? null : null;
  const filtered = damageType !== "all" || severity !== "all" || verified !== "all";
  const addButton = (
    <Button component={Link} to={hrefWith({ dialog: "new" })} preventScrollReset leftSection={<PlusIcon size={16} />}>
      {t("Add Training Data")}
    </Button>
  );

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>{t("AI Training Center")}</Title>
          <Text c="dimmed">{t("Verified photos of damage with their repair figures teach the assessments and the prices.")}</Text>
        </div>
        {addButton}
      </Group>

      <SimpleGrid cols={{ base: 2, xs: 2, md: 4 }} spacing={{ base: "xs", sm: "md" }}>
        <StatCard label={t("Total Images")} value={stats.total} icon={<BoxIcon />} />
        <StatCard label={t("Verified")} value={stats.verified} icon={<CheckIcon />} color="green" />
        <StatCard label={t("Pending Review")} value={stats.pending} icon={<StarIcon />} color="yellow" />
        <StatCard label={t("Model Accuracy")} value={MODEL_ACCURACY_DISPLAY} icon={<TrendingUpIcon />} color="violet" />
      </SimpleGrid>

      <Filters damageType={damageType} severity={severity} verified={verified} />

      {loading ? (
        <CardGridSkeleton count={6} />
      ) : items.length === 0 ? (
        <EmptyState
          icon={<BoxIcon size={28} />}
          title={t("No Training Data Found")}
          message={filtered ? t("No training data matches these filters.") : t("Add photos of damage with their repair figures.")}
          action={filtered ? undefined : addButton}
        />
      ) : (
        <CardGrid label={t("Training data")}>
          {items.map((item) => (
            <TrainingCard key={item.id} item={item} editTo={hrefWith({ edit: item.id })} deleteTo={hrefWith({ delete: item.id })} />
          ))}
        </CardGrid>
      )}

      <CursorLinks shown={items.length} matched={matched} noun={t("items")} newer={newer} older={older} hrefFor={(cursor) => hrefWith({ cursor, page: null })} />

      <ListDialogs
        dialog={dialog}
        noun={t("Training Data")}
        item={dialogItem}
        closeTo={closeTo}
        renderForm={(item) => <TrainingForm item={item} cancelTo={closeTo} />}
        deleteQuestion={(i) => `Are you sure you want to delete this training item ("${i.description}")? This action cannot be undone.`}
      />
    </Stack>
  );
}
