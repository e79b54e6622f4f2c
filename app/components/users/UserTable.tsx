import { Badge } from "#mantine/components/Badge/Badge";
import { Button } from "#mantine/components/Button/Button";
import { Card } from "#mantine/components/Card/Card";
import { Group } from "#mantine/components/Group/Group";
import { Stack } from "#mantine/components/Stack/Stack";
import { Table } from "~/components/Table";
import { Text } from "#mantine/components/Text/Text";
import { Form, Link } from "@remix-run/react";
import { roleLabel } from "~/schemas/roles";
import { useFormat, useT } from "~/utils/i18n";
import a11y from "../a11y.module.css";

export interface UserRow {
  id: string;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  role: "admin" | "dealer" | "vendor";
  companyName: string | null;
  createdAt: string;
}

/** The display name in the delete confirmation: the username, or lacking one the email. */
export const userDisplayName = (user: Pick<UserRow, "username" | "email">) => user.username || user.email;

/** Long usernames and addresses break anywhere rather than push Created and Delete off the card. */
const WRAP = { overflowWrap: "anywhere" } as const;

/** Users with a delete link that leads to a confirmation (a URL, so it works without JavaScript). */
export function UserTable({
  users,
  canDelete,
  emptyText,
  deleteTo = (user) => `?delete=${user.id}`,
}: {
  users: UserRow[];
  canDelete: (user: UserRow) => boolean;
  emptyText: string;
  /** The confirmation's address; a screen with tabs keeps its tab in it. */
  deleteTo?: (user: UserRow) => string;
}) {
  const t = useT();
  const fmt = useFormat();
  if (users.length === 0) {
    return (
      <Text c="dimmed" ta="center" py="xl">
        {emptyText}
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={520} stackOnPhone>
      <Table striped highlightOnHover verticalSpacing="sm" stackOnPhone>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t("Name")}</Table.Th>
            <Table.Th>{t("Username")}</Table.Th>
            <Table.Th>{t("Role")}</Table.Th>
            <Table.Th>{t("Created")}</Table.Th>
            <Table.Th>
              <span className={a11y.visuallyHidden}>{t("Actions")}</span>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.map((user) => (
            <Table.Tr key={user.id} data-testid={`user-row-${user.username}`}>
              <Table.Td style={WRAP}>
                {user.firstName} {user.lastName}
                <Text size="xs" c="dimmed">
                  {user.email}
                  {user.companyName && ` · ${user.companyName}`}
                </Text>
              </Table.Td>
              <Table.Td style={WRAP} data-label={t("Username")}>
                {user.username}
              </Table.Td>
              <Table.Td data-label={t("Role")}>
                <Badge variant="light" color={user.role === "admin" ? "red" : user.role === "vendor" ? "teal" : "indigo"}>
                  {roleLabel(user.role)}
                </Badge>
              </Table.Td>
              <Table.Td data-label={t("Created")}>{fmt.date(user.createdAt)}</Table.Td>
              <Table.Td>
                {canDelete(user) && (
                  <Button
                    component={Link}
                    to={deleteTo(user)}
                    preventScrollReset
                    size="xs"
                    color="red"
                    variant="light"
                    aria-label={`Delete ${userDisplayName(user)}`}
                  >
                    {t("Delete")}
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The confirmation step before a delete is posted. */
export function DeleteUserConfirm({ user, cancelTo }: { user: UserRow; cancelTo: string }) {
  const t = useT();
  return (
    <Card withBorder shadow="sm" p="lg" mb="md" role="alertdialog" aria-label="Confirm deletion">
      <Stack>
        <Text>
          {t("Are you sure you want to delete user \"{{name}}\"? This action cannot be undone.", { name: userDisplayName(user) })}
        </Text>
        <Group justify="flex-end">
          <Button component={Link} to={cancelTo} variant="default">
            {t("Cancel")}
          </Button>
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="delete-user" />
            <input type="hidden" name="id" value={user.id} />
            <Button type="submit" color="red">
              {t("Delete")}
            </Button>
          </Form>
        </Group>
      </Stack>
    </Card>
  );
}
