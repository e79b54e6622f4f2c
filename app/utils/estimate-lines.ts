// An estimate's lines as stored: the pricing engine's quote lines (integer cents), and where a
// reviewer set the amount, `manualCents` (null: to be determined). Shared by the edit service, the
// PDF and the screens, so every place reads a line's amount the same way.

import type { EstimateLine } from "~/schemas/estimate-line";

export type { EstimateLine };

type Fields = Record<string, unknown>;
const isFields = (v: unknown): v is Fields => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown) => (typeof v === "string" ? v : undefined);
const finite = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
/** Without the keys whose value is undefined (`manualCents` present or absent means different things). */
const defined = <T extends Fields>(fields: T) => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as T;

/**
 * The stored lines as the screens, the PDF and an edit read them. A stored line is not trusted to
 * have its shape (one may predate a change, or have arrived by import): what is not an object is
 * skipped, a field of the wrong type reads as absent, so nothing rendering it can fail.
 */
export function asLines(items: unknown): EstimateLine[] {
  if (!Array.isArray(items)) return [];
  return items.filter(isFields).map((l) => {
    const labour = isFields(l.labour) ? l.labour : undefined;
    const modifiers = isFields(l.modifiers) ? l.modifiers : undefined;
    const learning = isFields(l.learning) ? l.learning : undefined;
    const refinish = isFields(l.refinish) ? l.refinish : undefined;
    return defined({
      damageType: text(l.damageType) ?? "unknown",
      severity: text(l.severity) ?? "unknown",
      location: text(l.location) ?? null,
      priced: l.priced === true,
      reason: text(l.reason),
      ruleId: text(l.ruleId),
      baseCents: finite(l.baseCents),
      labour: labour && {
        hours: finite(labour.hours) ?? 0,
        hoursFrom: text(labour.hoursFrom) ?? "default",
        rateCents: finite(labour.rateCents) ?? 0,
        cents: finite(labour.cents) ?? 0,
      },
      partsCents: finite(l.partsCents),
      refinish: refinish && { hours: finite(refinish.hours) ?? 0, rateCents: finite(refinish.rateCents) ?? 0, cents: finite(refinish.cents) ?? 0 },
      materialsRateCents: finite(l.materialsRateCents),
      materialsCents: finite(l.materialsCents),
      modifiers: modifiers && { make: finite(modifiers.make) ?? 1, location: finite(modifiers.location) ?? 1, seasonal: finite(modifiers.seasonal) ?? 1 },
      markupPercentage: finite(l.markupPercentage),
      subtotalCents: finite(l.subtotalCents),
      minimumChargeCents: finite(l.minimumChargeCents),
      minimumApplied: typeof l.minimumApplied === "boolean" ? l.minimumApplied : undefined,
      ruleCents: finite(l.ruleCents),
      learning: learning && { factor: finite(learning.factor) ?? 1, records: finite(learning.records) ?? 0, cents: finite(learning.cents) ?? 0 },
      totalCents: finite(l.totalCents),
      manualCents: "manualCents" in l ? (l.manualCents === null ? null : (finite(l.manualCents) ?? null)) : undefined,
    });
  });
}

/** What the pricing engine gave the line (cents); null when it could not price it. */
export const aiCents = (line: EstimateLine) => (line.priced && typeof line.totalCents === "number" ? line.totalCents : null);

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
export const formatCents = (cents: number | null) => (cents === null ? "TBD" : usd.format(cents / 100));
export const formatDollars = (dollars: number | null) => (dollars === null ? "TBD" : usd.format(dollars));
export const humanizeType = (text: string) => text.replace(/_/g, " ");
