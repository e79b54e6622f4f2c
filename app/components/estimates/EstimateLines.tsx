import { Table } from "~/components/Table";
import type { Formatters } from "~/utils/locale-format";
import { Text } from "#mantine/components/Text/Text";
import type { AssessmentJson } from "~/services/assessments.server";
import { LABOUR_CATEGORIES, OPERATION_LABELS, OPERATIONS, PART_TYPE_LABELS, type LabourCategory } from "~/schemas/estimate-sheet";
import { basisText } from "~/utils/estimate-basis";
import { hoursCents, lineTotalCents, materialsCentsOf, type SheetLine } from "~/utils/estimate-sheet";
import { type Vars, useFormat, useT } from "~/utils/i18n";

type Translate = (text: string, vars?: Vars) => string;

const hours = (h: number) => `${h} h`;
/** A labour category as it reads mid-sentence ("body"), from its option label's translation ("Body"). */
const category = (tr: Translate, c: LabourCategory) => tr(c[0].toUpperCase() + c.slice(1)).toLowerCase();

/** What a line is made of: labour (category, hours × rate), paint materials, the part, sublet or flat amount, the note. */
function lineParts(tr: Translate, fmt: Formatters, line: SheetLine, materialsRateCents: number) {
  const parts: string[] = [];
  if (line.labour) {
    const { category: c, hours: h, rateCents, amountCents } = line.labour;
    const computed = `${category(tr, c)} ${hours(h)} × ${fmt.cents(rateCents)} = ${fmt.cents(hoursCents(h, rateCents))}`;
    parts.push(amountCents === undefined ? computed : `${computed}, ${tr("set to {{amount}}", { amount: fmt.cents(amountCents) })}`);
  }
  const materials = materialsCentsOf(line, materialsRateCents);
  if (materials && line.labour) {
    parts.push(tr("paint materials {{amount}}", { amount: `${hours(line.labour.hours)} × ${fmt.cents(materialsRateCents)} = ${fmt.cents(materials)}` }));
  }
  if (line.part) {
    const { type, number, description, quantity, unitPriceCents } = line.part;
    const vars = { type: tr(PART_TYPE_LABELS[type]), number, description, quantity, price: fmt.cents(unitPriceCents) };
    const part = tr("{{type}} part {{number}} {{description}} × {{quantity}} @ {{price}}", vars).replace(/\s+/g, " ");
    parts.push(line.part.amountCents === undefined ? part : `${part}, ${tr("set to {{amount}}", { amount: fmt.cents(line.part.amountCents) })}`);
  }
  if (line.amountCents) {
    const amount = { amount: fmt.cents(line.amountCents) };
    parts.push(line.operation === "sublet" ? tr("sublet {{amount}}", amount) : tr("flat amount {{amount}}", amount));
  }
  if (line.note) parts.push(line.note);
  return parts.join(" · ");
}

/** The estimate's lines grouped by operation, then the totals block as shops print it. */
export function EstimateLines({ estimate }: { estimate: AssessmentJson }) {
  const tr = useT();
  const fmt = useFormat();
  const { sheet } = estimate;
  if (sheet.lines.length === 0) {
    return <Text size="sm">{estimate.costNote ?? tr("No line items.")}</Text>;
  }
  const t = sheet.totals;
  const groups = OPERATIONS.map((op) => ({ op, lines: sheet.lines.filter((l) => l.operation === op) })).filter((g) => g.lines.length > 0);
  const row = (label: string, cents: number, strong = false, testId?: string) => (
    <Table.Tr key={label}>
      <Table.Td fw={strong ? 700 : undefined}>{label}</Table.Td>
      <Table.Td ta="right" fw={strong ? 700 : undefined} style={{ whiteSpace: "nowrap" }} data-testid={testId}>
        {fmt.cents(cents)}
      </Table.Td>
    </Table.Tr>
  );
  return (
    // Two columns, the line's makeup wrapping under its name: it fits a 360 px phone's dialog as it is.
    <Table data-testid="estimate-lines" verticalSpacing={4}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{tr("Line")}</Table.Th>
            <Table.Th ta="right">{tr("Amount")}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {groups.map((g) => [
            <Table.Tr key={g.op}>
              <Table.Td colSpan={2} fw={600} c="dimmed">
                {tr(OPERATION_LABELS[g.op])}
              </Table.Td>
            </Table.Tr>,
            ...g.lines.map((line) => (
              <Table.Tr key={line.id} data-testid="sheet-line">
                <Table.Td>
                  <Text size="sm">
                    {line.damage !== null ? `#${line.damage + 1} ` : ""}
                    {line.description || tr(OPERATION_LABELS[line.operation])}
                    {line.optional ? (
                      <Text span size="xs" fw={600} c="orange.9" ml={6} data-testid="sheet-line-optional">
                        {tr("Optional")}
                      </Text>
                    ) : null}
                  </Text>
                  <Text size="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
                    {lineParts(tr, fmt, line, sheet.materialsRateCents)}
                  </Text>
                  {line.basis && line.basis.length > 0 ? (
                    // A native disclosure: it opens without JavaScript.
                    <details data-testid="line-basis">
                      <summary style={{ fontSize: 12, cursor: "pointer" }}>{tr("Why this price")}</summary>
                      <ul style={{ margin: "2px 0 0", paddingLeft: 18, fontSize: 12 }}>
                        {line.basis.map((step, i) => (
                          <li key={i}>{basisText(step, tr)}</li>
                        ))}
                      </ul>
                    </details>
                  ) : null}
                </Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: "nowrap" }}>
                  {fmt.cents(lineTotalCents(line, sheet.materialsRateCents))}
                </Table.Td>
              </Table.Tr>
            )),
          ])}
          {row(tr("Parts"), t.partsCents)}
          {LABOUR_CATEGORIES.filter((c) => t.labourCents[c] > 0).map((c) => row(tr("Labour ({{category}})", { category: category(tr, c) }), t.labourCents[c]))}
          {t.materialsCents > 0 && row(tr("Paint materials"), t.materialsCents)}
          {t.subletCents !== 0 && row(tr("Sublet"), t.subletCents)}
          {t.otherCents !== 0 && row(tr("Flat amounts"), t.otherCents)}
          {row(tr("Subtotal"), t.subtotalCents, true)}
          {t.taxCents.parts > 0 && row(tr("Tax on parts ({{rate}}%)", { rate: sheet.taxRates.parts }), t.taxCents.parts)}
          {t.taxCents.labour > 0 && row(tr("Tax on labour ({{rate}}%)", { rate: sheet.taxRates.labour }), t.taxCents.labour)}
          {t.taxCents.materials > 0 && row(tr("Tax on paint materials ({{rate}}%)", { rate: sheet.taxRates.materials }), t.taxCents.materials)}
          <Table.Tr>
            <Table.Td fw={700}>{tr("Total")}</Table.Td>
            <Table.Td ta="right" fw={700} data-testid="estimate-total">
              {estimate.estimatedCost === null ? tr("TBD") : fmt.cents(Math.round(estimate.estimatedCost * 100))}
            </Table.Td>
          </Table.Tr>
          {t.deductibleCents !== null && row(tr("Deductible (customer pays)"), t.customerPaysCents)}
          {t.deductibleCents !== null && row(tr("Insurer pays"), t.insurerPaysCents)}
        </Table.Tbody>
    </Table>
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
