import { NativeSelect } from "~/components/form/NativeSelect";
import { useField } from "remix-validated-form";
import { useT } from "~/utils/i18n";
import { focusIfInvalid, VALIDATION, type FieldBase } from "./field-base";
import { useResumedValue } from "./resumed";

/** A native <select>: it works with JavaScript off, unlike a combobox. */
export function SelectField(props: FieldBase & { data: { value: string; label: string }[] }) {
  const { error, getInputProps } = useField(props.name, VALIDATION);
  // The schemas' messages are English keys (the spec's words), shown in the page's language.
  const t = useT();
  const resumed = useResumedValue(props.name);
  return <NativeSelect {...getInputProps({ id: props.name, ...props })} {...(resumed === undefined ? {} : { defaultValue: resumed })} error={error && t(error)} {...focusIfInvalid(error)} />;
}
