import { Button } from "#mantine/components/Button/Button";
import type { ButtonProps } from "@mantine/core";
import { useIsSubmitting } from "remix-validated-form";
import type { ReactNode } from "react";

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
