import { Anchor, Avatar, Badge, Card, Group, Stack, Text } from "@mantine/core";
import type { ContactJson } from "~/services/contacts.server";
import { initials } from "../AppShellLayout";
import { formatDate, truncate } from "../crud/format";
import { MailIcon, MapPinIcon, PhoneIcon } from "../crud/icons";
import { ItemActions } from "../crud/ItemActions";

export const NOTES_PREVIEW_LENGTH = 100;

/** `tel:` wants digits (and a leading +), not the spaces and brackets people type. */
const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, "")}`;

export function ContactCard({ contact, editTo, deleteTo }: { contact: ContactJson; editTo: string; deleteTo: string }) {
  const name = `${contact.firstName} ${contact.lastName}`;
  return (
    <Card withBorder padding="lg" role="listitem" aria-label={name} data-testid="contact-card">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Group wrap="nowrap" gap="sm" style={{ minWidth: 0 }}>
          <Avatar color="indigo" radius="xl" aria-hidden="true">
            {initials(contact.firstName, contact.lastName)}
          </Avatar>
          <div style={{ minWidth: 0 }}>
            <Text fw={600} truncate>
              {name}
            </Text>
            {contact.companyName && (
              <Text size="sm" c="dimmed" truncate>
                {contact.companyName}
              </Text>
            )}
          </div>
        </Group>
        <ItemActions name={name} editTo={editTo} deleteTo={deleteTo} />
      </Group>

      <Stack gap={6} mt="md">
        <Group gap={6} wrap="nowrap">
          <MailIcon size={14} />
          <Anchor href={`mailto:${contact.email}`} size="sm" truncate>
            {contact.email}
          </Anchor>
        </Group>
        {contact.phone && (
          <Group gap={6} wrap="nowrap">
            <PhoneIcon size={14} />
            <Anchor href={telHref(contact.phone)} size="sm">
              {contact.phone}
            </Anchor>
          </Group>
        )}
        {contact.address && (
          <Group gap={6} wrap="nowrap" align="flex-start">
            <MapPinIcon size={14} style={{ flexShrink: 0, marginTop: 3 }} />
            <Text size="sm">{contact.address}</Text>
          </Group>
        )}
        {contact.notes && (
          <Text size="sm" c="dimmed" data-testid="contact-notes" style={{ overflowWrap: "anywhere" }}>
            {truncate(contact.notes, NOTES_PREVIEW_LENGTH)}
          </Text>
        )}
      </Stack>

      {/* Cards in a row share a height (Card is a flex column): the footer sits at the bottom. */}
      <Group justify="space-between" mt="auto" pt="md" gap="xs">
        <Text size="xs" c="dimmed">
          Added {formatDate(contact.createdAt)}
        </Text>
        {contact.owner && (
          <Badge variant="light" color="gray" size="sm">
            Owner: {contact.owner.name}
          </Badge>
        )}
      </Group>
    </Card>
  );
}
