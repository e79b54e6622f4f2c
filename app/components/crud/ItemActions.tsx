import { ActionIcon, Group, Tooltip } from "@mantine/core";
import { Link } from "@remix-run/react";
import { PencilIcon, TrashIcon } from "./icons";

/** A card's edit and delete buttons: links to `?edit=<id>` / `?delete=<id>` (dialogs by URL). */
export function ItemActions({ name, editTo, deleteTo }: { name: string; editTo: string; deleteTo: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Tooltip label="Edit" withinPortal={false}>
        <ActionIcon component={Link} to={editTo} preventScrollReset variant="subtle" aria-label={`Edit ${name}`}>
          <PencilIcon size={16} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Delete" withinPortal={false}>
        <ActionIcon
          component={Link}
          to={deleteTo}
          preventScrollReset
          variant="subtle"
          color="red"
          aria-label={`Delete ${name}`}
        >
          <TrashIcon size={16} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
