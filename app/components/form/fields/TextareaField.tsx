import { Textarea } from "#mantine/components/Textarea/Textarea";
import { useField } from "remix-validated-form";
import { useT } from "~/utils/i18n";
import { focusIfInvalid, VALIDATION, type FieldBase } from "./field-base";
import { useResumedValue } from "./resumed";

/**
 * An autosized field is as tall in the server's HTML as after hydration (`rows` = `minRows`): the
 * browser's default two rows grew to `minRows` when the script measured it, moving everything below
 * under a finger or pointer about to press it (the throttled walk's "Create Contact" click landed
 * beside the button).
 */
export function TextareaField(props: FieldBase & { minRows?: number; autosize?: boolean }) {
  const { error, getInputProps } = useField(props.name, VALIDATION);
  // The schemas' messages are English keys (the spec's words), shown in the page's language.
  const t = useT();
  const resumed = useResumedValue(props.name);
  return <Textarea rows={props.autosize ? props.minRows : undefined} {...getInputProps({ id: props.name, ...props })} {...(resumed === undefined ? {} : { defaultValue: resumed })} error={error && t(error)} {...focusIfInvalid(error)} />;
}
