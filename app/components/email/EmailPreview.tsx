import { Alert } from "#mantine/components/Alert/Alert";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { useT } from "~/utils/i18n";

export interface PreviewData {
  subject: string;
  html: string;
  warnings: string[];
  error: string | null;
}

/**
 * A rendered message: its subject, and its HTML in a sandboxed frame (no scripts, no same-origin:
 * a template's markup can never act as the app). Warnings list unknown variables.
 */
export function EmailPreview({ preview, title = "Preview" }: { preview: PreviewData | null; title?: string }) {
  const t = useT();
  if (!preview) return null;
  return (
    <Stack gap="xs" data-testid="email-preview">
      <Text fw={600} size="sm">
        {title}
      </Text>
      {preview.error ? (
        <Alert color="red" role="alert" title={t("The template does not compile")}>
          {preview.error}
        </Alert>
      ) : (
        <>
          <Text size="sm">
            <Text span c="dimmed">
              {t("Subject:")}{" "}
            </Text>
            <span data-testid="preview-subject">{preview.subject}</span>
          </Text>
          <iframe
            title={t("{{title}} of the message", { title })}
            sandbox=""
            srcDoc={preview.html}
            style={{ width: "100%", minHeight: 180, border: "1px solid var(--mantine-color-gray-3)", borderRadius: 4, background: "white" }}
          />
        </>
      )}
      {preview.warnings.length > 0 && (
        <Alert color="yellow" title={t("Unknown variables")} data-testid="preview-warnings">
          {preview.warnings.map((w) => (
            <div key={w}>{w}</div>
          ))}
        </Alert>
      )}
    </Stack>
  );
}
