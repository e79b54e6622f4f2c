import { Card } from "#mantine/components/Card/Card";
import { Group } from "#mantine/components/Group/Group";
import { Text } from "#mantine/components/Text/Text";
import { ThemeIcon } from "#mantine/components/ThemeIcon/ThemeIcon";
import type { ReactNode } from "react";
import { useT } from "~/utils/i18n";

/** One summary figure above a list (e.g. "Total Contacts 12"). */
export function StatCard({
  label,
  value,
  icon,
  color = "indigo",
}: {
  label: string;
  value: ReactNode;
  icon: ReactNode;
  color?: string;
}) {
  const t = useT();
  return (
    // Compact on phones (two to a row, no icon): four figures must not push the list a screen down.
    <Card withBorder padding="md" p={{ base: "xs", sm: "md" }} role="group" aria-label={label}>
      <Group justify="space-between" wrap="nowrap">
        <div style={{ minWidth: 0 }}>
          <Text size="sm" fz={{ base: "xs", sm: "sm" }} c="dimmed">
            {t(label)}
          </Text>
          <Text fz={{ base: 20, sm: 26 }} fw={700} data-testid="stat-value" style={{ overflowWrap: "anywhere" }}>
            {value}
          </Text>
        </div>
        <ThemeIcon variant="light" color={color} size={44} radius="md" visibleFrom="sm">
          {icon}
        </ThemeIcon>
      </Group>
    </Card>
  );
}
