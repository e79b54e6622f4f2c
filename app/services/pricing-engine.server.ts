import type { DamageLocation, DamageType, Severity } from "~/schemas/damage";

/**
 * The pricing engine: damages → priced line items from one vendor's active pricing rules, the
 * verified training examples and the vendor's validated learning records. Pure (no database), so
 * every figure can be traced to its inputs; money is integer cents throughout.
 *
 * For each damage, with the vendor's active rule for its (damage type, severity):
 *   labour  = labour hours × labour rate, the hours being the median of verified training items of
 *             the same type and severity (DEFAULT_LABOUR_HOURS when there are none)
 *   parts   = the median parts cost of those items (0 when none)
 *   line    = (base price + labour + parts) × make × location × seasonal modifiers × (1 + markup %),
 *             then at least the rule's minimum charge
 *   learning: the learningWeight-weighted mean of finalCost ÷ originalEstimate over the vendor's
 *             validated records of the same type and severity, clamped to [0.5, 2]; the line moves
 *             by that factor (never below the minimum charge) and the change is its own amount.
 * A damage without an active rule is "unpriced" and the quote is incomplete: no number is invented.
 */

/** Labour hours by severity when no verified training example gives a median. */
export const DEFAULT_LABOUR_HOURS: Record<Severity, number> = { minor: 1, moderate: 2.5, major: 5, severe: 8 };
export const LEARNING_FACTOR_MIN = 0.5;
export const LEARNING_FACTOR_MAX = 2;

export interface DamageToPrice {
  damageType: DamageType;
  severity: Severity;
  location?: DamageLocation;
}

/** Amounts in dollars as stored; modifiers map a key (make, location, month 1–12) to a multiplier. */
export interface PricingRuleInput {
  id: string;
  damageType: DamageType;
  severity: Severity;
  basePrice: number;
  laborRate: number;
  markupPercentage: number;
  minimumCharge: number;
  vehicleMakeModifier: Record<string, number>;
  locationModifier: Record<string, number>;
  seasonalModifier: Record<string, number>;
  /** Issue 27's shop defaults (optional): refinish hours for the damage at the refinish rate (else the labour rate), paint materials per refinish hour, the part's price (else the training median). */
  refinishHours?: number | null;
  refinishRate?: number | null;
  materialsRate?: number | null;
  partPrice?: number | null;
}

export interface TrainingExampleInput {
  damageType: DamageType;
  severity: Severity;
  laborHours?: number | null;
  partsCost?: number | null;
}

export interface LearningRecordInput {
  damageType: DamageType;
  severity: Severity;
  originalEstimate: number;
  finalCost: number;
  learningWeight: number;
}

export interface PricedLine {
  damageType: DamageType;
  severity: Severity;
  location: DamageLocation | null;
  priced: true;
  ruleId: string;
  baseCents: number;
  labour: { hours: number; hoursFrom: "training" | "default"; rateCents: number; cents: number };
  partsCents: number;
  refinish?: { hours: number; rateCents: number; cents: number };
  materialsRateCents?: number;
  materialsCents?: number;
  modifiers: { make: number; location: number; seasonal: number };
  markupPercentage: number;
  /** After modifiers and markup, before the minimum charge. */
  subtotalCents: number;
  minimumChargeCents: number;
  minimumApplied: boolean;
  /** What the rule gives (the AI estimate of this line). */
  ruleCents: number;
  learning: { factor: number; records: number; cents: number };
  totalCents: number;
}

export interface UnpricedLine {
  damageType: DamageType;
  severity: Severity;
  location: DamageLocation | null;
  priced: false;
  reason: string;
}

export type QuoteLine = PricedLine | UnpricedLine;

export interface Quote {
  lines: QuoteLine[];
  /** Sum of the priced lines (cents); with `complete` false, a lower bound. */
  totalCents: number;
  complete: boolean;
}

export interface QuoteInput {
  damages: DamageToPrice[];
  rules: PricingRuleInput[];
  trainingExamples: TrainingExampleInput[];
  learningRecords: LearningRecordInput[];
  vehicleMake?: string | null;
  date?: Date;
}

const cents = (dollars: number) => Math.round(dollars * 100);
const keyOf = (damageType: string, severity: string) => `${damageType}/${severity}`;

