import { Button } from "#mantine/components/Button/Button";
import { Group } from "#mantine/components/Group/Group";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useT } from "~/utils/i18n";

/**
 * The confirmation step before a delete is posted (`?delete=<id>`): its own URL, so it works
 * without JavaScript; the form posts `intent=delete` with the id back to the list.
 */
export function ConfirmDelete({
  id,
  question,
  cancelTo,
  confirmLabel = "Delete",
  intent = "delete",
}: {
  id: string;
  question: string;
  cancelTo: string;
  confirmLabel?: string;
  /** The action's name for it, where a screen deletes more than one kind of thing. */
  intent?: string;
}) {
  const navigation = useNavigation();
  const t = useT();
  const deleting = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <Stack>
        <Text>{t(question)}</Text>
        <Group justify="flex-end">
          <Button component={Link} to={cancelTo} preventScrollReset variant="default">
            {t("Cancel")}
          </Button>
          <Button type="submit" color="red" loading={deleting}>
            {t(confirmLabel)}
          </Button>
        </Group>
      </Stack>
    </Form>
  );
}
