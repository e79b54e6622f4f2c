// An estimate's lines as stored: the pricing engine's quote lines (integer cents), and where a
// reviewer set the amount, `manualCents` (null: to be determined). Shared by the edit service, the
// PDF and the screens, so every place reads a line's amount the same way.

export interface EstimateLine {
  damageType: string;
  severity: string;
  location: string | null;
  priced: boolean;
  /** An unpriced line: why (no rule, added by a reviewer). */
  reason?: string;
  baseCents?: number;
  labour?: { hours: number; hoursFrom: string; rateCents: number; cents: number };
  partsCents?: number;
  modifiers?: { make: number; location: number; seasonal: number };
  markupPercentage?: number;
  minimumChargeCents?: number;
  minimumApplied?: boolean;
  ruleCents?: number;
  learning?: { factor: number; records: number; cents: number };
  totalCents?: number;
  /** A reviewer's amount, replacing the engine's; null = to be determined. */
  manualCents?: number | null;
}

export const asLines = (items: Record<string, unknown>[]) => items as unknown as EstimateLine[];

/** What the pricing engine gave the line (cents); null when it could not price it. */
export const aiCents = (line: EstimateLine) => (line.priced && typeof line.totalCents === "number" ? line.totalCents : null);

/** The line's amount now (cents): the reviewer's when set, else the engine's; null = to be determined. */
export const lineCents = (line: EstimateLine) => (line.manualCents !== undefined ? line.manualCents : aiCents(line));

/** The sum of the lines (cents), or null when any line has no amount yet or there is none. */
export function linesTotalCents(lines: EstimateLine[]) {
  // Nothing priced is TBD, as an analysis that found no damage leaves it (never a made-up $0).
  if (lines.length === 0) return null;
  let total = 0;
  for (const line of lines) {
    const cents = lineCents(line);
    if (cents === null) return null;
    total += cents;
  }
  return total;
}

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
export const formatCents = (cents: number | null) => (cents === null ? "TBD" : usd.format(cents / 100));
export const formatDollars = (dollars: number | null) => (dollars === null ? "TBD" : usd.format(dollars));
export const humanizeType = (text: string) => text.replace(/_/g, " ");
