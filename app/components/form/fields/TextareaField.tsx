import { Textarea } from "#mantine/components/Textarea/Textarea";
import { useField } from "remix-validated-form";
import { useT } from "~/utils/i18n";
import { focusIfInvalid, VALIDATION, type FieldBase } from "./field-base";
import { useResumedValue } from "./resumed";

export function TextareaField(props: FieldBase & { minRows?: number; autosize?: boolean }) {
  const { error, getInputProps } = useField(props.name, VALIDATION);
  // The schemas' messages are English keys (the spec's words), shown in the page's language.
  const t = useT();
  const resumed = useResumedValue(props.name);
  return <Textarea {...getInputProps({ id: props.name, ...props })} {...(resumed === undefined ? {} : { defaultValue: resumed })} error={error && t(error)} {...focusIfInvalid(error)} />;
}
