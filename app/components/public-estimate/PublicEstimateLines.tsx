import { asLines, formatCents, formatDollars, humanizeType, lineCents } from "~/utils/estimate-lines";

/**
 * The estimate's damages, lines and total as the version holds them, in plain HTML for the
 * customer's page (no Mantine, no script). The one place that page reads the lines: when the
 * estimate's lines and totals change shape, this component is what switches to them.
 */
export function PublicEstimateLines({
  damages,
  lineItems,
  estimatedCost,
  costNote,
}: {
  damages: { damageType: string; location: string; severity: string; description: string }[];
  lineItems: unknown[];
  estimatedCost: number | null;
  costNote: string | null;
}) {
  const lines = asLines(lineItems);
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
        <tbody>
          {lines.map((line, i) => (
            <tr key={i}>
              <td>
                {humanizeType(line.damageType)} ({line.severity}
                {line.location ? `, ${line.location}` : ""})
              </td>
              <td className="amount">{formatCents(lineCents(line))}</td>
            </tr>
          ))}
          {lines.length === 0 ? (
            <tr>
              <td colSpan={2} className="dim">
                No line items
              </td>
            </tr>
          ) : null}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total (USD)</th>
            <td className="amount" data-testid="public-total">
              {formatDollars(estimatedCost)}
            </td>
          </tr>
        </tfoot>
      </table>
      {estimatedCost === null && costNote ? <p className="dim">{costNote}</p> : null}
    </>
  );
}
