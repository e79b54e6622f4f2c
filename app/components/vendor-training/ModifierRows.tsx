import { Group } from "#mantine/components/Group/Group";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { TextInput } from "#mantine/components/TextInput/TextInput";
import { useFormContext } from "remix-validated-form";
import type { ModifierKind } from "~/schemas/vendor-pricing";

/** Blank rows offered after the saved ones: works the same with JavaScript off. */
const BLANK_ROWS = 2;

const asList = (v: unknown) => (Array.isArray(v) ? v : v === undefined ? [] : [v]).map((x) => (typeof x === "string" ? x : ""));

/** The rows as posted, when the server refused the form (its values come back as the form's defaults): without JavaScript they would be lost. */
function postedRows(values: Record<string, unknown> | undefined, kind: ModifierKind) {
  if (!values || !(`${kind}Key` in values)) return null;
  const keys = asList(values[`${kind}Key`]);
  const multipliers = asList(values[`${kind}Value`]);
  return keys.flatMap((key, i) => (key.trim() === "" ? [] : [[key, multipliers[i] ?? ""]]));
}

/**
 * One modifier map as key → multiplier rows, posted as `<kind>Key` / `<kind>Value` pairs (blank
 * rows are dropped by the form adapter). Errors of any key are listed under the rows.
 */
export function ModifierRows({
  kind,
  label,
  keyLabel,
  placeholder,
  initial,
  formId,
}: {
  kind: ModifierKind;
  label: string;
  keyLabel: string;
  placeholder: string;
  initial: Record<string, number>;
  formId: string;
}) {
  const { fieldErrors, defaultValues } = useFormContext(formId);
  const errors = Object.entries(fieldErrors)
    .filter(([path]) => path === kind || path.startsWith(`${kind}.`))
    .map(([, message]) => message);
  const rows = [...(postedRows(defaultValues, kind) ?? Object.entries(initial).map(([k, v]) => [k, String(v)])), ...Array.from({ length: BLANK_ROWS }, () => ["", ""])];
  return (
    <Stack gap={4} role="group" aria-label={label}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      {rows.map(([key, value], i) => (
        <Group key={i} gap="xs" wrap="nowrap" grow>
          <TextInput name={`${kind}Key`} defaultValue={key} aria-label={`${keyLabel} ${i + 1}`} placeholder={placeholder} size="xs" />
          <TextInput
            name={`${kind}Value`}
            defaultValue={value}
            aria-label={`${label} multiplier ${i + 1}`}
            placeholder="1.00"
            type="number"
            step="0.01"
            size="xs"
          />
        </Group>
      ))}
      {errors.map((message) => (
        <Text key={message} size="xs" c="red" role="alert">
          {message}
        </Text>
      ))}
    </Stack>
  );
}
