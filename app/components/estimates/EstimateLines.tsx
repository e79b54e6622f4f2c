import { Table } from "~/components/Table";
import { Text } from "#mantine/components/Text/Text";
import type { AssessmentJson } from "~/services/assessments.server";
import { aiCents, asLines, formatCents, humanizeType, lineCents, type EstimateLine } from "~/utils/estimate-lines";
import { useT } from "~/utils/i18n";

const factor = (n: number) => `× ${n.toFixed(2)}`;

/** How a line's amount came about, as the pricing engine (or the reviewer) made it. */
function LineDetail({ line }: { line: EstimateLine }) {
  const parts: string[] = [];
  if (line.priced) {
    if (line.labour) parts.push(`Labour ${line.labour.hours} h × ${formatCents(line.labour.rateCents)} = ${formatCents(line.labour.cents)}`);
    parts.push(`Parts ${formatCents(line.partsCents ?? 0)}`, `Base ${formatCents(line.baseCents ?? 0)}`);
    if (line.modifiers) {
      parts.push(`Modifiers: make ${factor(line.modifiers.make)}, location ${factor(line.modifiers.location)}, season ${factor(line.modifiers.seasonal)}`);
    }
    if (line.markupPercentage) parts.push(`Markup ${line.markupPercentage}%`);
    if (line.minimumApplied) parts.push(`Minimum charge ${formatCents(line.minimumChargeCents ?? 0)}`);
    if (line.learning && line.learning.records > 0) {
      parts.push(`Learning adjustment ${formatCents(line.learning.cents)} (${factor(line.learning.factor)} from ${line.learning.records} record(s))`);
    }
  } else {
    parts.push(line.reason ?? "Not priced");
  }
  if (line.manualCents !== undefined) {
    parts.push(`Set by a reviewer (AI: ${formatCents(aiCents(line))})`);
  }
  return (
    <Text size="xs" c="dimmed">
      {parts.join(" · ")}
    </Text>
  );
}

/** The estimate's lines (cents → dollars) with the total, or what keeps it TBD. */
export function EstimateLines({ estimate }: { estimate: AssessmentJson }) {
  const t = useT();
  const lines = asLines(estimate.lineItems);
  if (lines.length === 0) {
    return <Text size="sm">{estimate.costNote ?? t("No line items.")}</Text>;
  }
  return (
    <Table.ScrollContainer minWidth={420}>
      <Table data-testid="estimate-lines" verticalSpacing={4}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t("Line")}</Table.Th>
            <Table.Th ta="right">{t("Amount")}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {lines.map((line, i) => (
            <Table.Tr key={i}>
              <Table.Td>
                <Text size="sm">
                  {t(humanizeType(line.damageType))} ({t(line.severity)}
                  {line.location ? `, ${line.location}` : ""})
                </Text>
                <LineDetail line={line} />
              </Table.Td>
              <Table.Td ta="right">{formatCents(lineCents(line))}</Table.Td>
            </Table.Tr>
          ))}
          <Table.Tr>
            <Table.Td fw={700}>{t("Total")}</Table.Td>
            <Table.Td ta="right" fw={700} data-testid="estimate-total">
              {estimate.estimatedCost === null ? t("TBD") : formatCents(Math.round(estimate.estimatedCost * 100))}
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Who did what and when, newest first: status moves (from → to), the reason and each change. */
export function AuditTrail({ audit, formatTime }: { audit: AssessmentJson["audit"]; formatTime: (iso: string) => string }) {
  const t = useT();
  return (
    <ol style={{ margin: 0, paddingLeft: 18 }} data-testid="audit-trail">
      {[...audit].reverse().map((entry, i) => (
        <li key={i} style={{ marginBottom: 6 }}>
          <Text size="sm">
            <strong>{entry.byName}</strong> {entry.action}
            {entry.from && entry.to ? ` (${entry.from} → ${entry.to})` : entry.to ? ` (→ ${entry.to})` : ""} ·{" "}
            <Text span size="xs" c="dimmed">
              {formatTime(entry.at)}
            </Text>
          </Text>
          {entry.note && (
            <Text size="xs" fs="italic">
              {t("Reason:")} {entry.note}
            </Text>
          )}
          {entry.changes.map((change) => (
            <Text key={change} size="xs" c="dimmed">
              {change}
            </Text>
          ))}
        </li>
      ))}
    </ol>
  );
}
