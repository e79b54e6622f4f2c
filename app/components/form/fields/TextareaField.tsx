import { Textarea } from "#mantine/components/Textarea/Textarea";
import { useField } from "remix-validated-form";
import { VALIDATION, type FieldBase } from "./field-base";

export function TextareaField(props: FieldBase & { minRows?: number; autosize?: boolean }) {
  const { error, getInputProps } = useField(props.name, VALIDATION);
  return <Textarea {...getInputProps({ id: props.name, ...props })} error={error} />;
}
