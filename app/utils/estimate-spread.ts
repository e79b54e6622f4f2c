import { MAX_LINE_CENTS } from "~/schemas/estimate-sheet";
import type { LineBasis } from "./estimate-basis";
import { hoursCents, labourCentsOf, materialsCentsOf, partsCentsOf, type SheetLine } from "./estimate-sheet";

// A reviewer's new total for one damage, spread over the figures its lines already have (decision
// 0021): each line's labour, part and flat amount takes a share in proportion to what it was (as a
// new rate or unit price when one gives it exactly, else as the figure's set amount), so
// labour, parts and paint materials keep their categories and their tax. Paint materials stay
// refinish hours × the materials rate (they are not a price the reviewer moves) and an allowance
// (a negative amount) stays as it is; the rest is what is spread.

type Figure = { line: number; kind: "labour" | "part" | "amount"; cents: number };

export type Spread = { lines: SheetLine[] } | { belowCents: number };

/**
 * Integer cents by largest remainder: each share is floor(rest × figure ÷ sum); the cents left over
 * (fewer than the figures) go one each to the largest fractions, ties to the earlier figure (line
 * order, then labour, part, flat amount). Exact: BigInt, no floating-point product.
 */
export function apportion(restCents: number, weights: number[]): number[] {
  const total = weights.reduce((a, w) => a + BigInt(w), 0n);
  const rest = BigInt(restCents);
  const floors = weights.map((w) => (rest * BigInt(w)) / total);
  const fractions = weights.map((w, i) => ({ i, r: (rest * BigInt(w)) % total }));
  let left = Number(rest - floors.reduce((a, f) => a + f, 0n));
  fractions.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  const shares = floors.map(Number);
  for (const { i } of fractions) {
    if (left === 0) break;
    shares[i] += 1;
    left -= 1;
  }
  return shares;
}

/**
 * One damage's lines brought to `targetCents` before tax, each marked with `basis`. A damage whose
 * lines have no positive figure to scale takes the rest as a flat amount. Answers
 * `belowCents` (what cannot be spread: paint materials less allowances) when the target is below it.
 */
export function spreadDamageTotal(lines: SheetLine[], materialsRateCents: number, targetCents: number, basis: LineBasis): Spread {
  const figures: Figure[] = [];
  let fixed = 0;
  lines.forEach((line, i) => {
    fixed += materialsCentsOf(line, materialsRateCents);
    const labour = labourCentsOf(line);
    const part = partsCentsOf(line);
    if (labour > 0) figures.push({ line: i, kind: "labour", cents: labour });
    if (part > 0) figures.push({ line: i, kind: "part", cents: part });
    if (line.amountCents > 0) figures.push({ line: i, kind: "amount", cents: line.amountCents });
    else fixed += line.amountCents;
  });
  const rest = targetCents - fixed;
  if (rest < 0) return { belowCents: fixed };
  const next = lines.map((line) => ({ ...line, labour: line.labour && { ...line.labour }, part: line.part && { ...line.part }, basis: [basis] }));
  if (figures.length === 0) {
    // Nothing to scale: the first line that is not an allowance takes the rest as its flat amount
    // (only a damage made of allowances alone moves its first one).
    const k = Math.max(0, lines.findIndex((l) => l.amountCents >= 0));
    next[k].amountCents += rest;
    return { lines: next };
  }
  const shares = apportion(
    rest,
    figures.map((f) => f.cents),
  );
  figures.forEach((f, k) => {
    const line = next[f.line];
    const share = shares[k];
    if (f.kind === "amount") line.amountCents = share;
    else if (f.kind === "labour" && line.labour) {
      // A rate that gives the share exactly reads as shops write it (2 h × $75.00); else the amount is set.
      delete line.labour.amountCents;
      const hundredths = Math.round(line.labour.hours * 100);
      const rate = Math.round((share * 100) / hundredths);
      if (hundredths > 0 && rate <= MAX_LINE_CENTS && hoursCents(line.labour.hours, rate) === share) line.labour.rateCents = rate;
      else if (labourCentsOf(line) !== share) line.labour.amountCents = share;
    } else if (f.kind === "part" && line.part) {
      delete line.part.amountCents;
      if (share % line.part.quantity === 0) line.part.unitPriceCents = share / line.part.quantity;
      else line.part.amountCents = share;
    }
  });
  return { lines: next };
}
