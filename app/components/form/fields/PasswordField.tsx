import { PasswordInput } from "#mantine/components/PasswordInput/PasswordInput";
import { useField } from "remix-validated-form";
import { VALIDATION, type FieldBase } from "./field-base";

export function PasswordField(props: FieldBase) {
  const { error, getInputProps } = useField(props.name, VALIDATION);
  return <PasswordInput {...getInputProps({ id: props.name, ...props })} error={error} />;
}
