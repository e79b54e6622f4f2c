import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LABOUR_CATEGORIES, OPERATIONS, PART_TYPES } from "~/schemas/estimate-sheet";
import { readSheet, sheetTotals, type SheetLine, type TaxRates } from "./estimate-sheet";

// The money rules of decision 0021, property-tested against an independent calculation: decimal
// strings parsed digit by digit and BigInt arithmetic, rounding half up once where a fraction of a
// cent appears (a line's labour, a line's paint materials, each tax category).

/** "12.5" → 1250n: a decimal string in units of 10^-places, read from its digits (no floating point). */
function scaled(text: string, places: number) {
  const [whole, fraction = ""] = text.split(".");
  return BigInt(whole + fraction.padEnd(places, "0").slice(0, places));
}
/** n ÷ d, half up (n ≥ 0). */
const halfUp = (n: bigint, d: bigint) => (2n * n + d) / (2n * d);

interface Case {
  lines: { line: SheetLine; hoursText: string }[];
  materialsRateCents: number;
  taxTexts: { parts: string; labour: string; materials: string };
  deductibleCents: number | null;
}

/** Hours as shops type them: up to 999 with 0–2 decimals, as text and as the number the API receives. */
const hoursText = fc.tuple(fc.integer({ min: 0, max: 999 }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 2 })).map(([h, f, places]) =>
  places === 0 ? String(h) : `${h}.${String(f).padStart(2, "0").slice(0, places)}`,
);
const percentText = fc.tuple(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 999 })).map(([w, f]) => `${w}.${String(f).padStart(3, "0")}`);
const cents = fc.integer({ min: 0, max: 100_000_000 });

const lineArb = fc
  .record({
    operation: fc.constantFrom(...OPERATIONS),
    labour: fc.option(fc.record({ category: fc.constantFrom(...LABOUR_CATEGORIES), hoursText, rateCents: fc.integer({ min: 0, max: 100_000 }) })),
    part: fc.option(fc.record({ type: fc.constantFrom(...PART_TYPES), quantity: fc.integer({ min: 1, max: 999 }), unitPriceCents: cents })),
    amountCents: fc.integer({ min: -1_000_000, max: 100_000_000 }),
    // A reviewer's total for the damage may have set the labour's or the part's amount (issue 37).
    labourSet: fc.option(cents),
    partSet: fc.option(cents),
  })
  .map(({ operation, labour, part, amountCents, labourSet, partSet }) => ({
    hoursText: labour?.hoursText ?? "0",
    line: {
      id: "x",
      damage: null,
      operation,
      description: "",
      labour: labour && { category: labour.category, hours: Number(labour.hoursText), rateCents: labour.rateCents, ...(labourSet === null ? {} : { amountCents: labourSet }) },
      part: part && { ...part, number: "", description: "", ...(partSet === null ? {} : { amountCents: partSet }) },
      amountCents,
      note: "",
    } satisfies SheetLine,
  }));

const caseArb: fc.Arbitrary<Case> = fc.record({
  lines: fc.array(lineArb, { maxLength: 60 }),
  materialsRateCents: fc.integer({ min: 0, max: 100_000 }),
  taxTexts: fc.record({ parts: percentText, labour: percentText, materials: percentText }),
  deductibleCents: fc.option(cents),
});

function independent(c: Case) {
  let parts = 0n;
  let labour = 0n;
  let materials = 0n;
  let rest = 0n;
  const byCategory: Record<string, bigint> = { body: 0n, refinish: 0n, mechanical: 0n, frame: 0n };
  for (const { line, hoursText } of c.lines) {
    if (line.labour) {
      const amount = line.labour.amountCents !== undefined ? BigInt(line.labour.amountCents) : halfUp(scaled(hoursText, 2) * BigInt(line.labour.rateCents), 100n);
      labour += amount;
      byCategory[line.labour.category] += amount;
      if (line.labour.category === "refinish") materials += halfUp(scaled(hoursText, 2) * BigInt(c.materialsRateCents), 100n);
    }
    if (line.part) parts += line.part.amountCents !== undefined ? BigInt(line.part.amountCents) : BigInt(line.part.quantity) * BigInt(line.part.unitPriceCents);
    rest += BigInt(line.amountCents);
  }
  const tax = (base: bigint, text: string) => halfUp(base * scaled(text, 3), 100_000n);
  const taxTotal = tax(parts, c.taxTexts.parts) + tax(labour, c.taxTexts.labour) + tax(materials, c.taxTexts.materials);
  const total = parts + labour + materials + rest + taxTotal;
  return { parts, labour, materials, byCategory, total, taxTotal };
}

const taxRates = (c: Case): TaxRates => ({ parts: Number(c.taxTexts.parts), labour: Number(c.taxTexts.labour), materials: Number(c.taxTexts.materials) });

