import { Button, Group, Stack, Text } from "@mantine/core";
import { Form, Link, useNavigation } from "@remix-run/react";

/**
 * The confirmation step before a delete is posted (`?delete=<id>`): its own URL, so it works
 * without JavaScript; the form posts `intent=delete` with the id back to the list.
 */
export function ConfirmDelete({
  id,
  question,
  cancelTo,
  confirmLabel = "Delete",
}: {
  id: string;
  question: string;
  cancelTo: string;
  confirmLabel?: string;
}) {
  const navigation = useNavigation();
  const deleting = navigation.state === "submitting" && navigation.formData?.get("intent") === "delete";
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value="delete" />
      <input type="hidden" name="id" value={id} />
      <Stack>
        <Text>{question}</Text>
        <Group justify="flex-end">
          <Button component={Link} to={cancelTo} preventScrollReset variant="default">
            Cancel
          </Button>
          <Button type="submit" color="red" loading={deleting}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Form>
  );
}
