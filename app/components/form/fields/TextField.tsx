import { TextInput } from "#mantine/components/TextInput/TextInput";
import { useField } from "remix-validated-form";
import { useT } from "~/utils/i18n";
import { focusIfInvalid, VALIDATION, type FieldBase } from "./field-base";
import { useResumedValue } from "./resumed";

/** Text input bound to the surrounding ValidatedForm (client and server messages). */
export function TextField({ type = "text", ...props }: FieldBase & { type?: string; step?: string }) {
  const { error, getInputProps } = useField(props.name, VALIDATION);
  // The schemas' messages are English keys (the spec's words), shown in the page's language.
  const t = useT();
  const resumed = useResumedValue(props.name);
  return <TextInput {...getInputProps({ id: props.name, type, ...props })} {...(resumed === undefined ? {} : { defaultValue: resumed })} error={error && t(error)} {...focusIfInvalid(error)} />;
}
