import { TextInput } from "#mantine/components/TextInput/TextInput";
import { useField } from "remix-validated-form";
import { VALIDATION, type FieldBase } from "./field-base";

/** Text input bound to the surrounding ValidatedForm (client and server messages). */
export function TextField({ type = "text", ...props }: FieldBase & { type?: string; step?: string }) {
  const { error, getInputProps } = useField(props.name, VALIDATION);
  return <TextInput {...getInputProps({ id: props.name, type, ...props })} error={error} />;
}
