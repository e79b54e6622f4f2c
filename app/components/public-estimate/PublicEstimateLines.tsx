import { LABOUR_CATEGORIES, OPERATION_LABELS, OPERATIONS, PART_TYPE_LABELS } from "~/schemas/estimate-sheet";
import { formatCents, humanizeType } from "~/utils/estimate-lines";
import { basisText } from "~/utils/estimate-basis";
import { hoursCents, lineTotalCents, materialsCentsOf, type Sheet, type SheetLine, type SheetTotals } from "~/utils/estimate-sheet";
import { translate, type Vars } from "~/utils/i18n";

/** English words for the line's "why this price" (the page is in English, as its other words). */
const english = (text: string, vars?: Vars) => translate({}, text, vars);
/** ", set to $134.21" after a figure a reviewer's total for the damage set. */
const setTo = (cents: number | undefined) => (cents === undefined ? "" : `, set to ${formatCents(cents)}`);

/** What a line is made of, as the PDF prints it: labour, its paint materials, the part, sublet or flat amount; then why this price. */
function LineFacts({ line, materialsRateCents }: { line: SheetLine; materialsRateCents: number }) {
  const materials = materialsCentsOf(line, materialsRateCents);
  return (
    <>
      {line.labour ? (
        <div className="dim">
          Labour ({line.labour.category}): {line.labour.hours} h × {formatCents(line.labour.rateCents)} = {formatCents(hoursCents(line.labour.hours, line.labour.rateCents))}
          {setTo(line.labour.amountCents)}
        </div>
      ) : null}
      {materials && line.labour ? (
        <div className="dim">
          Paint materials: {line.labour.hours} h × {formatCents(materialsRateCents)} = {formatCents(materials)}
        </div>
      ) : null}
      {line.part ? (
        <div className="dim" data-testid="public-line-part">
          Part: {[PART_TYPE_LABELS[line.part.type], line.part.number, line.part.description].filter(Boolean).join(" ")} × {line.part.quantity} @{" "}
          {formatCents(line.part.unitPriceCents)}
          {setTo(line.part.amountCents)}
        </div>
      ) : null}
      {line.amountCents ? (
        <div className="dim">
          {line.operation === "sublet" ? "Sublet" : "Flat amount"}: {formatCents(line.amountCents)}
        </div>
      ) : null}
      {line.note ? <div className="dim">{line.note}</div> : null}
      {line.basis && line.basis.length > 0 ? (
        // A native disclosure: the page has no script.
        <details className="basis" data-testid="public-line-basis">
          <summary>Why this price</summary>
          <ul>
            {line.basis.map((step, i) => (
              <li key={i}>{basisText(step, english)}</li>
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
  if (damage === null) return null;
  const picture = evidence.get(damage);
  return (
    <span className="evidence" data-testid="line-evidence">
      {picture ? <img src={`${base}/photos/${picture.n}`} alt={`${picture.alt}, damage ${damage + 1}`} width={96} height={72} loading="lazy" decoding="async" /> : null}
      <span className="dim">
        Damage {damage + 1}
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
  const t = sheet.totals;
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
      <h2>Damages</h2>
      {damages.length === 0 ? (
        <p className="dim">None recorded</p>
      ) : (
        <ol className="damages" data-testid="public-damages">
          {damages.map((d, i) => (
            <li key={i}>
              <strong>{humanizeType(d.damageType)}</strong> — {d.location}, {d.severity}
              {d.description ? <div className="dim">{d.description}</div> : null}
            </li>
          ))}
        </ol>
      )}
      <h2>Lines</h2>
      <table className="lines" data-testid="public-lines">
        {groups.map((g) => (
          <tbody key={g.op}>
            <tr>
              <th colSpan={2} scope="colgroup" className="group">
                {OPERATION_LABELS[g.op]}
              </th>
            </tr>
            {g.lines.map((line) => (
              <tr key={line.id} data-testid="public-line" data-line-id={line.id} data-optional={line.optional ? "true" : undefined}>
                <td>
                  {line.damage !== null ? `#${line.damage + 1} ` : ""}
                  {line.description || OPERATION_LABELS[line.operation]}
                  {line.optional ? (
                    <>
                      {" "}
                      <span className="tag" data-testid="optional-tag">
                        Optional
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
                No line items
              </td>
            </tr>
          </tbody>
        ) : null}
      </table>
      <h2>Totals</h2>
      <table className="lines totals" data-testid="public-totals">
        <tbody>
          {row("Parts", t.partsCents, "public-parts")}
          {LABOUR_CATEGORIES.filter((c) => t.labourCents[c] !== 0).map((c) => row(`Labour (${c})`, t.labourCents[c]))}
          {t.materialsCents !== 0 && row("Paint materials", t.materialsCents)}
          {t.subletCents !== 0 && row("Sublet", t.subletCents)}
          {t.otherCents !== 0 && row("Flat amounts", t.otherCents)}
          {row("Subtotal", t.subtotalCents, "public-subtotal")}
          {/* Each tax once, by what it is on, as the PDF prints them (no "Tax" sum repeating them). */}
          {t.taxCents.parts !== 0 && row(`Tax on parts (${sheet.taxRates.parts}%)`, t.taxCents.parts)}
          {t.taxCents.labour !== 0 && row(`Tax on labour (${sheet.taxRates.labour}%)`, t.taxCents.labour)}
          {t.taxCents.materials !== 0 && row(`Tax on paint materials (${sheet.taxRates.materials}%)`, t.taxCents.materials)}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total (USD)</th>
            <td className="amount" data-testid="public-total">
              {formatCents(totalCents)}
            </td>
          </tr>
          {t.deductibleCents !== null && totalCents !== null ? (
            <>
              {row("Deductible", t.deductibleCents, "public-deductible")}
              {row("Customer pays", t.customerPaysCents, "public-customer-pays")}
              {row("Insurer pays", t.insurerPaysCents, "public-insurer-pays")}
            </>
          ) : null}
        </tfoot>
      </table>
      {totalCents === null && costNote ? <p className="dim">{costNote}</p> : null}
    </>
  );
}
