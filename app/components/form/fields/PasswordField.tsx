import { PasswordInput } from "#mantine/components/PasswordInput/PasswordInput";
import { useField } from "remix-validated-form";
import { useT } from "~/utils/i18n";
import { VALIDATION, type FieldBase } from "./field-base";

export function PasswordField(props: FieldBase) {
  const { error, getInputProps } = useField(props.name, VALIDATION);
  // The schemas' messages are English keys (the spec's words), shown in the page's language.
  const t = useT();
  return <PasswordInput {...getInputProps({ id: props.name, ...props })} error={error && t(error)} />;
}
