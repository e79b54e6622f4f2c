import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DAMAGE_TYPES, SEVERITIES, type DamageType, type Severity } from "~/schemas/damage";
import {
  DEFAULT_LABOUR_HOURS,
  quote,
  type LearningRecordInput,
  type PricedLine,
  type PricingRuleInput,
} from "./pricing-engine.server";
import { readSheet, sheetTotals } from "~/utils/estimate-sheet";

const rule = (over: Partial<PricingRuleInput> = {}): PricingRuleInput => ({
  id: "r1",
  damageType: "dent",
  severity: "moderate",
  basePrice: 100,
  laborRate: 80,
  markupPercentage: 0,
  minimumCharge: 0,
  vehicleMakeModifier: {},
  locationModifier: {},
  seasonalModifier: {},
  ...over,
});
const priced = (line: unknown) => line as PricedLine;

describe("quote", () => {
  it("a rule's shop defaults: its part price, refinish hours at the refinish rate and paint materials per refinish hour; the estimate's lines add up to its figure", () => {
    const q = quote({
      damages: [{ damageType: "dent", severity: "moderate", location: "front" }],
      rules: [rule({ partPrice: 249.99, refinishHours: 1.5, refinishRate: 60, materialsRate: 35, markupPercentage: 10 })],
      trainingExamples: [{ damageType: "dent", severity: "moderate", laborHours: 3, partsCost: 900 }],
      learningRecords: [],
    });
    const line = priced(q.lines[0]);
    expect(line.partsCents).toBe(24999);
    expect(line.refinish).toEqual({ hours: 1.5, rateCents: 6000, cents: 9000 });
    expect(line).toMatchObject({ materialsRateCents: 3500, materialsCents: 5250 });
    // (base 100 + labour 3 h × 80 + part 249.99 + refinish 90 + materials 52.50) × 1.10
    expect(line.totalCents).toBe(Math.round((10000 + 24000 + 24999 + 9000 + 5250) * 1.1));
    const sheet = readSheet({ lineItems: q.lines as unknown as Record<string, unknown>[], damages: [{}] });
    expect(sheet.lines.map((l) => [l.operation, l.labour?.category, l.labour?.hours])).toEqual([
      ["repair", "body", 3],
      ["refinish", "refinish", 1.5],
    ]);
    expect(sheet.materialsRateCents).toBe(3500);
    expect(sheetTotals(sheet).totalCents).toBe(line.totalCents);
  });

  it("prices a damage from its rule, default hours and no parts when nothing is trained", () => {
    const q = quote({ damages: [{ damageType: "dent", severity: "moderate", location: "front" }], rules: [rule()], trainingExamples: [], learningRecords: [] });
    const line = priced(q.lines[0]);
    expect(line.labour).toEqual({ hours: DEFAULT_LABOUR_HOURS.moderate, hoursFrom: "default", rateCents: 8000, cents: 20000 });
    expect(line.partsCents).toBe(0);
    expect(line.totalCents).toBe(10000 + 20000);
    expect(q).toMatchObject({ totalCents: 30000, complete: true });
  });

  it("uses the medians of verified training examples, the modifiers, the markup and the minimum", () => {
    const q = quote({
      damages: [{ damageType: "dent", severity: "moderate", location: "front" }],
      rules: [
        rule({
          markupPercentage: 10,
          vehicleMakeModifier: { BMW: 1.2 },
          locationModifier: { front: 1.1 },
          seasonalModifier: { "12": 1.05 },
        }),
      ],
      trainingExamples: [
        { damageType: "dent", severity: "moderate", laborHours: 1, partsCost: 50 },
        { damageType: "dent", severity: "moderate", laborHours: 3, partsCost: 150 },
        { damageType: "dent", severity: "moderate", laborHours: 2, partsCost: null },
        { damageType: "dent", severity: "major", laborHours: 40, partsCost: 4000 },
      ],
      learningRecords: [],
      vehicleMake: "bmw",
      date: new Date("2026-12-05T12:00:00Z"),
    });
    const line = priced(q.lines[0]);
    expect(line.labour).toMatchObject({ hours: 2, hoursFrom: "training", cents: 16000 });
    expect(line.partsCents).toBe(10000);
    expect(line.modifiers).toEqual({ make: 1.2, location: 1.1, seasonal: 1.05 });
    // (100 + 160 + 100) × 1.2 × 1.1 × 1.05 × 1.1 = 548.856 → $548.86
    expect(line.totalCents).toBe(54886);

    const minimum = quote({ damages: [{ damageType: "dent", severity: "moderate" }], rules: [rule({ minimumCharge: 999 })], trainingExamples: [], learningRecords: [] });
    expect(priced(minimum.lines[0])).toMatchObject({ minimumApplied: true, totalCents: 99900 });
  });

  it("leaves a damage without an active rule unpriced and the quote incomplete", () => {
    const q = quote({
      damages: [
        { damageType: "dent", severity: "moderate" },
        { damageType: "rust", severity: "severe" },
      ],
      rules: [rule()],
      trainingExamples: [],
      learningRecords: [],
    });
    expect(q.lines[1]).toEqual({ damageType: "rust", severity: "severe", location: null, priced: false, reason: "No active pricing rule for rust (severe)" });
    expect(q).toMatchObject({ totalCents: 30000, complete: false });
  });

  it("moves a line by the weighted learning factor, shown as its own amount and clamped", () => {
    const records: LearningRecordInput[] = [
      { damageType: "dent", severity: "moderate", originalEstimate: 100, finalCost: 150, learningWeight: 3 },
      { damageType: "dent", severity: "moderate", originalEstimate: 100, finalCost: 50, learningWeight: 1 },
      { damageType: "scratch", severity: "moderate", originalEstimate: 100, finalCost: 1000, learningWeight: 1 },
    ];
    const line = priced(quote({ damages: [{ damageType: "dent", severity: "moderate" }], rules: [rule()], trainingExamples: [], learningRecords: records }).lines[0]);
    // (1.5 × 3 + 0.5 × 1) / 4 = 1.25
    expect(line.learning).toEqual({ factor: 1.25, records: 2, cents: 7500 });
    expect(line.totalCents).toBe(37500);
    const wild = priced(
      quote({
        damages: [{ damageType: "dent", severity: "moderate" }],
        rules: [rule()],
        trainingExamples: [],
        learningRecords: [{ damageType: "dent", severity: "moderate", originalEstimate: 10, finalCost: 1000, learningWeight: 1 }],
      }).lines[0],
    );
    expect(wild.learning.factor).toBe(2);
  });
});

