/**
 * An engine line as analyses before issue 27 stored it (one amount per damage): labour 2 h × $50,
 * `partsCents` of parts, the rest the rule's base; modifiers 1, no markup, minimum or learning.
 */
export const engineLine = (damageType: string, severity: string, location: string, totalCents: number, partsCents = 5000) => ({
  damageType,
  severity,
  location,
  priced: true,
  // A rule id that names no rule: the line is what was stored, not re-priced.
  ruleId: "0123456789abcdef01234567",
  baseCents: totalCents - 10000 - partsCents,
  labour: { hours: 2, hoursFrom: "default", rateCents: 5000, cents: 10000 },
  partsCents,
  modifiers: { make: 1, location: 1, seasonal: 1 },
  markupPercentage: 0,
  subtotalCents: totalCents,
  minimumChargeCents: 0,
  minimumApplied: false,
  ruleCents: totalCents,
  learning: { factor: 1, records: 0, cents: 0 },
  totalCents,
});
