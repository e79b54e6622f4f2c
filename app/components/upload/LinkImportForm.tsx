import { Button } from "#mantine/components/Button/Button";
import { Group } from "#mantine/components/Group/Group";
import { TextInput } from "#mantine/components/TextInput/TextInput";
import { Form, useNavigation } from "@remix-run/react";
import { useT } from "~/utils/i18n";

/**
 * "Add from a link": the server fetches the file the link names and adds it to the wizard's list, with
 * the checks of an upload (decision 0068). A plain form post: works without JavaScript.
 */
export function LinkImportForm() {
  const t = useT();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "link";
  return (
    <Form method="post" data-testid="link-import-form">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          name="url"
          type="url"
          inputMode="url"
          label={t("Add from a link")}
          description={t("The link to a photo or video on the web: the server fetches it.")}
          placeholder="https://"
          required
          maxLength={4000}
          style={{ flex: "1 1 280px" }}
          data-testid="link-import-url"
        />
        <Button type="submit" name="intent" value="link" variant="light" loading={busy} data-testid="link-import-submit">
          {t("Add from a link")}
        </Button>
      </Group>
    </Form>
  );
}
