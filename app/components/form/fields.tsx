import { Alert, Button, Checkbox, NativeSelect, PasswordInput, Textarea, TextInput, type ButtonProps } from "@mantine/core";
import { useField, useIsSubmitting } from "remix-validated-form";
import type { ReactNode } from "react";

/**
 * Fields are checked when the form is submitted, then on every change. Not on blur before that: a
 * message appearing under the field just left moves the submit button away from the click that
 * caused the blur, and the click is lost (the user presses Submit and nothing happens).
 */
const VALIDATION = { validationBehavior: { initial: "onSubmit", whenTouched: "onSubmit", whenSubmitted: "onChange" } } as const;

interface FieldBase {
  name: string;
  label: string;
  description?: string;
  required?: boolean;
  placeholder?: string;
  autoComplete?: string;
}

/** Text input bound to the surrounding ValidatedForm (client and server messages). */
export function TextField({ type = "text", ...props }: FieldBase & { type?: string; step?: string }) {
  const { error, getInputProps } = useField(props.name, VALIDATION);
  return <TextInput {...getInputProps({ id: props.name, type, ...props })} error={error} />;
}

export function PasswordField(props: FieldBase) {
  const { error, getInputProps } = useField(props.name, VALIDATION);
  return <PasswordInput {...getInputProps({ id: props.name, ...props })} error={error} />;
}

export function TextareaField(props: FieldBase & { minRows?: number; autosize?: boolean }) {
  const { error, getInputProps } = useField(props.name, VALIDATION);
  return <Textarea {...getInputProps({ id: props.name, ...props })} error={error} />;
}

/** A native <select>: it works with JavaScript off, unlike a combobox. */
export function SelectField(props: FieldBase & { data: { value: string; label: string }[] }) {
  const { error, getInputProps } = useField(props.name, VALIDATION);
  return <NativeSelect {...getInputProps({ id: props.name, ...props })} error={error} />;
}

/** A checkbox posting "on" when checked and nothing when not (plain HTML), checked from the form's defaults. */
export function CheckboxField({ name, label }: { name: string; label: string }) {
  const { defaultValue } = useField(name, VALIDATION);
  const checked = defaultValue === true || defaultValue === "on" || defaultValue === "true";
  return <Checkbox name={name} value="on" defaultChecked={checked} label={label} />;
}

export function SubmitButton({
  children,
  pendingLabel,
  formId,
  ...props
}: ButtonProps & { children: ReactNode; pendingLabel?: string; formId?: string; name?: string; value?: string }) {
  const submitting = useIsSubmitting(formId);
  return (
    <Button type="submit" loading={submitting && !pendingLabel} {...props}>
      {submitting && pendingLabel ? pendingLabel : children}
    </Button>
  );
}

/** A form-level failure (e.g. "Invalid credentials") shown inline; works without JavaScript. */
export function FormError({ title, message }: { title?: string; message?: string | null }) {
  if (!message) return null;
  return (
    <Alert color="red" title={title} role="alert" mb="sm">
      {message}
    </Alert>
  );
}
