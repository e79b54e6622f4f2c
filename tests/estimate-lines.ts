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

export type FormLine = {
  id: string;
  damage: number | null;
  operation: string;
  description: string;
  amountCents: number;
  labour: { category: string; hours: number; rateCents: number } | null;
  part: { type: string; number: string; description: string; quantity: number; unitPriceCents: number } | null;
  note: string;
};
/** An estimate as GET /api/assessments/{id} answers it: what Edit Estimate's form is made from. */
export type EstimateRead = { revision: number; audit: unknown[]; damages: { damageType: string; location: string; severity: string }[]; sheet: { lines: FormLine[] } };

const dollars = (cents: number) => (cents / 100).toFixed(2);

/**
 * The Edit Estimate form as the screen renders it from `read` (every damage row and line, the
 * revision it was read at), then `typed` over it (field name → value): the body the browser posts.
 */
export function editEstimateForm(id: string, read: EstimateRead, typed: Record<string, string>) {
  const fields: Record<string, string> = { intent: "update", id, revision: String(read.revision), seenAudit: String(read.audit.length), reason: "" };
  read.damages.forEach((d, i) => Object.assign(fields, { [`damages[${i}].line`]: String(i), [`damages[${i}].damageType`]: d.damageType, [`damages[${i}].location`]: d.location, [`damages[${i}].severity`]: d.severity }));
  read.sheet.lines.forEach((l, i) => {
    const p = `lines[${i}]`;
    Object.assign(fields, {
      [`${p}.id`]: l.id,
      [`${p}.damage`]: l.damage === null ? "" : String(l.damage),
      [`${p}.operation`]: l.operation,
      [`${p}.description`]: l.description,
      [`${p}.labourCategory`]: l.labour?.category ?? "",
      [`${p}.hours`]: l.labour ? String(l.labour.hours) : "",
      [`${p}.rate`]: l.labour ? dollars(l.labour.rateCents) : "",
      [`${p}.partType`]: l.part?.type ?? "",
      [`${p}.partNumber`]: l.part?.number ?? "",
      [`${p}.partDescription`]: l.part?.description ?? "",
      [`${p}.quantity`]: l.part ? String(l.part.quantity) : "",
      [`${p}.unitPrice`]: l.part ? dollars(l.part.unitPriceCents) : "",
      [`${p}.amount`]: l.amountCents === 0 ? "" : dollars(l.amountCents),
      [`${p}.note`]: l.note,
    });
  });
  return new URLSearchParams({ ...fields, ...typed }).toString();
}

/**
 * An estimate sheet for approval line by line (issue 40 item 6): one required line (body $120) and two
 * optional ones (a blend, $97.50 of labour and $57 of paint materials; a $199.99 coating), New York's
 * taxes. The API, unit and phone tests share it; a test that wants no tax spreads its own `taxRates`.
 */
export const APPROVAL_SHEET = {
  lines: [
    { id: "d0-1", damage: 0, operation: "repair", description: "Door dent", labour: { category: "body", hours: 2, rateCents: 6000 }, part: null, amountCents: 0, note: "" },
    { id: "d0-2", damage: 0, operation: "refinish", description: "Door blend", labour: { category: "refinish", hours: 1.5, rateCents: 6500 }, part: null, amountCents: 0, note: "", optional: true },
    { id: "v-1", damage: null, operation: "sublet", description: "Ceramic coating", labour: null, part: null, amountCents: 19999, note: "", optional: true },
  ],
  rates: { body: 6000, refinish: 6500, mechanical: 6000, frame: 6000 },
  materialsRateCents: 3800,
  taxRates: { parts: 8.875, labour: 4, materials: 8.875 },
  deductibleCents: null,
  language: null,
  mileage: null,
};
