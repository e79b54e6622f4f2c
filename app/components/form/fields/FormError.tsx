import { Alert } from "#mantine/components/Alert/Alert";
import { useT } from "~/utils/i18n";

/** A form-level failure (e.g. "Invalid credentials") shown inline; works without JavaScript. */
export function FormError({ title, message }: { title?: string; message?: string | null }) {
  const t = useT();
  if (!message) return null;
  return (
    <Alert color="red" title={title && t(title)} role="alert" mb="sm">
      {t(message)}
    </Alert>
  );
}
