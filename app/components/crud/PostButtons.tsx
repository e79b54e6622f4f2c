import { Button } from "#mantine/components/Button/Button";
import { Form, useNavigation, useSubmit } from "@remix-run/react";
import type { ReactNode } from "react";
import { CheckIcon } from "./icons";

/**
 * One action on one item as a plain form post (`intent`, `id`) to the screen's action, so it works
 * without JavaScript; with it, the button shows the post in progress.
 */
export function ItemPostButton({ intent, id, label }: { intent: string; id: string; label: string }) {
  const navigation = useNavigation();
  const busy = navigation.formData?.get("intent") === intent && navigation.formData?.get("id") === id;
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <Button type="submit" size="xs" variant="light" color="green" leftSection={<CheckIcon size={14} />} loading={busy}>
        {label}
      </Button>
    </Form>
  );
}

/**
 * A GET form of choices kept in the URL (filters, a selector): applied as soon as one changes with
 * JavaScript, with the submit button (`submitLabel`) without it.
 */
export function UrlChoicesForm({ children, submitLabel }: { children: ReactNode; submitLabel: string }) {
  const submit = useSubmit();
  return (
    <Form method="get" preventScrollReset onChange={(e) => submit(e.currentTarget, { preventScrollReset: true })}>
      <div style={{ display: "flex", flexWrap: "wrap", gap: "var(--mantine-spacing-md)", alignItems: "flex-end" }}>
        {children}
        <noscript>
          <Button type="submit" variant="default">
            {submitLabel}
          </Button>
        </noscript>
      </div>
    </Form>
  );
}
