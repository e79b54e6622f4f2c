import { Badge } from "#mantine/components/Badge/Badge";
import { Card } from "#mantine/components/Card/Card";
import { Group } from "#mantine/components/Group/Group";
import { Image } from "#mantine/components/Image/Image";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import type { TrainingItemJson } from "~/services/training.server";
import { MapPinIcon } from "../crud/icons";
import { ItemActions } from "../crud/ItemActions";
import { ItemPostButton } from "../crud/PostButtons";
import { humanize, SEVERITY_COLOR } from "./labels";
import { useFormat, useT } from "~/utils/i18n";

export function TrainingCard({ item, editTo, deleteTo }: { item: TrainingItemJson; editTo: string; deleteTo: string }) {
  const t = useT();
  const fmt = useFormat();
  const title = `${humanize(item.damageType)} (${item.severity})`;
  const vehicle = [item.vehicleYear, item.vehicleMake, item.vehicleModel].filter(Boolean).join(" ");
  return (
    <Card withBorder padding="md" role="listitem" aria-label={`${title}: ${item.description}`} data-testid="training-card">
      <Card.Section>
        <Image src={`${item.imageUrl}/thumb`} alt={item.description} h={160} fit="cover" loading="lazy" />
      </Card.Section>
      <Group justify="space-between" mt="sm" wrap="nowrap" align="flex-start">
        <Group gap={6}>
          <Badge color={item.isVerified ? "green" : "yellow"} variant="light" data-testid="training-status">
            {item.isVerified ? t("Verified") : t("Pending")}
          </Badge>
          <Badge variant="outline">{t(humanize(item.damageType))}</Badge>
          <Badge color={SEVERITY_COLOR[item.severity] ?? "gray"}>{t(humanize(item.severity))}</Badge>
        </Group>
        <ItemActions name={title} editTo={editTo} deleteTo={deleteTo} />
      </Group>
      <Text size="sm" mt="xs" style={{ overflowWrap: "anywhere" }}>
        {item.description}
      </Text>
      <Stack gap={2} mt="xs">
        <Text fw={700} data-testid="training-cost">
          {fmt.usd(item.estimatedCost)}
        </Text>
        {item.location && (
          <Group gap={4}>
            <MapPinIcon size={14} />
            <Text size="xs" c="dimmed">
              {t(humanize(item.location))}
            </Text>
          </Group>
        )}
        {vehicle && (
          <Text size="xs" c="dimmed">
            {vehicle}
          </Text>
        )}
      </Stack>
      {!item.isVerified && (
        <Group justify="flex-end" mt="sm">
          <ItemPostButton intent="verify" id={item.id} label={t("Verify")} />
        </Group>
      )}
    </Card>
  );
}
