import { lazyComponent } from "~/components/lazy-component";
import { Alert } from "#mantine/components/Alert/Alert";
import { Button } from "#mantine/components/Button/Button";
import { Group } from "#mantine/components/Group/Group";
import { NativeSelect } from "~/components/form/NativeSelect";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { ConfirmDelete } from "~/components/crud/ConfirmDelete";
import { EmptyState } from "~/components/crud/EmptyState";
import { UrlChoicesForm } from "~/components/crud/PostButtons";
import { BoxIcon, PlusIcon } from "~/components/crud/icons";
import { DialogRoute } from "~/components/DialogRoute";
import { LinkTabs } from "~/components/LinkTabs";
import { LearningRecordCard, RuleCard, VendorPackageCard } from "~/components/vendor-training/VendorLists";
import { humanize } from "~/components/training/labels";
import { pricingRuleValidator, vendorPackageValidator } from "~/schemas/validators.server";
import { requireUser } from "~/services/auth.server";
import {
  createPricingRule,
  createVendorPackage,
  deletePricingRule,
  deleteVendorPackage,
  listLearningRecords,
  listPricingRules,
  listVendorPackages,
  listVendors,
  updatePricingRule,
  updateVendorPackage,
  validateLearningRecord,
  type LearningRecordJson,
  type PricingRuleJson,
  type VendorPackageJson,
} from "~/services/vendors.server";
import { handleForm } from "~/utils/forms.server";
import { jsonError } from "~/utils/http.server";
import { listSearch, readDialog } from "~/utils/list-url";
import { listReturnTo, writeAndReturn } from "~/screens/list-screen.server";
import { pageTitle, useT } from "~/utils/i18n";

// Dialog contents load when a dialog opens (lazyComponent): most visits open none.
const PricingRuleForm = lazyComponent("vendor-training/PricingRuleForm", () => import("~/components/vendor-training/PricingRuleForm").then((m) => m.PricingRuleForm));
const VendorPackageForm = lazyComponent("vendor-training/VendorPackageForm", () => import("~/components/vendor-training/VendorPackageForm").then((m) => m.VendorPackageForm));

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "Vendor AI Training") }];

/** The screen's URL state: the chosen vendor and tab (dialogs come and go over it). */
const KEYS = ["vendor", "tab"] as const;
const TABS = [
  { value: "rules", label: "Pricing Rules" },
  { value: "packages", label: "Packages" },
  { value: "learning", label: "Learning Data" },
] as const;
type Tab = (typeof TABS)[number]["value"];

