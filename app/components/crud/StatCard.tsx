import { Card } from "#mantine/components/Card/Card";
import { Group } from "#mantine/components/Group/Group";
import { Text } from "#mantine/components/Text/Text";
import { ThemeIcon } from "#mantine/components/ThemeIcon/ThemeIcon";
import type { ReactNode } from "react";

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
  return (
    <Card withBorder padding="md" role="group" aria-label={label}>
      <Group justify="space-between" wrap="nowrap">
        <div>
          <Text size="sm" c="dimmed">
            {label}
          </Text>
          <Text fz={26} fw={700} data-testid="stat-value">
            {value}
          </Text>
        </div>
        <ThemeIcon variant="light" color={color} size={44} radius="md">
          {icon}
        </ThemeIcon>
      </Group>
    </Card>
  );
}
