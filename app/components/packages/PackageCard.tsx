import { Badge } from "#mantine/components/Badge/Badge";
import { Card } from "#mantine/components/Card/Card";
import { Group } from "#mantine/components/Group/Group";
import { List } from "#mantine/components/List/List";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { ThemeIcon } from "#mantine/components/ThemeIcon/ThemeIcon";
import type { PackageJson } from "~/services/packages.server";
import { CheckIcon } from "../crud/icons";
import { ItemActions } from "../crud/ItemActions";
import { packageStyle } from "./package-style";
import { useFormat, useT } from "~/utils/i18n";

/** Features shown on a card; the rest are counted. */
export const FEATURES_ON_CARD = 4;

export function PackageCard({ pkg, editTo, deleteTo }: { pkg: PackageJson; editTo: string; deleteTo: string }) {
  const t = useT();
  const fmt = useFormat();
  const { color, Icon, tier } = packageStyle(pkg.name);
  const more = pkg.features.length - FEATURES_ON_CARD;
  return (
    <Card withBorder padding="lg" role="listitem" aria-label={pkg.name} data-testid="package-card" data-tier={tier}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Group wrap="nowrap" gap="sm" style={{ minWidth: 0 }}>
          <ThemeIcon variant="light" color={color} size={42} radius="md" data-testid="package-icon">
            <Icon size={22} />
          </ThemeIcon>
          <div style={{ minWidth: 0 }}>
            <Text fw={600} style={{ overflowWrap: "anywhere" }}>
              {pkg.name}
            </Text>
            <Badge color={pkg.isActive ? "green" : "gray"} variant="light" size="sm">
              {pkg.isActive ? t("Active") : t("Inactive")}
            </Badge>
          </div>
        </Group>
        <ItemActions name={pkg.name} editTo={editTo} deleteTo={deleteTo} />
      </Group>

      <Text fz={28} fw={700} c={color} mt="md" data-testid="package-price">
        {fmt.wholeUsd(pkg.price)}
      </Text>
      {pkg.description && (
        <Text size="sm" c="dimmed" mt={4} style={{ overflowWrap: "anywhere" }}>
          {pkg.description}
        </Text>
      )}

      {pkg.features.length > 0 && (
        <Stack gap={4} mt="md">
          <List
            size="sm"
            spacing={4}
            icon={
              <ThemeIcon color={color} variant="light" size={18} radius="xl">
                <CheckIcon size={12} />
              </ThemeIcon>
            }
          >
            {pkg.features.slice(0, FEATURES_ON_CARD).map((feature, i) => (
              <List.Item key={i}>{feature}</List.Item>
            ))}
          </List>
          {more > 0 && (
            <Text size="xs" c="dimmed">
              +{more} {t("more features")}
            </Text>
          )}
        </Stack>
      )}

      {/* Cards in a row share a height (Card is a flex column): the footer sits at the bottom. */}
      <Group justify="space-between" mt="auto" pt="md" gap="xs">
        <Text size="xs" c="dimmed">
          {t("Created")} {fmt.date(pkg.createdAt)}
        </Text>
        {pkg.owner && (
          <Badge variant="light" color="gray" size="sm">
            {t("Owner:")} {pkg.owner.name ?? t("Deleted account")}
          </Badge>
        )}
      </Group>
    </Card>
  );
}
