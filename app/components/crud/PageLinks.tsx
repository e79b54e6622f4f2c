import { Button } from "#mantine/components/Button/Button";
import { Group } from "#mantine/components/Group/Group";
import { Text } from "#mantine/components/Text/Text";
import { Link } from "@remix-run/react";
import { useT } from "~/utils/i18n";

/** Previous / next links under a long list (links, so paging works without JavaScript). */
export function PageLinks({
  page,
  pageCount,
  matched,
  pageSize,
  hrefFor,
  noun,
}: {
  page: number;
  pageCount: number;
  matched: number;
  pageSize: number;
  hrefFor: (page: number) => string;
  noun: string;
}) {
  const t = useT();
  if (pageCount <= 1) return null;
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(page * pageSize, matched);
  return (
    <Group justify="space-between" mt="lg" component="nav" aria-label="Pages">
      <Text size="sm" c="dimmed">
        {t("Showing")} {first}–{last} {t("of")} {matched} {noun}
      </Text>
      <Group gap="xs">
        {page > 1 ? (
          <Button component={Link} to={hrefFor(page - 1)} variant="default" size="xs" rel="prev">
            {t("Previous")}
          </Button>
        ) : (
          <Button variant="default" size="xs" disabled>
            {t("Previous")}
          </Button>
        )}
        <Text size="sm">
          {t("Page")} {page} {t("of")} {pageCount}
        </Text>
        {page < pageCount ? (
          <Button component={Link} to={hrefFor(page + 1)} variant="default" size="xs" rel="next">
            {t("Next")}
          </Button>
        ) : (
          <Button variant="default" size="xs" disabled>
            {t("Next")}
          </Button>
        )}
      </Group>
    </Group>
  );
}