describe("estimate totals (decision 0021)", () => {
  it("match an independent calculation: parts, labour by category, materials, tax once per category, total", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const t = sheetTotals({ lines: c.lines.map((l) => l.line), materialsRateCents: c.materialsRateCents, taxRates: taxRates(c), deductibleCents: c.deductibleCents });
        const want = independent(c);
        expect(BigInt(t.partsCents)).toBe(want.parts);
        expect(BigInt(t.labourTotalCents)).toBe(want.labour);
        for (const category of LABOUR_CATEGORIES) expect(BigInt(t.labourCents[category])).toBe(want.byCategory[category]);
        expect(BigInt(t.materialsCents)).toBe(want.materials);
        expect(BigInt(t.taxTotalCents)).toBe(want.taxTotal);
        expect(BigInt(t.totalCents)).toBe(want.total);
        for (const v of [t.partsCents, t.labourTotalCents, t.materialsCents, t.taxTotalCents, t.totalCents]) expect(Number.isSafeInteger(v)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("the customer and the insurer pay the total between them; the customer never more than the deductible", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const t = sheetTotals({ lines: c.lines.map((l) => l.line), materialsRateCents: c.materialsRateCents, taxRates: taxRates(c), deductibleCents: c.deductibleCents });
        expect(t.customerPaysCents + t.insurerPaysCents).toBe(t.totalCents);
        if (c.deductibleCents === null) expect(t.insurerPaysCents).toBe(0);
        else if (t.totalCents >= 0) expect(t.customerPaysCents).toBe(Math.min(c.deductibleCents, t.totalCents));
      }),
      { numRuns: 300 },
    );
  });

  it("an estimate from before lines reads as lines adding up to exactly the amounts it had", () => {
    const engineLine = fc.record({
      hours: fc.integer({ min: 0, max: 4000 }).map((h) => h / 100),
      rateCents: fc.integer({ min: 0, max: 30_000 }),
      partsCents: fc.integer({ min: 0, max: 500_000 }),
      totalCents: fc.integer({ min: 0, max: 5_000_000 }),
      baseCents: fc.integer({ min: 0, max: 100_000 }),
      minimumRaise: fc.option(fc.integer({ min: 1, max: 100_000 })),
      learningCents: fc.option(fc.integer({ min: -100_000, max: 100_000 })),
      manual: fc.option(fc.option(fc.integer({ min: 0, max: 5_000_000 }))),
      refinishHours: fc.option(fc.integer({ min: 1, max: 1000 }).map((h) => h / 100)),
    });
    fc.assert(
      fc.property(fc.array(engineLine, { minLength: 1, maxLength: 20 }), fc.integer({ min: 0, max: 10_000 }), (engine, materialsRateCents) => {
        const lineItems = engine.map((e) => ({
          damageType: "dent",
          severity: "minor",
          location: "front",
          priced: true,
          labour: { hours: e.hours, hoursFrom: "default", rateCents: e.rateCents, cents: Math.round(e.hours * e.rateCents) },
          partsCents: e.partsCents,
          ...(e.refinishHours ? { refinish: { hours: e.refinishHours, rateCents: e.rateCents, cents: 0 } } : {}),
          materialsRateCents,
          totalCents: e.totalCents,
          baseCents: e.baseCents,
          modifiers: { make: 1.1, location: 1, seasonal: 1 },
          markupPercentage: 20,
          minimumApplied: e.minimumRaise !== null,
          minimumChargeCents: e.totalCents,
          subtotalCents: e.totalCents - (e.learningCents ?? 0) - (e.minimumRaise ?? 0),
          ruleCents: e.totalCents - (e.learningCents ?? 0),
          learning: { factor: 1.05, records: e.learningCents === null ? 0 : 3, cents: e.learningCents ?? 0 },
          ...(e.manual === null ? {} : { manualCents: e.manual }),
        }));
        const sheet = readSheet({ lineItems, damages: engine.map(() => ({})) });
        const t = sheetTotals(sheet);
        const expected = engine.reduce((sum, e) => sum + (e.manual === null ? e.totalCents : (e.manual ?? 0)), 0);
        expect(t.totalCents).toBe(expected);
        expect(t.taxTotalCents).toBe(0);
        // Every flat amount says why, and its steps add up to it (issue 37).
        for (const line of sheet.lines.filter((l) => l.amountCents !== 0)) {
          const steps = line.basis ?? [];
          if (steps.some((b) => b.kind === "reviewer")) continue;
          expect(steps[0]).toMatchObject({ kind: "rule" });
          expect(steps.reduce((sum, b) => sum + ("cents" in b ? b.cents : 0), 0)).toBe(line.amountCents);
        }
      }),
      { numRuns: 300 },
    );
  });
});
