import { Alert } from "#mantine/components/Alert/Alert";

/** A form-level failure (e.g. "Invalid credentials") shown inline; works without JavaScript. */
export function FormError({ title, message }: { title?: string; message?: string | null }) {
  if (!message) return null;
  return (
    <Alert color="red" title={title} role="alert" mb="sm">
      {message}
    </Alert>
  );
}
