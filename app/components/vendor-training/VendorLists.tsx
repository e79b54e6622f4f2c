import { Badge } from "#mantine/components/Badge/Badge";
import { Card } from "#mantine/components/Card/Card";
import { Group } from "#mantine/components/Group/Group";
import { SimpleGrid } from "#mantine/components/SimpleGrid/SimpleGrid";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import type { LearningRecordJson, PricingRuleJson, VendorPackageJson } from "~/services/vendors.server";
import { ItemActions } from "../crud/ItemActions";
import { ItemPostButton } from "../crud/PostButtons";
import { humanize, SEVERITY_COLOR } from "../training/labels";
import { useFormat, useT } from "~/utils/i18n";

const modifierText = (map: Record<string, number>) =>
  Object.entries(map)
    .map(([k, v]) => `${k} ×${v}`)
    .join(", ");

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600}>
        {value}
      </Text>
    </div>
  );
}

/** A rule's card; edit and delete only for those who may change the vendor's pricing. */
export function RuleCard({ rule, editTo, deleteTo }: { rule: PricingRuleJson; editTo?: string; deleteTo?: string }) {
  const t = useT();
  const fmt = useFormat();
  const title = `${humanize(rule.damageType)} (${rule.severity})`;
  const modifiers = [
    ["Make", modifierText(rule.vehicleMakeModifier)],
    ["Location", modifierText(rule.locationModifier)],
    ["Month", modifierText(rule.seasonalModifier)],
  ].filter(([, text]) => text);
  const lineDefaults = [
    rule.partPrice != null && `Part ${fmt.usd(rule.partPrice)}`,
    rule.refinishHours != null && `Refinish ${rule.refinishHours} h${rule.refinishRate != null ? ` at ${fmt.usd(rule.refinishRate)}/h` : ""}`,
    rule.refinishHours == null && rule.refinishRate != null && `Refinish rate ${fmt.usd(rule.refinishRate)}/h`,
    rule.materialsRate != null && `Paint materials ${fmt.usd(rule.materialsRate)}/refinish h`,
  ].filter((text): text is string => typeof text === "string");
  return (
    <Card withBorder padding="md" role="listitem" aria-label={title} data-testid="pricing-rule">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Group gap={6}>
          <Text fw={600}>{t(humanize(rule.damageType))}</Text>
          <Badge color={SEVERITY_COLOR[rule.severity] ?? "gray"}>{t(humanize(rule.severity))}</Badge>
          <Badge color={rule.isActive ? "green" : "gray"} variant="light">
            {rule.isActive ? t("Active") : t("Inactive")}
          </Badge>
        </Group>
        {editTo && deleteTo && <ItemActions name={title} editTo={editTo} deleteTo={deleteTo} />}
      </Group>
      <SimpleGrid cols={{ base: 2, xs: 4 }} mt="sm">
        <Figure label={t("Base price")} value={fmt.usd(rule.basePrice)} />
        <Figure label={t("Labor rate")} value={`${fmt.usd(rule.laborRate)}/h`} />
        <Figure label={t("Markup")} value={`${rule.markupPercentage}%`} />
        <Figure label={t("Minimum")} value={fmt.usd(rule.minimumCharge)} />
      </SimpleGrid>
      {lineDefaults.length > 0 && (
        <Text size="xs" c="dimmed" mt={4} data-testid="rule-line-defaults">
          {lineDefaults.join(" · ")}
        </Text>
      )}
      {modifiers.map(([label, text]) => (
        <Text key={label} size="xs" c="dimmed" mt={4} style={{ overflowWrap: "anywhere" }}>
          {label}: {text}
        </Text>
      ))}
      {rule.notes && (
        <Text size="sm" mt="xs" style={{ overflowWrap: "anywhere" }}>
          {rule.notes}
        </Text>
      )}
    </Card>
  );
}

export function VendorPackageCard({ pkg, editTo, deleteTo }: { pkg: VendorPackageJson; editTo: string; deleteTo: string }) {
  const t = useT();
  const fmt = useFormat();
  return (
    <Card withBorder padding="md" role="listitem" aria-label={pkg.packageName} data-testid="vendor-package">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text fw={600} truncate>
            {pkg.packageName}
          </Text>
          <Group gap={6}>
            <Badge variant="outline">{t(humanize(pkg.pricingModel))}</Badge>
            <Badge color={pkg.isActive ? "green" : "gray"} variant="light">
              {pkg.isActive ? t("Active") : t("Inactive")}
            </Badge>
          </Group>
        </Stack>
        <ItemActions name={pkg.packageName} editTo={editTo} deleteTo={deleteTo} />
      </Group>
      {pkg.description && (
        <Text size="sm" c="dimmed" mt="xs" style={{ overflowWrap: "anywhere" }}>
          {pkg.description}
        </Text>
      )}
      <Text size="xs" mt="xs">
        {t("Services:")} {pkg.serviceTypes.join(", ")}
      </Text>
      <SimpleGrid cols={{ base: 2, xs: 4 }} mt="sm">
        {pkg.basePrice !== undefined && <Figure label={t("Base price")} value={fmt.usd(pkg.basePrice)} />}
        {pkg.hourlyRate !== undefined && <Figure label={t("Hourly rate")} value={`${fmt.usd(pkg.hourlyRate)}/h`} />}
        <Figure label={t("Warranty")} value={`${pkg.warrantyMonths} months`} />
        <Figure label={t("Turnaround")} value={`${pkg.turnaroundDays} days`} />
        <Figure label={t("AI weight")} value={pkg.aiWeighting.toFixed(2)} />
        {pkg.includesPickupDelivery && <Figure label={t("Pickup & delivery")} value="Included" />}
      </SimpleGrid>
    </Card>
  );
}

export function LearningRecordCard({ record, canValidate }: { record: LearningRecordJson; canValidate: boolean }) {
  const t = useT();
  const fmt = useFormat();
  const title = `${humanize(record.damageType)} (${record.severity})`;
  return (
    <Card withBorder padding="md" role="listitem" aria-label={`${title}: ${fmt.usd(record.originalEstimate)} → ${fmt.usd(record.finalCost)}`} data-testid="learning-record">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Group gap={6}>
          <Text fw={600}>{t(humanize(record.damageType))}</Text>
          <Badge color={SEVERITY_COLOR[record.severity] ?? "gray"}>{t(humanize(record.severity))}</Badge>
          <Badge color={record.isValidated ? "green" : "yellow"} variant="light" data-testid="learning-status">
            {record.isValidated ? t("Validated") : t("Pending")}
          </Badge>
        </Group>
        {canValidate && !record.isValidated && <ItemPostButton intent="validate" id={record.id} label={t("Validate")} />}
      </Group>
      <SimpleGrid cols={{ base: 2, xs: 4 }} mt="sm">
        <Figure label={t("Original estimate")} value={fmt.usd(record.originalEstimate)} />
        <Figure label={t("Final cost")} value={fmt.usd(record.finalCost)} />
        <Figure label={t("Adjustment")} value={fmt.usd(record.adminAdjustment)} />
        <Figure label={t("Weight")} value={record.learningWeight.toFixed(2)} />
      </SimpleGrid>
      {(record.adjustmentReason || record.vehicleMake) && (
        <Text size="xs" c="dimmed" mt="xs" style={{ overflowWrap: "anywhere" }}>
          {[record.vehicleMake, record.adjustmentReason].filter(Boolean).join(" · ")}
        </Text>
      )}
    </Card>
  );
}
