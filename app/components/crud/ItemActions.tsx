import { ActionIcon, Group } from "@mantine/core";
import { Link } from "@remix-run/react";
import { PencilIcon, TrashIcon } from "./icons";

/** A card's edit and delete buttons: links to `?edit=<id>` / `?delete=<id>` (dialogs by URL). */
export function ItemActions({ name, editTo, deleteTo }: { name: string; editTo: string; deleteTo: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      <ActionIcon
        component={Link}
        to={editTo}
        preventScrollReset
        variant="subtle"
        aria-label={`Edit ${name}`}
        title="Edit"
      >
        <PencilIcon size={16} />
      </ActionIcon>
      <ActionIcon
        component={Link}
        to={deleteTo}
        preventScrollReset
        variant="subtle"
        color="red"
        aria-label={`Delete ${name}`}
        title="Delete"
      >
        <TrashIcon size={16} />
      </ActionIcon>
    </Group>
  );
}
