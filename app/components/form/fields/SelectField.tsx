import { NativeSelect } from "~/components/form/NativeSelect";
import { useField } from "remix-validated-form";
import { focusIfInvalid, VALIDATION, type FieldBase } from "./field-base";
import { useResumedValue } from "./resumed";

/** A native <select>: it works with JavaScript off, unlike a combobox. */
export function SelectField(props: FieldBase & { data: { value: string; label: string }[] }) {
  const { error, getInputProps } = useField(props.name, VALIDATION);
  const resumed = useResumedValue(props.name);
  return <NativeSelect {...getInputProps({ id: props.name, ...props })} {...(resumed === undefined ? {} : { defaultValue: resumed })} error={error} {...focusIfInvalid(error)} />;
}
