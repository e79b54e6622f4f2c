import { Alert } from "#mantine/components/Alert/Alert";
import { Button } from "#mantine/components/Button/Button";
import { Card } from "#mantine/components/Card/Card";
import { Group } from "#mantine/components/Group/Group";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { TextInput } from "#mantine/components/TextInput/TextInput";
import { Title } from "#mantine/components/Title/Title";
import { Form } from "@remix-run/react";
import { MEMBER_ROLES, accountRoleLabel } from "~/schemas/members";
import type { MemberJson } from "~/services/members.server";
import { useT } from "~/utils/i18n";
import { NativeSelect } from "../form/NativeSelect";

/** A member as the service lists them (only the fields this tab shows are read). */
type Member = Pick<MemberJson, "id" | "email" | "role" | "status" | "username" | "firstName" | "lastName">;

/** Settings → Team (issue 44): the owner invites people by email, suspends and removes them; plain forms, JavaScript or not. */
export function TeamTab({ members, invited, formError }: { members: Member[]; invited?: { email: string; inviteUrl: string }; formError?: string }) {
  const t = useT();
  return (
    <Stack>
      <Card withBorder>
        <Form method="post">
          <input type="hidden" name="intent" value="member-invite" />
          <Stack>
            <Title order={2} size="h4">
              {t("Invite a member")}
            </Title>
            {formError && <Alert color="red">{formError}</Alert>}
            {invited && <Alert color="green" style={{ overflowWrap: "anywhere" }}>{t("Invite link (also sent by email): {{url}}", { url: invited.inviteUrl })}</Alert>}
            <Group align="flex-end" wrap="wrap">
              <TextInput name="email" type="email" label={t("Email")} required style={{ flex: "1 1 220px" }} />
              <NativeSelect name="role" label={t("Role")} data={MEMBER_ROLES.map((r) => ({ value: r, label: accountRoleLabel(r) }))} defaultValue="estimator" />
              <Button type="submit">{t("Invite")}</Button>
            </Group>
          </Stack>
        </Form>
      </Card>
      <Card withBorder>
        <Stack>
          <Title order={2} size="h4">
            {t("Team")}
          </Title>
          {members.length === 0 && <Text c="dimmed">{t("No members yet. Invite the people who work in this account.")}</Text>}
          {members.map((m) => (
            <Group key={m.id} justify="space-between" wrap="wrap" data-member={m.email}>
              <Stack gap={0}>
                <Text fw={500}>{[m.firstName, m.lastName].filter(Boolean).join(" ") || m.email}</Text>
                <Text size="sm" c="dimmed">
                  {m.username ? `${m.username} · ` : ""}
                  {m.email} · {t(accountRoleLabel(m.role))} · {t(m.status)}
                </Text>
              </Stack>
              <Group gap="xs">
                {m.status !== "invited" && (
                  <Form method="post">
                    <input type="hidden" name="intent" value={m.status === "suspended" ? "member-reactivate" : "member-suspend"} />
                    <input type="hidden" name="id" value={m.id} />
                    <Button type="submit" variant="light" size="xs">
                      {m.status === "suspended" ? t("Reactivate") : t("Suspend")}
                    </Button>
                  </Form>
                )}
                <Form method="post">
                  <input type="hidden" name="intent" value="member-remove" />
                  <input type="hidden" name="id" value={m.id} />
                  <Button type="submit" variant="light" color="red" size="xs">
                    {t("Remove")}
                  </Button>
                </Form>
              </Group>
            </Group>
          ))}
        </Stack>
      </Card>
    </Stack>
  );
}