export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await requireUser(request);
  const params = new URL(request.url).searchParams;
  const vendors = await listVendors();
  const ownVendor = actor.role === "vendor";
  // A vendor works on its own pricing; admins and dealers choose a vendor.
  const vendor = vendors.find((v) => v.id === (ownVendor ? actor.id : params.get("vendor"))) ?? null;
  const canEdit = actor.role !== "dealer";
  const tabs: Tab[] = canEdit ? TABS.map((t) => t.value) : ["rules"];
  const tab: Tab = tabs.find((t) => t === params.get("tab")) ?? "rules";
  const vendorId = ownVendor ? undefined : vendor?.id;
  let rules: PricingRuleJson[] = [];
  let packages: VendorPackageJson[] = [];
  let records: LearningRecordJson[] = [];
  if (vendor) {
    if (tab === "rules") rules = await listPricingRules(actor, vendorId);
    if (tab === "packages") packages = await listVendorPackages(actor, vendorId);
    if (tab === "learning") records = await listLearningRecords(actor, vendorId);
  }
  return json({ vendors, vendor, ownVendor, canEdit, tabs, tab, rules, packages, records });
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireUser(request);
  const form = await request.formData();
  const vendorId = actor.role === "vendor" ? undefined : new URL(request.url).searchParams.get("vendor") ?? undefined;
  const id = String(form.get("id") ?? "");
  const back = listReturnTo(request.url, { keys: KEYS });
  /** One service call, then back with the spec's toast; a conflict on a field stays on the form. */
  const write = (run: () => Promise<unknown>, message: string, failure: string) =>
    writeAndReturn(request, back, async () => (await run(), { title: "Success", message }), failure, { fieldErrorsToForm: true });
  switch (form.get("intent")) {
    case "create-rule":
      return handleForm(request, pricingRuleValidator, (input) => write(() => createPricingRule(actor, vendorId, input), "Pricing rule created successfully", "Failed to create pricing rule"), form);
    case "update-rule":
      return handleForm(request, pricingRuleValidator, (input) => write(() => updatePricingRule(actor, id, input), "Pricing rule updated successfully", "Failed to update pricing rule"), form);
    case "delete-rule":
      return write(() => deletePricingRule(actor, id), "Pricing rule deleted successfully", "Failed to delete pricing rule");
    case "create-package":
      return handleForm(request, vendorPackageValidator, (input) => write(() => createVendorPackage(actor, vendorId, input), "Vendor package created successfully", "Failed to create vendor package"), form);
    case "update-package":
      return handleForm(request, vendorPackageValidator, (input) => write(() => updateVendorPackage(actor, id, input), "Vendor package updated successfully", "Failed to update vendor package"), form);
    case "delete-package":
      return write(() => deleteVendorPackage(actor, id), "Vendor package deleted successfully", "Failed to delete vendor package");
    case "validate":
      return write(() => validateLearningRecord(actor, id), "Learning data validated successfully", "Failed to validate learning data");
    default:
      throw jsonError(400, "Unknown action");
  }
}

/** The vendor selector, kept in the URL. */
function VendorSelector({ vendors, selected }: { vendors: { id: string; name: string; address: string | null }[]; selected: string }) {
  const t = useT();
  return (
    <UrlChoicesForm submitLabel={t("Show")}>
      <NativeSelect
        name="vendor"
        label={t("Vendor")}
        defaultValue={selected}
        style={{ flex: "1 1 260px", maxWidth: 480 }}
        data={[
          { value: "", label: "Choose a vendor…" },
          ...vendors.map((v) => ({ value: v.id, label: v.address ? `${v.name} — ${v.address}` : v.name })),
        ]}
      />
    </UrlChoicesForm>
  );
}

