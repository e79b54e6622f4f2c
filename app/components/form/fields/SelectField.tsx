import { NativeSelect } from "~/components/form/NativeSelect";
import { useField } from "remix-validated-form";
import { VALIDATION, type FieldBase } from "./field-base";

/** A native <select>: it works with JavaScript off, unlike a combobox. */
export function SelectField(props: FieldBase & { data: { value: string; label: string }[] }) {
  const { error, getInputProps } = useField(props.name, VALIDATION);
  return <NativeSelect {...getInputProps({ id: props.name, ...props })} error={error} />;
}
