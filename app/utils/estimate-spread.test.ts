import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LABOUR_CATEGORIES, PART_TYPES } from "~/schemas/estimate-sheet";
import { labourCentsOf, lineTotalCents, materialsCentsOf, partsCentsOf, sheetTotals, type SheetLine } from "./estimate-sheet";
import { spreadDamageTotal } from "./estimate-spread";

// A reviewer's total for a damage spread over its lines (decision 0021, issue 37), property-tested
// against an independent BigInt calculation: the exact total, each share the floor or the ceiling
// of its exact proportion, no negative figure, paint materials as they were, and tax per category
// equal to the tax of that category's sum.

const cents = fc.integer({ min: 0, max: 2_000_000 });
const lineArb = fc
  .record({
    labour: fc.option(fc.record({ category: fc.constantFrom(...LABOUR_CATEGORIES), hundredths: fc.integer({ min: 0, max: 4000 }), rateCents: fc.integer({ min: 0, max: 30_000 }) })),
    part: fc.option(fc.record({ type: fc.constantFrom(...PART_TYPES), quantity: fc.integer({ min: 1, max: 9 }), unitPriceCents: cents })),
    amountCents: fc.oneof(fc.constant(0), cents, fc.integer({ min: -50_000, max: -1 })),
  })
  .map(({ labour, part, amountCents }, ): SheetLine => ({
    id: "x",
    damage: 0,
    operation: "repair",
    description: "",
    labour: labour && { category: labour.category, hours: labour.hundredths / 100, rateCents: labour.rateCents },
    part: part && { ...part, number: "", description: "" },
    amountCents,
    note: "",
  }));

const figuresOf = (line: SheetLine) => [labourCentsOf(line), partsCentsOf(line), Math.max(0, line.amountCents)];
const halfUp = (n: bigint, d: bigint) => (2n * n + d) / (2n * d);

describe("spreading a reviewer's total over a damage's lines", () => {
  it("keeps the exact total, shares in proportion, no negative figure, materials and allowances as they were", () => {
    fc.assert(
      fc.property(fc.array(lineArb, { minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 20_000_000 }), (lines, rate, target) => {
        const materials = lines.reduce((sum, l) => sum + BigInt(materialsCentsOf(l, rate)), 0n);
        const allowances = lines.reduce((sum, l) => sum + BigInt(Math.min(0, l.amountCents)), 0n);
        const fixed = materials + allowances;
        const result = spreadDamageTotal(lines, rate, target, { kind: "reviewer", fromCents: 0, toCents: target });
        if (BigInt(target) < fixed) {
          expect(result).toEqual({ belowCents: Number(fixed) });
          return;
        }
        if (!("lines" in result)) throw new Error("spread refused a reachable total");
        const after = result.lines;
        expect(after.reduce((sum, l) => sum + BigInt(lineTotalCents(l, rate)), 0n)).toBe(BigInt(target));
        const rest = BigInt(target) - fixed;
        const before = lines.flatMap(figuresOf).map(BigInt);
        const weight = before.reduce((a, b) => a + b, 0n);
        const shares = after.flatMap(figuresOf).map(BigInt);
        after.forEach((l, i) => {
          expect(l.labour?.category).toBe(lines[i].labour?.category);
          expect(l.labour?.hours).toBe(lines[i].labour?.hours);
          expect(l.part?.quantity).toBe(lines[i].part?.quantity);
          expect(materialsCentsOf(l, rate)).toBe(materialsCentsOf(lines[i], rate));
          const allowancesOnly = lines.every((x) => x.amountCents < 0 && labourCentsOf(x) === 0 && partsCentsOf(x) === 0);
          if (lines[i].amountCents < 0 && !(allowancesOnly && i === 0)) expect(l.amountCents).toBe(lines[i].amountCents);
          expect(l.basis).toEqual([{ kind: "reviewer", fromCents: 0, toCents: target }]);
        });
        for (const s of shares) expect(s >= 0n).toBe(true);
        if (weight === 0n) return;
        before.forEach((w, k) => {
          const floor = (rest * w) / weight;
          expect(shares[k] === floor || shares[k] === floor + 1n).toBe(true);
        });
      }),
      { numRuns: 500 },
    );
  });

  it("tax per category is the tax of that category's sum, labour, parts and paint materials alike", () => {
    fc.assert(
      fc.property(fc.array(lineArb, { minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 20_000_000 }), fc.integer({ min: 0, max: 15_000 }), (lines, rate, target, permille) => {
        const result = spreadDamageTotal(lines, rate, target, { kind: "reviewer", fromCents: 0, toCents: target });
        if (!("lines" in result)) return;
        const percent = permille / 1000;
        const t = sheetTotals({ lines: result.lines, materialsRateCents: rate, taxRates: { parts: percent, labour: percent, materials: percent }, deductibleCents: null });
        const sum = (f: (l: SheetLine) => number) => result.lines.reduce((s, l) => s + BigInt(f(l)), 0n);
        const tax = (base: bigint) => Number(halfUp(base * BigInt(permille), 100_000n));
        expect(t.taxCents).toEqual({ labour: tax(sum(labourCentsOf)), parts: tax(sum(partsCentsOf)), materials: tax(sum((l) => materialsCentsOf(l, rate))) });
      }),
      { numRuns: 300 },
    );
  });
});
