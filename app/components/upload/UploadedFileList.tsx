import { Anchor } from "#mantine/components/Anchor/Anchor";
import { CloseButton } from "#mantine/components/CloseButton/CloseButton";
import { Group } from "#mantine/components/Group/Group";
import { Paper } from "#mantine/components/Paper/Paper";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { Form } from "@remix-run/react";
import { formatBytes } from "~/schemas/upload-limits";
import type { PhotoIssue } from "~/schemas/uploads";
import { useT } from "~/utils/i18n";

export interface ListedFile {
  id: string;
  url: string;
  name: string;
  size: number;
  type: string;
  /** Found by the server's check as the photo arrived (absent: not judged). */
  quality?: PhotoIssue[];
}

/** What the customer or the dealer may do about each issue: a warning, the photo stays. */
const ISSUE_ADVICE: Record<PhotoIssue, string> = {
  blurred: "Blurred: retake it if the damage is hard to see.",
  dark: "Too dark: retake it in better light.",
  overexposed: "Too bright: retake it out of direct light.",
  small: "Too small to show the damage: retake it closer.",
};

/** The uploaded files with name, size and a remove button (a form post: works without JavaScript). */
export function UploadedFileList({ files, action = "/upload" }: { files: ListedFile[]; action?: string }) {
  const t = useT();
  if (files.length === 0) return null;
  return (
    <Stack gap="xs" data-testid="uploaded-files">
      <Text fw={600}>{t("Uploaded files (")}{files.length})</Text>
      {files.map((file) => (
        <Paper key={file.id} withBorder p="xs" data-testid="uploaded-file">
          <Group justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
              {file.type.startsWith("image/") ? (
                <img src={`${file.url}/thumb`} alt="" width={48} height={48} style={{ objectFit: "cover", borderRadius: 4 }} />
              ) : null}
              <div style={{ minWidth: 0 }}>
                <Anchor href={file.url} target="_blank" rel="noreferrer" truncate="end" display="block" data-testid="uploaded-file-name">
                  {file.name}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {formatBytes(file.size)}
                </Text>
                {(file.quality ?? []).map((issue) => (
                  <Text key={issue} size="xs" c="orange" data-testid="photo-quality">
                    {t(ISSUE_ADVICE[issue])}
                  </Text>
                ))}
              </div>
            </Group>
            <Form method="post" action={action}>
              <input type="hidden" name="intent" value="remove" />
              <input type="hidden" name="id" value={file.id} />
              {/* CloseButton rather than ActionIcon: the alerts already load it. */}
              <CloseButton type="submit" c="red" aria-label={`Remove ${file.name}`} />
            </Form>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
