import { lazyComponent } from "~/components/lazy-component";
import { Button } from "#mantine/components/Button/Button";
import { Group } from "#mantine/components/Group/Group";
import { SimpleGrid } from "#mantine/components/SimpleGrid/SimpleGrid";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { CardGrid, CardGridSkeleton, useListLoading } from "~/components/crud/CardGrid";
import { CursorLinks } from "~/components/crud/CursorLinks";
import { EmptyState } from "~/components/crud/EmptyState";
import { ListDialogs } from "~/components/crud/ListDialogs";
import { BoxIcon, CheckIcon, CurrencyIcon, PlusIcon, TrendingUpIcon } from "~/components/crud/icons";
import { keepListWhenOpeningDialog, listSearch, readDialog } from "~/utils/list-url";
import { SearchBar } from "~/components/crud/SearchBar";
import { StatCard } from "~/components/crud/StatCard";
import { PackageCard } from "~/components/packages/PackageCard";
import { packageValidator } from "~/schemas/validators.server";
import { requireUser } from "~/services/auth.server";
import {
  createPackage,
  deletePackage,
  getPackage,
  packagesPage,
  updatePackage,
} from "~/services/packages.server";
import { listScreenAction, nullIfNotFound, readListPosition, readListUrl } from "~/screens/list-screen.server";
import { pageTitle, useFormat, useT } from "~/utils/i18n";

// Dialog contents load when a dialog opens (lazyComponent): most visits open none.
const PackageForm = lazyComponent("packages/PackageForm", () => import("~/components/packages/PackageForm").then((m) => m.PackageForm));

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "Packages") }];

const PAGE_SIZE = 24;

export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await requireUser(request);
  const { q, dialog } = readListUrl(request.url);
  const [list, target] = await Promise.all([
    packagesPage(actor, { q, ...readListPosition(request.url, PAGE_SIZE), pageSize: PAGE_SIZE }),
    dialog && dialog.kind !== "new" ? getPackage(actor, dialog.id).catch(nullIfNotFound) : null,
  ]);
  return json({ q: q ?? "", ...list, target });
}

export const shouldRevalidate = keepListWhenOpeningDialog;

/** Form posts: `intent` = create | update | delete; success and failure come back as toasts. */
export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireUser(request);
  return listScreenAction(request, {
    noun: "Package",
    validator: packageValidator,
    create: (input) => createPackage(actor, input),
    update: (id, input) => updatePackage(actor, id, input),
    remove: (id) => deletePackage(actor, id),
    describe: (pkg, done) => `${pkg.name} has been ${done}.`,
  });
}

export default function PackagesPage() {
  const t = useT();
  const fmt = useFormat();
  const { q, packages, matched, newer, older, stats, target } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const loading = useListLoading();
  const dialog = readDialog(params);
  const closeTo = listSearch(params) || "/packages";
  const hrefWith = (changes: Record<string, string | number | null>) => listSearch(params, changes) || "/packages";
  const dialogPackage =
    dialog && dialog.kind !== "new"
      ? (target?.id === dialog.id ? target : packages.find((p) => p.id === dialog.id)) ?? null
      : null;
  const addButton = (
    <Button component={Link} to={hrefWith({ dialog: "new" })} preventScrollReset leftSection={<PlusIcon size={16} />}>
      {t("Add Package")}
    </Button>
  );

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>{t("Packages")}</Title>
          <Text c="dimmed">{t("Service packages with a price and a feature list.")}</Text>
        </div>
        {addButton}
      </Group>

      <SimpleGrid cols={{ base: 2, xs: 2, md: 4 }} spacing={{ base: "xs", sm: "md" }}>
        <StatCard label={t("Total")} value={stats.total} icon={<BoxIcon />} />
        <StatCard label={t("Active")} value={stats.active} icon={<CheckIcon />} color="green" />
        <StatCard label={t("Average Price")} value={fmt.wholeUsd(stats.averagePrice)} icon={<CurrencyIcon />} color="blue" />
        <StatCard label={t("Highest Price")} value={fmt.wholeUsd(stats.highestPrice)} icon={<TrendingUpIcon />} color="violet" />
      </SimpleGrid>

      <SearchBar q={q} placeholder={t("Search packages...")} label={t("Search packages")} />

      {loading ? (
        <CardGridSkeleton count={6} />
      ) : packages.length === 0 ? (
        <EmptyState
          icon={<BoxIcon size={28} />}
          title={t("No Packages Found")}
          message={
            q ? t("No packages match your search.") : t("Create your first service package to offer it with estimates.")
          }
          action={q ? undefined : addButton}
        />
      ) : (
        <CardGrid label={t("Packages")}>
          {packages.map((pkg) => (
            <PackageCard
              key={pkg.id}
              pkg={pkg}
              editTo={hrefWith({ edit: pkg.id })}
              deleteTo={hrefWith({ delete: pkg.id })}
            />
          ))}
        </CardGrid>
      )}

      <CursorLinks
        shown={packages.length}
        matched={matched}
        noun={t("packages")}
        newer={newer}
        older={older}
        hrefFor={(cursor) => hrefWith({ cursor, page: null })}
      />

      <ListDialogs
        dialog={dialog}
        noun={t("Package")}
        item={dialogPackage}
        closeTo={closeTo}
        renderForm={(item) => <PackageForm pkg={item} cancelTo={closeTo} />}
        deleteQuestion={(p) => `Are you sure you want to delete the package "${p.name}"? This action cannot be undone.`}
      />
    </Stack>
  );
}
