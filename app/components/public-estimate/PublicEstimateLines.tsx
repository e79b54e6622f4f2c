import { LABOUR_CATEGORIES, OPERATION_LABELS, OPERATIONS, PART_TYPE_LABELS } from "~/schemas/estimate-sheet";
import { formatCents } from "~/utils/estimate-lines";
import { humanize } from "../training/labels";
import { basisText } from "~/utils/estimate-basis";
import { hoursCents, lineTotalCents, materialsCentsOf, type Sheet, type SheetLine, type SheetTotals } from "~/utils/estimate-sheet";
import { useT } from "~/utils/i18n";


/** What a line is made of, as the PDF prints it: labour, its paint materials, the part, sublet or flat amount; then why this price. */
function LineFacts({ line, materialsRateCents }: { line: SheetLine; materialsRateCents: number }) {
  const t = useT();
  const materials = materialsCentsOf(line, materialsRateCents);
  // ", set to $134.21" after a figure a reviewer's total for the damage set.
  const setTo = (cents: number | undefined) => (cents === undefined ? "" : t(", set to {{amount}}", { amount: formatCents(cents) }));
  return (
    <>
      {line.labour ? (
        <div className="dim">
          {t("Labour ({{category}})", { category: t(line.labour.category) })}: {line.labour.hours} h × {formatCents(line.labour.rateCents)} ={" "}
          {formatCents(hoursCents(line.labour.hours, line.labour.rateCents))}
          {setTo(line.labour.amountCents)}
        </div>
      ) : null}
      {materials && line.labour ? (
        <div className="dim">
          {t("Paint materials")}: {line.labour.hours} h × {formatCents(materialsRateCents)} = {formatCents(materials)}
        </div>
      ) : null}
      {line.part ? (
        <div className="dim" data-testid="public-line-part">
          {t("Part")}: {[t(PART_TYPE_LABELS[line.part.type]), line.part.number, line.part.description].filter(Boolean).join(" ")} × {line.part.quantity} @{" "}
          {formatCents(line.part.unitPriceCents)}
          {setTo(line.part.amountCents)}
        </div>
      ) : null}
      {line.amountCents ? (
        <div className="dim">
          {line.operation === "sublet" ? t("Sublet") : t("Flat amount")}: {formatCents(line.amountCents)}
        </div>
      ) : null}
      {line.note ? <div className="dim">{line.note}</div> : null}
      {line.basis && line.basis.length > 0 ? (
        // A native disclosure: the page has no script.
        <details className="basis" data-testid="public-line-basis">
          <summary>{t("Why this price")}</summary>
          <ul>
            {line.basis.map((step, i) => (
              <li key={i}>{basisText(step, t)}</li>
            ))}
          </ul>
        </details>
      ) : null}
    </>
  );
}

/** The picture that shows a line's damage: the first photo or frame with its number on it. */
export interface LineEvidence {
  /** The picture's index (`{base}/photos/{n}`). */
  n: number;
  label: string;
  alt: string;
}

/** Each damage's (by index) first picture showing it, from the pictures' damage numbers (from 1). */
export function evidenceByDamage(photos: { label: string; alt: string; damages: number[] }[]) {
  const found = new Map<number, LineEvidence>();
  photos.forEach((photo, n) => {
    for (const number of photo.damages) if (!found.has(number - 1)) found.set(number - 1, { n, label: photo.label, alt: photo.alt });
  });
  return found;
}

/** The photo evidence beside a line: the picture's thumbnail and the damage's number (issue 40 item 6). */
export function Evidence({ damage, evidence, base }: { damage: number | null; evidence: Map<number, LineEvidence>; base: string }) {
  const t = useT();
  if (damage === null) return null;
  const picture = evidence.get(damage);
  return (
    <span className="evidence" data-testid="line-evidence">
      {picture ? (
        <img src={`${base}/photos/${picture.n}`} alt={t("{{photo}}, damage {{n}}", { photo: picture.alt, n: damage + 1 })} width={96} height={72} loading="lazy" decoding="async" />
      ) : null}
      <span className="dim">
        {t("Damage {{n}}", { n: damage + 1 })}
        {picture ? ` · ${picture.label}` : ""}
      </span>
    </span>
  );
}

/**
 * The estimate's damages, its lines grouped by operation and the totals block as the version holds
 * them, in plain HTML for the customer's page (no Mantine, no script), in the order the PDF prints
 * them. The money comes from the sheet helpers (decision 0021); nothing is summed here.
 */