export default function VendorAiTrainingPage() {
  const t = useT();
  const { vendors, vendor, ownVendor, canEdit, tabs, tab, rules, packages, records } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const hrefWith = (changes: Record<string, string | number | null>) => listSearch(params, changes, KEYS) || "/vendor-ai-training";
  const closeTo = hrefWith({});
  const dialog = readDialog(params);
  const rule = dialog && dialog.kind !== "new" && tab === "rules" ? rules.find((r) => r.id === dialog.id) ?? null : null;
  const pkg = dialog && dialog.kind !== "new" && tab === "packages" ? packages.find((p) => p.id === dialog.id) ?? null : null;
  const notFound = <Text>{t("Not found.")}</Text>;
  const addLabel = tab === "rules" ? "Add Pricing Rule" : "Add Package";

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>{t("Vendor AI Training Center")}</Title>
        <Text c="dimmed">
          {canEdit
            ? t("Each vendor's pricing rules, packages and validated corrections: what estimates are priced with.")
            : t("The vendors' active pricing rules, as estimates are priced with them.")}
        </Text>
      </div>

      {ownVendor ? (
        vendor ? (
          <Text fw={500}>
            {vendor.name}
            {vendor.address ? ` — ${vendor.address}` : ""}
          </Text>
        ) : (
          <Alert color="yellow">{t("Only a vendor account has pricing of its own.")}</Alert>
        )
      ) : (
        <VendorSelector vendors={vendors} selected={vendor?.id ?? ""} />
      )}

      {!vendor ? (
        !ownVendor && (
          <EmptyState
            icon={<BoxIcon size={28} />}
            title={vendors.length === 0 ? t("No Vendors Yet") : t("Choose a Vendor")}
            message={vendors.length === 0 ? t("Vendor accounts appear here once they are created.") : t("Pick a vendor to see its pricing.")}
          />
        )
      ) : (
        <>
          <Group justify="space-between" align="center" wrap="wrap">
            <LinkTabs
              label={t("Vendor pricing")}
              tabs={TABS.filter((t) => tabs.includes(t.value))}
              active={tab}
              hrefFor={(value) => hrefWith({ tab: value === "rules" ? null : value })}
            />
            {canEdit && tab !== "learning" && (
              <Button component={Link} to={hrefWith({ dialog: "new" })} preventScrollReset leftSection={<PlusIcon size={16} />}>
                {t(addLabel)}
              </Button>
            )}
          </Group>

          {tab === "rules" &&
            // An empty list says so outside it: a role="list" holds list items only.
            (rules.length === 0 ? (
              <Text c="dimmed">{t("No pricing rules yet.")}</Text>
            ) : (
              <Stack gap="sm" role="list" aria-label="Pricing rules">
                {rules.map((r) => (
                  <RuleCard key={r.id} rule={r} editTo={canEdit ? hrefWith({ edit: r.id }) : undefined} deleteTo={canEdit ? hrefWith({ delete: r.id }) : undefined} />
                ))}
              </Stack>
            ))}
          {tab === "packages" &&
            (packages.length === 0 ? (
              <Text c="dimmed">{t("No packages yet.")}</Text>
            ) : (
              <Stack gap="sm" role="list" aria-label="Vendor packages">
                {packages.map((p) => (
                  <VendorPackageCard key={p.id} pkg={p} editTo={hrefWith({ edit: p.id })} deleteTo={hrefWith({ delete: p.id })} />
                ))}
              </Stack>
            ))}
          {tab === "learning" &&
            (records.length === 0 ? (
              <Text c="dimmed">{t("No learning records yet: they come from edited estimates.")}</Text>
            ) : (
              <Stack gap="sm" role="list" aria-label="Learning data">
                {records.map((r) => (
                  <LearningRecordCard key={r.id} record={r} canValidate={canEdit} />
                ))}
              </Stack>
            ))}

          {canEdit && dialog && tab === "rules" && (
            <DialogRoute title={dialog.kind === "new" ? t("Add Pricing Rule") : dialog.kind === "edit" ? t("Edit Pricing Rule") : t("Delete Pricing Rule")} closeTo={closeTo}>
              {dialog.kind === "new" ? (
                <PricingRuleForm cancelTo={closeTo} />
              ) : !rule ? (
                notFound
              ) : dialog.kind === "edit" ? (
                <PricingRuleForm rule={rule} cancelTo={closeTo} />
              ) : (
                <ConfirmDelete
                  id={rule.id}
                  intent="delete-rule"
                  question={`Are you sure you want to delete the ${humanize(rule.damageType)} (${rule.severity}) pricing rule? This action cannot be undone.`}
                  cancelTo={closeTo}
                />
              )}
            </DialogRoute>
          )}
          {canEdit && dialog && tab === "packages" && (
            <DialogRoute title={dialog.kind === "new" ? t("Add Package") : dialog.kind === "edit" ? t("Edit Package") : t("Delete Package")} closeTo={closeTo}>
              {dialog.kind === "new" ? (
                <VendorPackageForm cancelTo={closeTo} />
              ) : !pkg ? (
                notFound
              ) : dialog.kind === "edit" ? (
                <VendorPackageForm pkg={pkg} cancelTo={closeTo} />
              ) : (
                <ConfirmDelete
                  id={pkg.id}
                  intent="delete-package"
                  question={`Are you sure you want to delete the package "${pkg.packageName}"? This action cannot be undone.`}
                  cancelTo={closeTo}
                />
              )}
            </DialogRoute>
          )}
        </>
      )}
    </Stack>
  );
}
