import { Alert } from "#mantine/components/Alert/Alert";
import { Button } from "#mantine/components/Button/Button";
import { Group } from "#mantine/components/Group/Group";
import { Form, Link } from "@remix-run/react";
import { useT } from "~/utils/i18n";

/**
 * Files uploaded earlier (an abandoned wizard run, or the dashboard's Upload Media) and not yet
 * taken by an assessment: shown as a draft, to carry on with or to throw away — never silently
 * added to the next run.
 */
export function DraftNotice({ count }: { count: number }) {
  const t = useT();
  return (
    <Alert color="yellow" variant="light" title={t("Draft")} data-testid="upload-draft">
      {count} {t("file(s) uploaded earlier are waiting for an assessment.")}
      <Group mt="sm" gap="xs">
        <Button component={Link} to="/upload?step=details" size="xs">
          {t("Continue where you left off")}
        </Button>
        <Form method="post" action="/upload">
          <Button type="submit" name="intent" value="discard" size="xs" variant="default">
            {t("Start over")}
          </Button>
        </Form>
      </Group>
    </Alert>
  );
}
