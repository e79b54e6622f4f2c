import { Checkbox } from "#mantine/components/Checkbox/Checkbox";
import { useField } from "remix-validated-form";
import { VALIDATION } from "./field-base";

/** A checkbox posting "on" when checked and nothing when not (plain HTML), checked from the form's defaults. */
export function CheckboxField({ name, label }: { name: string; label: string }) {
  const { defaultValue } = useField(name, VALIDATION);
  const checked = defaultValue === true || defaultValue === "on" || defaultValue === "true";
  return <Checkbox name={name} value="on" defaultChecked={checked} label={label} />;
}
