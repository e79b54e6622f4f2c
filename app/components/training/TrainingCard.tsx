import { Badge, Button, Card, Group, Image, Stack, Text } from "@mantine/core";
import { Form, useNavigation } from "@remix-run/react";
import type { TrainingItemJson } from "~/services/training.server";
import { formatUsd } from "../crud/format";
import { CheckIcon, MapPinIcon } from "../crud/icons";
import { ItemActions } from "../crud/ItemActions";
import { humanize, SEVERITY_COLOR } from "./labels";

/** Verify: a plain form post, so it works without JavaScript; nothing moves an item back. */
function VerifyButton({ id }: { id: string }) {
  const navigation = useNavigation();
  const verifying = navigation.formData?.get("intent") === "verify" && navigation.formData?.get("id") === id;
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value="verify" />
      <input type="hidden" name="id" value={id} />
      <Button type="submit" size="xs" variant="light" color="green" leftSection={<CheckIcon size={14} />} loading={verifying}>
        Verify
      </Button>
    </Form>
  );
}

export function TrainingCard({ item, editTo, deleteTo }: { item: TrainingItemJson; editTo: string; deleteTo: string }) {
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
            {item.isVerified ? "Verified" : "Pending"}
          </Badge>
          <Badge variant="outline">{humanize(item.damageType)}</Badge>
          <Badge color={SEVERITY_COLOR[item.severity] ?? "gray"}>{humanize(item.severity)}</Badge>
        </Group>
        <ItemActions name={title} editTo={editTo} deleteTo={deleteTo} />
      </Group>
      <Text size="sm" mt="xs" style={{ overflowWrap: "anywhere" }}>
        {item.description}
      </Text>
      <Stack gap={2} mt="xs">
        <Text fw={700} data-testid="training-cost">
          {formatUsd(item.estimatedCost)}
        </Text>
        {item.location && (
          <Group gap={4}>
            <MapPinIcon size={14} />
            <Text size="xs" c="dimmed">
              {humanize(item.location)}
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
          <VerifyButton id={item.id} />
        </Group>
      )}
    </Card>
  );
}