function median(values: number[]) {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** A modifier map's multiplier for a key (case-insensitive); 1 when absent or not a positive number. */
function modifier(map: Record<string, number>, key: string | null | undefined) {
  if (!key) return 1;
  const wanted = key.trim().toLowerCase();
  for (const [k, v] of Object.entries(map)) {
    if (k.trim().toLowerCase() === wanted && Number.isFinite(v) && v > 0) return v;
  }
  return 1;
}

function groupBy<T extends { damageType: string; severity: string }>(rows: T[]) {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const key = keyOf(row.damageType, row.severity);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}

/** The learning factor for one (type, severity): weighted mean of finalCost ÷ originalEstimate, clamped. */
export function learningFactor(records: LearningRecordInput[]) {
  let weighted = 0;
  let weights = 0;
  let used = 0;
  for (const r of records) {
    if (!(r.originalEstimate > 0) || !(r.finalCost >= 0) || !(r.learningWeight > 0)) continue;
    weighted += (r.finalCost / r.originalEstimate) * r.learningWeight;
    weights += r.learningWeight;
    used += 1;
  }
  if (used === 0) return { factor: 1, records: 0 };
  const factor = Math.min(LEARNING_FACTOR_MAX, Math.max(LEARNING_FACTOR_MIN, weighted / weights));
  return { factor, records: used };
}

export function quote(input: QuoteInput): Quote {
  const rules = new Map(input.rules.map((r) => [keyOf(r.damageType, r.severity), r]));
  const examples = groupBy(input.trainingExamples);
  const learning = groupBy(input.learningRecords);
  const month = String((input.date ?? new Date()).getUTCMonth() + 1);

  const lines = input.damages.map((damage): QuoteLine => {
    const key = keyOf(damage.damageType, damage.severity);
    const location = damage.location ?? null;
    const rule = rules.get(key);
    if (!rule) {
      return {
        damageType: damage.damageType,
        severity: damage.severity,
        location,
        priced: false,
        reason: `No active pricing rule for ${damage.damageType} (${damage.severity})`,
      };
    }
    const known = examples.get(key) ?? [];
    const trainedHours = median(known.flatMap((e) => (e.laborHours != null && e.laborHours >= 0 ? [e.laborHours] : [])));
    const hours = trainedHours ?? DEFAULT_LABOUR_HOURS[damage.severity];
    const partsCents =
      rule.partPrice != null ? cents(rule.partPrice) : cents(median(known.flatMap((e) => (e.partsCost != null && e.partsCost >= 0 ? [e.partsCost] : []))) ?? 0);
    const rateCents = cents(rule.laborRate);
    const labourCents = Math.round(hours * rateCents);
    const refinishHours = rule.refinishHours ?? 0;
    const refinish = refinishHours > 0 ? { hours: refinishHours, rateCents: cents(rule.refinishRate ?? rule.laborRate), cents: 0 } : undefined;
    if (refinish) refinish.cents = Math.round(refinish.hours * refinish.rateCents);
    const materialsRateCents = rule.materialsRate != null ? cents(rule.materialsRate) : undefined;
    const materialsCents = Math.round(refinishHours * (materialsRateCents ?? 0));
    const baseCents = cents(rule.basePrice);
    const modifiers = {
      make: modifier(rule.vehicleMakeModifier, input.vehicleMake),
      location: modifier(rule.locationModifier, location),
      seasonal: modifier(rule.seasonalModifier, month),
    };
    const subtotalCents = Math.round(
      (baseCents + labourCents + partsCents + (refinish?.cents ?? 0) + materialsCents) *
        modifiers.make *
        modifiers.location *
        modifiers.seasonal *
        (1 + rule.markupPercentage / 100),
    );
    const minimumChargeCents = cents(rule.minimumCharge);
    const ruleCents = Math.max(subtotalCents, minimumChargeCents);
    const { factor, records } = learningFactor(learning.get(key) ?? []);
    const totalCents = records === 0 ? ruleCents : Math.max(Math.round(ruleCents * factor), minimumChargeCents);
    return {
      damageType: damage.damageType,
      severity: damage.severity,
      location,
      priced: true,
      ruleId: rule.id,
      baseCents,
      labour: { hours, hoursFrom: trainedHours === undefined ? "default" : "training", rateCents, cents: labourCents },
      partsCents,
      ...(refinish ? { refinish } : {}),
      ...(materialsRateCents !== undefined ? { materialsRateCents, materialsCents } : {}),
      modifiers,
      markupPercentage: rule.markupPercentage,
      subtotalCents,
      minimumChargeCents,
      minimumApplied: subtotalCents < minimumChargeCents,
      ruleCents,
      learning: { factor, records, cents: totalCents - ruleCents },
      totalCents,
    };
  });

  return {
    lines,
    totalCents: lines.reduce((sum, line) => sum + (line.priced ? line.totalCents : 0), 0),
    complete: lines.every((line) => line.priced),
  };
}
