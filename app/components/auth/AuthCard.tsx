import { Badge } from "#mantine/components/Badge/Badge";
import { Card } from "#mantine/components/Card/Card";
import { Center } from "#mantine/components/Center/Center";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import type { ReactNode } from "react";
import { FlashToast } from "../FlashToast";
import { useT } from "~/utils/i18n";
import classes from "./AuthCard.module.css";

/** The centred card of the public screens (set-up and logins). */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  const t = useT();
  return (
    <Center component="main" mih="100vh" p="md" className={classes.page}>
      <Stack w="100%" maw={440}>
        <FlashToast />
        <Card withBorder shadow="md" p="xl" radius="lg">
          <Stack gap={4} mb="lg" align="center">
            <Badge variant="light">{t("DamageIQ · AI Damage Assessment")}</Badge>
            <Title order={1} size="h2" ta="center">
              {title}
            </Title>
            {subtitle && (
              <Text c="dimmed" size="sm" ta="center">
                {subtitle}
              </Text>
            )}
          </Stack>
          {children}
        </Card>
      </Stack>
    </Center>
  );
}
