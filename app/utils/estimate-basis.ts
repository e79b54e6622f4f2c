import { formatCents, humanizeType, type EstimateLine } from "./estimate-lines";

// "Why this price": how a line's figure was reached, kept on the line (`basis`) as steps with their
// numbers, worded when shown (the screens in the reader's language, the customer's page in English).
// A line's own figures (hours × rate, paint materials, quantity × price) explain themselves; the
// steps explain what is not one of those: the vendor's rule behind a flat amount and a reviewer's total.

export type LineBasis =
  /** The vendor's pricing rule for the damage's type and severity priced the line. */
  | { kind: "rule"; damageType: string; severity: string }
  /** Where the labour hours came from: the median of verified repairs, or the severity's default. */
  | { kind: "hours"; from: "training" | "default" }
  /** The rule's base price (part of the line's flat amount). */
  | { kind: "base"; cents: number }
  /** The rule's modifiers and markup on the whole repair (base, labour, parts, paint materials). */
  | { kind: "adjustment"; make: number; location: number; seasonal: number; markupPercent: number; cents: number }
  /** The repair came to less than the rule's minimum charge and was raised to it. */
  | { kind: "minimum"; minimumCents: number; cents: number }
  /** The vendor's reviewed estimates of this kind moved the figure by a factor. */
  | { kind: "learning"; factor: number; records: number; cents: number }
  /** A reviewer set the damage's total (null before: it had no price); spread over its figures in proportion. */
  | { kind: "reviewer"; fromCents: number | null; toCents: number };

type Translate = (text: string, vars?: Record<string, string | number>) => string;

const signed = (cents: number) => (cents < 0 ? formatCents(cents) : `+${formatCents(cents)}`);
const factorText = (factor: number) => String(Math.round(factor * 10_000) / 10_000);

/** "dent" from its option label's translation ("Dent"), as it reads mid-sentence. */
const damageName = (type: string, tr: Translate) => {
  const label = humanizeType(type);
  return tr(label.charAt(0).toUpperCase() + label.slice(1)).toLowerCase();
};

/** One step in words, through the caller's translation (its English text is the message key). */
export function basisText(step: LineBasis, tr: Translate): string {
  switch (step.kind) {
    case "rule":
      return tr("The vendor's price for {{damage}} ({{severity}})", { damage: damageName(step.damageType, tr), severity: tr(step.severity) });
    case "hours":
      return step.from === "training" ? tr("Hours: the median of verified repairs of this kind") : tr("Hours: the usual time for this severity");
    case "base":
      return tr("Base price {{amount}}", { amount: formatCents(step.cents) });
    case "adjustment": {
      const factors = [
        step.make !== 1 ? tr("vehicle make × {{factor}}", { factor: factorText(step.make) }) : null,
        step.location !== 1 ? tr("location × {{factor}}", { factor: factorText(step.location) }) : null,
        step.seasonal !== 1 ? tr("season × {{factor}}", { factor: factorText(step.seasonal) }) : null,
        step.markupPercent !== 0 ? tr("markup {{percent}}%", { percent: step.markupPercent }) : null,
      ].filter((f): f is string => f !== null);
      // No modifier or markup: what is left is the engine's own rounding (or a line stored by hand).
      if (factors.length === 0) return tr("Adjustment to the rule's figure: {{amount}}", { amount: signed(step.cents) });
      return tr("Modifiers and markup on the whole repair ({{factors}}): {{amount}}", { factors: factors.join(", "), amount: signed(step.cents) });
    }
    case "minimum":
      return tr("Raised to the minimum charge of {{minimum}}: {{amount}}", { minimum: formatCents(step.minimumCents), amount: signed(step.cents) });
    case "learning":
      return tr("Adjusted × {{factor}} from {{records}} reviewed estimates of this kind: {{amount}}", {
        factor: factorText(step.factor),
        records: step.records,
        amount: signed(step.cents),
      });
    case "reviewer":
      return step.fromCents === null
        ? tr("Priced by a reviewer at {{to}} for this damage", { to: formatCents(step.toCents) })
        : tr("A reviewer set this damage's total from {{from}} to {{to}}, spread over its labour, parts and flat amounts in proportion", {
            from: formatCents(step.fromCents),
            to: formatCents(step.toCents),
          });
  }
}

/**
 * The steps behind the flat amount the engine's figure leaves on a damage's main line once its
 * labour, part and refinish are lines of their own: the base price, modifiers and markup, the
 * minimum charge and learning. `flatCents` is that amount; the modifiers' step takes what the
 * sheet's exact rounding of hours × rate leaves, so the steps add up to it to the cent.
 */
export function engineBasis(line: EstimateLine, flatCents: number): LineBasis[] {
  const steps: LineBasis[] = [{ kind: "rule", damageType: line.damageType, severity: line.severity }];
  if (line.labour) steps.push({ kind: "hours", from: line.labour.hoursFrom === "training" ? "training" : "default" });
  const base = line.baseCents ?? 0;
  const minimum = line.minimumApplied && line.ruleCents !== undefined && line.subtotalCents !== undefined ? line.ruleCents - line.subtotalCents : 0;
  const learning = line.learning?.records ? line.learning.cents : 0;
  const adjustment = flatCents - base - minimum - learning;
  if (base !== 0) steps.push({ kind: "base", cents: base });
  if (adjustment !== 0) {
    const m = line.modifiers ?? { make: 1, location: 1, seasonal: 1 };
    steps.push({ kind: "adjustment", make: m.make, location: m.location, seasonal: m.seasonal, markupPercent: line.markupPercentage ?? 0, cents: adjustment });
  }
  if (minimum !== 0) steps.push({ kind: "minimum", minimumCents: line.minimumChargeCents ?? 0, cents: minimum });
  if (learning !== 0) steps.push({ kind: "learning", factor: line.learning!.factor, records: line.learning!.records, cents: learning });
  return steps;
}

// Reading what is stored (an import, an older release): an unknown or malformed step is skipped.
type Fields = Record<string, unknown>;
const isFields = (v: unknown): v is Fields => typeof v === "object" && v !== null && !Array.isArray(v);
const n = (v: unknown, fallback = 0) => (typeof v === "number" && Number.isFinite(v) ? v : fallback);
const s = (v: unknown) => (typeof v === "string" ? v : "");

function readStep(v: Fields): LineBasis | null {
  switch (v.kind) {
    case "rule":
      return { kind: "rule", damageType: s(v.damageType), severity: s(v.severity) };
    case "hours":
      return { kind: "hours", from: v.from === "training" ? "training" : "default" };
    case "base":
      return { kind: "base", cents: n(v.cents) };
    case "adjustment":
      return { kind: "adjustment", make: n(v.make, 1), location: n(v.location, 1), seasonal: n(v.seasonal, 1), markupPercent: n(v.markupPercent), cents: n(v.cents) };
    case "minimum":
      return { kind: "minimum", minimumCents: n(v.minimumCents), cents: n(v.cents) };
    case "learning":
      return { kind: "learning", factor: n(v.factor, 1), records: n(v.records), cents: n(v.cents) };
    case "reviewer":
      return { kind: "reviewer", fromCents: typeof v.fromCents === "number" ? n(v.fromCents) : null, toCents: n(v.toCents) };
    default:
      return null;
  }
}

export function readBasis(v: unknown): LineBasis[] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v.filter(isFields).flatMap((step) => readStep(step) ?? []);
}
