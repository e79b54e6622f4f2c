import { Button } from "#mantine/components/Button/Button";
import { Group } from "#mantine/components/Group/Group";
import { Text } from "#mantine/components/Text/Text";
import { Link } from "@remix-run/react";
import { useT } from "~/utils/i18n";

/**
 * "Newer" / "Older" under a list paged by cursor (docs/decisions/0036): plain links, so paging works
 * without JavaScript, each a page from where this one stops, so a record created meanwhile moves nothing.
 */
export function CursorLinks({
  shown,
  matched,
  noun,
  newer,
  older,
  hrefFor,
}: {
  shown: number;
  matched: number;
  noun: string;
  newer: string | null;
  older: string | null;
  hrefFor: (cursor: string) => string;
}) {
  const t = useT();
  if (!newer && !older) return null;
  const link = (cursor: string | null, label: string, rel: string) =>
    cursor ? (
      <Button component={Link} to={hrefFor(cursor)} variant="default" size="xs" rel={rel}>
        {t(label)}
      </Button>
    ) : (
      <Button variant="default" size="xs" disabled>
        {t(label)}
      </Button>
    );
  return (
    <Group justify="space-between" mt="lg" component="nav" aria-label="Pages">
      <Text size="sm" c="dimmed">
        {t("Showing")} {shown} {t("of")} {matched} {noun}
      </Text>
      <Group gap="xs">
        {link(newer, "Newer", "prev")}
        {link(older, "Older", "next")}
      </Group>
    </Group>
  );
}