export function PublicEstimateLines({
  damages,
  sheet,
  totalCents,
  costNote,
  evidence = new Map(),
  base = "",
}: {
  damages: { damageType: string; location: string; severity: string; description: string }[];
  /** Each damage's picture (evidenceByDamage), shown beside its lines; `base` is the link's page. */
  evidence?: Map<number, LineEvidence>;
  base?: string;
  sheet: Sheet & { totals: SheetTotals };
  /** The version's total, null while a damage is still to be priced (TBD). */
  totalCents: number | null;
  costNote: string | null;
}) {
  const t = useT();
  const totals = sheet.totals;
  const groups = OPERATIONS.map((op) => ({ op, lines: sheet.lines.filter((l) => l.operation === op) })).filter((g) => g.lines.length > 0);
  const row = (label: string, cents: number, testId?: string) => (
    <tr key={label}>
      <th scope="row">{label}</th>
      <td className="amount" data-testid={testId}>
        {formatCents(cents)}
      </td>
    </tr>
  );
  return (
    <>
      <h2>{t("Damages")}</h2>
      {damages.length === 0 ? (
        <p className="dim">{t("None recorded")}</p>
      ) : (
        <ol className="damages" data-testid="public-damages">
          {damages.map((d, i) => (
            <li key={i}>
              <strong>{t(humanize(d.damageType))}</strong> — {t(d.location)}, {t(d.severity)}
              {d.description ? <div className="dim">{d.description}</div> : null}
            </li>
          ))}
        </ol>
      )}
      <h2>{t("Lines")}</h2>
      <table className="lines" data-testid="public-lines">
        {groups.map((g) => (
          <tbody key={g.op}>
            <tr>
              <th colSpan={2} scope="colgroup" className="group">
                {t(OPERATION_LABELS[g.op])}
              </th>
            </tr>
            {g.lines.map((line) => (
              <tr key={line.id} data-testid="public-line" data-line-id={line.id} data-optional={line.optional ? "true" : undefined}>
                <td>
                  {line.damage !== null ? `#${line.damage + 1} ` : ""}
                  {line.description || t(OPERATION_LABELS[line.operation])}
                  {line.optional ? (
                    <>
                      {" "}
                      <span className="tag" data-testid="optional-tag">
                        {t("Optional")}
                      </span>
                    </>
                  ) : null}
                  <LineFacts line={line} materialsRateCents={sheet.materialsRateCents} />
                  <Evidence damage={line.damage} evidence={evidence} base={base} />
                </td>
                <td className="amount">{formatCents(lineTotalCents(line, sheet.materialsRateCents))}</td>
              </tr>
            ))}
          </tbody>
        ))}
        {groups.length === 0 ? (
          <tbody>
            <tr>
              <td colSpan={2} className="dim">
                {t("No line items")}
              </td>
            </tr>
          </tbody>
        ) : null}
      </table>
      <h2>{t("Totals")}</h2>
      <table className="lines totals" data-testid="public-totals">
        <tbody>
          {row(t("Parts"), totals.partsCents, "public-parts")}
          {LABOUR_CATEGORIES.filter((c) => totals.labourCents[c] !== 0).map((c) => row(t("Labour ({{category}})", { category: t(c) }), totals.labourCents[c]))}
          {totals.materialsCents !== 0 && row(t("Paint materials"), totals.materialsCents)}
          {totals.subletCents !== 0 && row(t("Sublet"), totals.subletCents)}
          {totals.otherCents !== 0 && row(t("Flat amounts"), totals.otherCents)}
          {row(t("Subtotal"), totals.subtotalCents, "public-subtotal")}
          {/* Each tax once, by what it is on, as the PDF prints them (no "Tax" sum repeating them). */}
          {totals.taxCents.parts !== 0 && row(t("Tax on parts ({{rate}}%)", { rate: sheet.taxRates.parts }), totals.taxCents.parts)}
          {totals.taxCents.labour !== 0 && row(t("Tax on labour ({{rate}}%)", { rate: sheet.taxRates.labour }), totals.taxCents.labour)}
          {totals.taxCents.materials !== 0 && row(t("Tax on paint materials ({{rate}}%)", { rate: sheet.taxRates.materials }), totals.taxCents.materials)}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{t("Total (USD)")}</th>
            <td className="amount" data-testid="public-total">
              {formatCents(totalCents)}
            </td>
          </tr>
          {totals.deductibleCents !== null && totalCents !== null ? (
            <>
              {row(t("Deductible"), totals.deductibleCents, "public-deductible")}
              {row(t("Customer pays"), totals.customerPaysCents, "public-customer-pays")}
              {row(t("Insurer pays"), totals.insurerPaysCents, "public-insurer-pays")}
            </>
          ) : null}
        </tfoot>
      </table>
      {totalCents === null && costNote ? <p className="dim">{costNote}</p> : null}
    </>
  );
}
