import { Alert } from "#mantine/components/Alert/Alert";
import { List } from "#mantine/components/List/List";
import { Text } from "#mantine/components/Text/Text";
import { useActionData } from "@remix-run/react";
import type { EstimateConflict as Conflict } from "~/schemas/estimate";
import { useFormat, useT } from "~/utils/i18n";

interface Refused {
  conflict: Conflict;
  /** The form as it was posted (remix-validated-form's repopulateFields: text as typed). */
  repopulateFields: { damages?: FormRow[]; lines?: FormRow[] };
}
type FormRow = Record<string, string>;

const refusedOf = (data: unknown): Refused | null => (typeof data === "object" && data !== null && "conflict" in data ? (data as Refused) : null);
const conflictOf = (data: unknown) => refusedOf(data)?.conflict ?? null;

/** A form row as posted, with every field the form renders (a field left out is blank). */
const row = <T extends Record<string, string>>(blank: T) => (posted: FormRow): T =>
  Object.fromEntries(Object.keys(blank).map((key) => [key, posted[key] ?? blank[key]])) as T;

/**
 * After a refused stale save: the damage rows and lines as they were posted (each with the line it
 * was typed against), for the form to render instead of the estimate's; null otherwise.
 */
export function useKeptRows<D extends Record<string, string>, L extends Record<string, string>>(blankDamage: D, blankLine: L) {
  const refused = refusedOf(useActionData());
  if (!refused) return null;
  const { damages = [], lines } = refused.repopulateFields;
  return {
    damages: damages.map(row(blankDamage)),
    ...(lines ? { lines: lines.map(row(blankLine)) } : {}),
  };
}

/**
 * Edit Estimate's answer when someone else saved the estimate after this form was opened: nothing
 * was saved, what they changed (their audit entries) and the total now; the form below keeps what
 * was typed and now carries the current version.
 */
export function EstimateConflictAlert() {
  const t = useT();
  const fmt = useFormat();
  const conflict = conflictOf(useActionData());
  if (!conflict) return null;
  return (
    <Alert color="orange" variant="light" role="alert" title={t("This estimate changed since you opened it: nothing was saved")} data-testid="estimate-conflict">
      <Text size="sm">{t("Changed meanwhile:")}</Text>
      <List size="sm" spacing={4} mb="xs">
        {conflict.entries.map((entry, i) => (
          <List.Item key={i}>
            {fmt.when(entry.at)} · {entry.byName} · {entry.action}
            {entry.note ? ` (${entry.note})` : ""}
            {entry.changes.length > 0 && (
              <List size="sm" withPadding>
                {entry.changes.map((change, j) => (
                  <List.Item key={j}>{change}</List.Item>
                ))}
              </List>
            )}
          </List.Item>
        ))}
      </List>
      <Text size="sm">
        {t("Total now:")} {fmt.dollars(conflict.estimatedCost)}
      </Text>
      <Text size="sm">
        {t("What you typed is kept below. Check it against these changes, then save again to replace them with what you see here, or cancel to see the estimate as it is now.")}
      </Text>
    </Alert>
  );
}
