import { describe, expect, it } from "vitest";
import type { AssessmentRecord } from "~/models/assessment.server";
import { estimateEditSchema } from "~/schemas/estimate";
import { storedSheetSchema } from "~/schemas/estimate-sheet";
import { labourCentsOf, lineTotalCents, partsCentsOf, sheetTotals, type Sheet } from "~/utils/estimate-sheet";
import { planEdit } from "./estimate-edit.server";

// The everyday correction through the amounts path (PUT without `lines`): a reviewer types a
// damage's new total. Its labour, paint materials and parts keep their categories and their tax.

const TAX = { parts: 6, labour: 8, materials: 6 };

function estimate(lines: Sheet["lines"]): AssessmentRecord {
  const sheet: Sheet = {
    lines,
    rates: { body: 5000, refinish: 6000, mechanical: 5000, frame: 5000 },
    materialsRateCents: 3000,
    taxRates: TAX,
    deductibleCents: null,
    language: null,
    mileage: null,
  };
  return {
    damages: [{ damageType: "dent", location: "front", severity: "moderate", description: "Dent", confidence: 0.9 }],
    lineItems: [],
    estimateSheet: sheet,
    estimatedCost: sheetTotals(sheet).totalCents / 100,
  } as unknown as AssessmentRecord;
}

const labourAndRefinish: Sheet["lines"] = [
  { id: "d0-1", damage: 0, operation: "repair", description: "Dent (front)", labour: { category: "body", hours: 2, rateCents: 5000 }, part: null, amountCents: 0, note: "" },
  { id: "d0-2", damage: 0, operation: "refinish", description: "Dent (front)", labour: { category: "refinish", hours: 1.5, rateCents: 6000 }, part: null, amountCents: 0, note: "" },
];

function setAmount(current: AssessmentRecord, amount: number) {
  const input = estimateEditSchema.parse({ damages: [{ line: 0, damageType: "dent", location: "front", severity: "moderate", amount }], reason: "Agreed with the customer" });
  let n = 0;
  const plan = planEdit(current, input, "Rita Reviewer", undefined, { taxRates: TAX, newId: () => `new${n++}` });
  return plan.change.set.estimateSheet as Sheet;
}

describe("a reviewer's new amount for a damage (amounts path)", () => {
  it("spreads $300 over the damage's labour and keeps paint materials and their tax", () => {
    // Before: body 2 h × $50 = $100, refinish 1.5 h × $60 = $90, paint materials 1.5 h × $30 = $45.
    const after = setAmount(estimate(labourAndRefinish), 300);
    const totals = sheetTotals(after);
    expect(totals.subtotalCents).toBe(30_000);
    expect(totals.materialsCents).toBe(4500);
    // $255 of labour spread 100 : 90 → $134.21 and $120.79 (the remainder cent to the larger fraction).
    expect(totals.labourCents).toMatchObject({ body: 13_421, refinish: 12_079 });
    expect(totals.otherCents).toBe(0);
    expect(totals.taxCents).toEqual({ parts: 0, labour: 2040, materials: 270 });
    expect(after.lines.map((l) => l.labour?.category)).toEqual(["body", "refinish"]);
    expect(after.lines.every((l) => l.basis?.some((b) => b.kind === "reviewer"))).toBe(true);
  });

  it("spreads over a part too, and a damage priced by hand gets a flat amount on a named operation", () => {
    const withPart = estimate([{ ...labourAndRefinish[0], part: { type: "oem", number: "P1", description: "Clip", quantity: 2, unitPriceCents: 2500 } }]);
    const after = setAmount(withPart, 151.01);
    const [line] = after.lines;
    expect(lineTotalCents(line, after.materialsRateCents)).toBe(15_101);
    // 100 : 50 → labour $100.67 and parts $50.34 (fractions .67 and .33: the cent goes to labour).
    expect([labourCentsOf(line), partsCentsOf(line)]).toEqual([10_067, 5034]);

    const byHand = setAmount(estimate([]), 120);
    expect(byHand.lines).toHaveLength(1);
    expect(byHand.lines[0]).toMatchObject({ operation: "repair", description: "dent (front)", amountCents: 12_000 });
    expect(byHand.lines[0].basis).toEqual([{ kind: "reviewer", fromCents: null, toCents: 12_000 }]);
  });

  it("the sheet it stores re-imports as it is: set amounts and why this price kept, the same totals", () => {
    const after = setAmount(estimate(labourAndRefinish), 300);
    const imported = storedSheetSchema.parse(JSON.parse(JSON.stringify(after)));
    expect(imported.lines).toEqual(after.lines);
    expect(sheetTotals(imported)).toEqual(sheetTotals(after));
  });

  it("refuses an amount below the damage's paint materials (they stay refinish hours × the materials rate)", () => {
    expect(() => setAmount(estimate(labourAndRefinish), 40)).toThrow(/paint materials/);
  });
});

describe("a line marked optional by the reviewer (issue 40 item 6)", () => {
  const edit = (current: AssessmentRecord, lines: Record<string, unknown>[]) => {
    const input = estimateEditSchema.parse({ damages: [{ line: 0, damageType: "dent", location: "front", severity: "moderate" }], lines, reason: "Options" });
    let n = 0;
    return planEdit(current, input, "Rita Reviewer", undefined, { taxRates: TAX, newId: () => `new${n++}` });
  };
  const row = (id: string, extra: Record<string, unknown> = {}) => ({ id, damage: 0, operation: "repair", description: "Dent (front)", labourCategory: "body", hours: 2, ...extra });

  it("marks a line optional, keeps the mark when a row does not say, clears it when told; the audit says so", () => {
    const marked = edit(estimate(labourAndRefinish), [row("d0-1"), row("d0-2", { operation: "refinish", labourCategory: "refinish", hours: 1.5, optional: true })]);
    const after = marked.change.set.estimateSheet as Sheet;
    expect(after.lines.map((l) => l.optional ?? false)).toEqual([false, true]);
    expect(marked.change.changes.join("\n")).toContain("required required → optional");
    // Stored and read back, an edit that leaves `optional` out keeps it; `false` clears it.
    const current = { ...estimate(labourAndRefinish), estimateSheet: after } as unknown as AssessmentRecord;
    const kept = edit(current, [row("d0-1"), row("d0-2", { operation: "refinish", labourCategory: "refinish", hours: 1.5 })]).change.set.estimateSheet as Sheet;
    expect(kept.lines[1].optional).toBe(true);
    const cleared = edit(current, [row("d0-1"), row("d0-2", { operation: "refinish", labourCategory: "refinish", hours: 1.5, optional: false })]).change.set.estimateSheet as Sheet;
    expect(cleared.lines[1].optional).toBeUndefined();
    expect(storedSheetSchema.parse(after).lines[1].optional).toBe(true);
  });

  it("refuses an optional flag that is not true or false", () => {
    const parsed = estimateEditSchema.safeParse({ damages: [{ line: 0, damageType: "dent", location: "front", severity: "moderate" }], lines: [row("d0-1", { optional: "maybe" })], reason: "x" });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain("Optional must be true or false");
  });
});
