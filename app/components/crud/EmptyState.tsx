import { Card } from "#mantine/components/Card/Card";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { ThemeIcon } from "#mantine/components/ThemeIcon/ThemeIcon";
import { Title } from "#mantine/components/Title/Title";
import type { ReactNode } from "react";

/** What a list shows when it has nothing (or the search found nothing). */
export function EmptyState({
  icon,
  title,
  message,
  action,
}: {
  icon: ReactNode;
  title: string;
  message: string;
  action?: ReactNode;
}) {
  return (
    <Card withBorder padding="xl">
      <Stack align="center" gap="sm" py="lg">
        <ThemeIcon variant="light" color="gray" size={56} radius="xl">
          {icon}
        </ThemeIcon>
        <Title order={2} size="h3">
          {title}
        </Title>
        <Text c="dimmed" ta="center">
          {message}
        </Text>
        {action}
      </Stack>
    </Card>
  );
}
