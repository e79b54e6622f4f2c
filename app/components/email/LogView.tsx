import { Stack } from "#mantine/components/Stack/Stack";
import { Table } from "~/components/Table";
import { Text } from "#mantine/components/Text/Text";
import type { EmailLogDetailJson } from "~/services/email-logs.server";
import { EmailPreview } from "./EmailPreview";
import { StatusBadge } from "./LogCard";
import { useFormat, useT } from "~/utils/i18n";

/** A log's view: who it went to, its status, the rendered message and every delivery attempt. */
export function LogView({ log, timeZone }: { log: EmailLogDetailJson; timeZone: string }) {
  const t = useT();
  const fmt = useFormat();
  return (
    <Stack gap="sm">
      <Text size="sm">
        <StatusBadge log={log} /> {t("To")} {log.recipientEmail} {t("· Assessment:")} {log.assessmentTitle ?? "N/A"}
      </Text>
      <Text size="xs" c="dimmed">
        {t("Message-ID")} {log.messageId}
        {log.nextAttemptAt ? t(" · next attempt {{n}}", { n: fmt.dateTime(log.nextAttemptAt, timeZone) }) : ""}
      </Text>
      {log.lastError && log.status !== "sent" && (
        <Text size="sm" c="red" data-testid="log-last-error">
          {log.lastError}
        </Text>
      )}
      <EmailPreview preview={{ subject: log.subject, html: log.html, warnings: [], error: null }} title={t("Message")} />
      <Text fw={600} size="sm">
        {t("Delivery attempts")}
      </Text>
      {log.attempts.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t("Not tried yet.")}
        </Text>
      ) : (
        <Table verticalSpacing={4} fz="xs" aria-label="Delivery attempts">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t("When")}</Table.Th>
              <Table.Th>{t("Outcome")}</Table.Th>
              <Table.Th>{t("Server reply or error")}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {log.attempts.map((a, i) => (
              <Table.Tr key={i}>
                <Table.Td>{fmt.dateTime(a.at, timeZone)}</Table.Td>
                <Table.Td>{a.outcome}</Table.Td>
                <Table.Td style={{ wordBreak: "break-word" }}>{[a.response, a.error].filter(Boolean).join(" · ") || "—"}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