// Properties a vendor relies on.
const money = fc.double({ min: 0, max: 5000, noNaN: true, noDefaultInfinity: true }).map((v) => Math.round(v * 100) / 100);
const arbRule = fc.record({
  basePrice: money,
  laborRate: fc.double({ min: 0, max: 300, noNaN: true }).map((v) => Math.round(v * 100) / 100),
  markupPercentage: fc.double({ min: 0, max: 100, noNaN: true }),
  minimumCharge: money,
});
const arbDamageType = fc.constantFrom(...DAMAGE_TYPES);

describe("quote properties", () => {
  it("is monotone in severity when the rules are", () => {
    fc.assert(
      fc.property(arbDamageType, arbRule, fc.array(fc.tuple(money, money, fc.double({ min: 0, max: 10, noNaN: true })), { minLength: 3, maxLength: 3 }), (damageType, first, steps) => {
        // Each severity's rule is at least the milder one's in every parameter.
        const rules: PricingRuleInput[] = [];
        let current = first;
        SEVERITIES.forEach((severity, i) => {
          if (i > 0) {
            const [base, minimum, markup] = steps[i - 1];
            current = { basePrice: current.basePrice + base, laborRate: current.laborRate, markupPercentage: current.markupPercentage + markup, minimumCharge: current.minimumCharge + minimum };
          }
          rules.push(rule({ ...current, id: severity, damageType, severity }));
        });
        const totals = SEVERITIES.map((severity) => quote({ damages: [{ damageType, severity }], rules, trainingExamples: [], learningRecords: [] }).totalCents);
        for (let i = 1; i < totals.length; i++) expect(totals[i]).toBeGreaterThanOrEqual(totals[i - 1]);
      }),
    );
  });

  it("never prices a line below its rule's minimum charge, whatever the learning says", () => {
    fc.assert(
      fc.property(arbRule, fc.array(fc.record({ originalEstimate: money, finalCost: money, learningWeight: fc.double({ min: 0, max: 5, noNaN: true }) })), (r, recs) => {
        const q = quote({
          damages: [{ damageType: "dent", severity: "major" }],
          rules: [rule({ ...r, damageType: "dent", severity: "major" })],
          trainingExamples: [],
          learningRecords: recs.map((x) => ({ ...x, damageType: "dent" as DamageType, severity: "major" as Severity })),
        });
        expect(q.totalCents).toBeGreaterThanOrEqual(Math.round(r.minimumCharge * 100));
      }),
    );
  });

  it("moves toward a validated record's final cost when one is added", () => {
    fc.assert(
      fc.property(arbRule, money, fc.double({ min: 0.1, max: 5, noNaN: true }), (r, finalCost, weight) => {
        const base = { damages: [{ damageType: "dent" as const, severity: "minor" as const }], rules: [rule({ ...r, damageType: "dent", severity: "minor" })], trainingExamples: [] };
        const before = priced(quote({ ...base, learningRecords: [] }).lines[0]);
        fc.pre(before.ruleCents > 0);
        const after = priced(
          quote({ ...base, learningRecords: [{ damageType: "dent", severity: "minor", originalEstimate: before.ruleCents / 100, finalCost, learningWeight: weight }] }).lines[0],
        );
        const target = Math.round(finalCost * 100);
        expect(Math.abs(after.totalCents - target)).toBeLessThanOrEqual(Math.abs(before.totalCents - target) + 1);
      }),
    );
  });

  it("adds up the lines to the cent: the total is the sum of what each line shows", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(arbDamageType, fc.constantFrom(...SEVERITIES)), { minLength: 1, maxLength: 8 }), arbRule, (damages, r) => {
        const rules = DAMAGE_TYPES.flatMap((damageType) => SEVERITIES.map((severity) => rule({ ...r, id: `${damageType}-${severity}`, damageType, severity })));
        const q = quote({ damages: damages.map(([damageType, severity]) => ({ damageType, severity })), rules, trainingExamples: [], learningRecords: [] });
        for (const line of q.lines) expect(Number.isInteger(priced(line).totalCents)).toBe(true);
        expect(q.totalCents).toBe(q.lines.reduce((s, l) => s + priced(l).totalCents, 0));
      }),
    );
  });
});
