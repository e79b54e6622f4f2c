import { Button } from "#mantine/components/Button/Button";
import { Group } from "#mantine/components/Group/Group";
import { Link } from "@remix-run/react";
import { useT } from "~/utils/i18n";

/** Tabs as links (`?tab=…`): the chosen tab is in the URL, so switching works without JavaScript. */
export function LinkTabs({
  tabs,
  active,
  hrefFor = (value) => `?tab=${value}`,
  label,
  grow = false,
}: {
  tabs: readonly { value: string; label: string }[];
  active: string;
  hrefFor?: (value: string) => string;
  label?: string;
  grow?: boolean;
}) {
  const tr = useT();
  return (
    <Group role="tablist" aria-label={label} gap="xs" grow={grow}>
      {tabs.map((t) => (
        <Button
          key={t.value}
          component={Link}
          to={hrefFor(t.value)}
          replace
          preventScrollReset
          role="tab"
          aria-selected={t.value === active}
          variant={t.value === active ? "filled" : "light"}
          size="sm"
          // Growing tabs share a narrow card (the login on a phone): slim sides keep whole words.
          px={grow ? 4 : undefined}
        >
          {tr(t.label)}
        </Button>
      ))}
    </Group>
  );
}
