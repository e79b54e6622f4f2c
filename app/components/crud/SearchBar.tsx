import { Button } from "#mantine/components/Button/Button";
import { Group } from "#mantine/components/Group/Group";
import { TextInput } from "#mantine/components/TextInput/TextInput";
import { Form, useSubmit } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { SearchIcon } from "./icons";
import { useT } from "~/utils/i18n";

/**
 * The list search: a GET form (`?q=`), so it works with JavaScript off; with JavaScript it also
 * searches as you type (debounced), replacing the history entry instead of adding one per key.
 */
export function SearchBar({
  q,
  placeholder,
  label,
  keep = {},
}: {
  q: string;
  placeholder: string;
  label: string;
  /** Other list parameters a search keeps (e.g. a status filter), sent as hidden fields. */
  keep?: Record<string, string>;
}) {
  const t = useT();
  const submit = useSubmit();
  const input = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();

  // Back/forward: show the search of the page now displayed, unless the user is typing.
  useEffect(() => {
    if (input.current && document.activeElement !== input.current) input.current.value = q;
  }, [q]);
  useEffect(() => () => clearTimeout(timer.current), []);

  return (
    <Form method="get" role="search" preventScrollReset onSubmit={() => clearTimeout(timer.current)}>
      {Object.entries(keep).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Group gap="xs" wrap="nowrap">
        <TextInput
          ref={input}
          name="q"
          type="search"
          defaultValue={q}
          placeholder={placeholder}
          aria-label={label}
          leftSection={<SearchIcon size={16} />}
          maxLength={100}
          style={{ flex: 1 }}
          onChange={(event) => {
            const form = event.currentTarget.form;
            clearTimeout(timer.current);
            timer.current = setTimeout(() => {
              if (form) submit(form, { replace: true, preventScrollReset: true });
            }, 300);
          }}
        />
        <Button type="submit" variant="default">
          {t("Search")}
        </Button>
      </Group>
    </Form>
  );
}
