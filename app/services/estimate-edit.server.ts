import type { AssessmentRecord, FoundDamageRecord } from "~/models/assessment.server";
import type { EstimateChange } from "~/models/estimate.server";
import type { AssessmentStatus } from "~/schemas/assessment";
import type { EstimateEditInput, EstimateRow } from "~/schemas/estimate";
import type { SheetLineInput } from "~/schemas/estimate-sheet";
import { aiCents, asLines, formatCents, humanizeType, type EstimateLine } from "~/utils/estimate-lines";
import {
  diffSheets,
  lineTotalCents,
  OPERATION_FOR_TYPE,
  readSheet,
  sheetTotalCents,
  unpricedDamages,
  type Sheet,
  type SheetLine,
  type TaxRates,
} from "~/utils/estimate-sheet";
import { spreadDamageTotal } from "~/utils/estimate-spread";
import { Invalid } from "~/utils/domain-errors";

/**
 * An estimate edit worked out from the estimate as read and the reviewer's rows (pure, no database):
 * the new damages and lines, the total, what changed (for the audit entry) and the learning records
 * it teaches. A row keeping its damage's type and severity keeps the engine's line (its labour,
 * parts and modifiers stay on record) with the reviewer's amount beside it; a row that changes the
 * type or severity, or adds a damage, is a line priced by hand.
 */

export interface LearningFromEdit {
  damageType: string;
  severity: string;
  originalEstimate: number;
  finalCost: number;
}

export interface EditPlan {
  change: EstimateChange;
  totalBefore: number | null;
  totalAfter: number | null;
  learning: LearningFromEdit[];
  /** A row whose `line` is not one of the estimate's damages: its index. */
  unknownLine: number | null;
  /** A line whose `id` is not one of the estimate's lines: its index. */
  unknownSheetLine: number | null;
}

const label = (d: { damageType: string; severity: string; location: string | null | undefined }) =>
  `${humanizeType(d.damageType)} (${d.severity}${d.location ? `, ${d.location}` : ""})`;

/**
 * A person's edit is a review (design.md): completed and uploaded (priced by hand after a reject)
 * become reviewed, reviewed stays, and a supplement of a sent estimate starts reviewed.
 */
const AFTER_EDIT: AssessmentStatus = "reviewed";

/** A new customer for the estimate: the contact's id and the names before and after (for the audit). */
export interface ContactChange {
  id: string;
  before: string | null;
  after: string;
}

/** What an edit is priced with besides the input: the account's tax rates now, and ids for new lines. */
export interface EditContext {
  taxRates: TaxRates;
  newId: () => string;
}

/** The estimate's lines after the edit, from the lines the reviewer sent (`input.lines`). */
function linesFromInput(input: EstimateEditInput, before: Sheet, ctx: EditContext): { lines: SheetLine[]; unknownLine: number | null } {
  const known = new Map(before.lines.map((l) => [l.id, l]));
  const lines: SheetLine[] = [];
  let unknownLine: number | null = null;
  (input.lines ?? []).forEach((row: SheetLineInput, i) => {
    if (row.id !== undefined && !known.has(row.id)) unknownLine ??= i;
    const category = row.labourCategory ?? (row.hours !== undefined ? "body" : undefined);
    const line: SheetLine = {
      id: row.id ?? ctx.newId(),
      damage: row.damage ?? null,
      operation: row.operation,
      description: row.description,
      labour: category ? { category, hours: row.hours ?? 0, rateCents: row.rateCents ?? before.rates[category] } : null,
      part: row.partType
        ? { type: row.partType, number: row.partNumber, description: row.partDescription, quantity: row.quantity ?? 1, unitPriceCents: row.unitPriceCents ?? 0 }
        : null,
      amountCents: row.amountCents ?? 0,
      note: row.note,
    };
    const was = row.id === undefined ? undefined : known.get(row.id);
    // Optional (recommended, not required) as the row says; a row that does not say keeps what the line was.
    if (row.optional ?? was?.optional ?? false) line.optional = true;
    lines.push(was ? keptFromBefore(line, was, before.materialsRateCents) : line);
  });
  return { lines, unknownLine };
}

/**
 * A line sent back as it was read keeps what the lines' fields do not carry (a client, the form,
 * an older generated client): a labour or part amount a reviewer's total set stays while its hours,
 * rate (quantity, price) are the same, and the line's "why this price" stays while its figure does.
 */
function keptFromBefore(line: SheetLine, was: SheetLine, materialsRateCents: number): SheetLine {
  const next = { ...line };
  if (next.labour && was.labour?.amountCents !== undefined && next.labour.category === was.labour.category && next.labour.hours === was.labour.hours && next.labour.rateCents === was.labour.rateCents) {
    next.labour = { ...next.labour, amountCents: was.labour.amountCents };
  }
  if (next.part && was.part?.amountCents !== undefined && next.part.quantity === was.part.quantity && next.part.unitPriceCents === was.part.unitPriceCents) {
    next.part = { ...next.part, amountCents: was.part.amountCents };
  }
  if (was.basis && lineTotalCents(next, materialsRateCents) === lineTotalCents(was, materialsRateCents)) next.basis = was.basis;
  return next;
}

/**
 * The estimate's lines after an edit that sets one amount per damage (the API before issue 27): a
 * damage whose amount stays keeps its lines, another gets one line of its amount, a blank amount
 * leaves it to be determined (no line).
 */
function linesFromAmounts(input: EstimateEditInput, before: Sheet, ctx: EditContext): SheetLine[] {
  const lines: SheetLine[] = before.lines.filter((l) => l.damage === null);
  input.damages.forEach((row, j) => {
    if (row.amount === undefined) return;
    const cents = Math.round(row.amount * 100);
    const previous = row.line === undefined ? [] : before.lines.filter((l) => l.damage === row.line);
    const sum = previous.reduce((total, l) => total + lineTotalCents(l, before.materialsRateCents), 0);
    if (previous.length > 0 && sum === cents) {
      lines.push(...previous.map((l) => ({ ...l, damage: j })));
      return;
    }
    if (previous.length > 0) {
      const spread = spreadDamageTotal(previous, before.materialsRateCents, cents, { kind: "reviewer", fromCents: sum, toCents: cents });
      if ("belowCents" in spread) {
        const message = `The amount is below this damage's paint materials (${formatCents(spread.belowCents)}): change its lines instead`;
        throw new Invalid(message, { fields: { [`damages.${j}.amount`]: message } });
      }
      lines.push(...spread.lines.map((l) => ({ ...l, damage: j })));
      return;
    }
    // A damage priced by hand: a flat amount on the operation its type takes.
    lines.push({
      id: ctx.newId(),
      damage: j,
      operation: OPERATION_FOR_TYPE[row.damageType] ?? "repair",
      description: `${humanizeType(row.damageType)} (${row.location})`,
      labour: null,
      part: null,
      amountCents: cents,
      note: "",
      basis: [{ kind: "reviewer", fromCents: null, toCents: cents }],
    });
  });
  return lines;
}

const damageSum = (sheet: Sheet, damage: number) => {
  const lines = sheet.lines.filter((l) => l.damage === damage);
  return lines.length === 0 ? null : lines.reduce((total, l) => total + lineTotalCents(l, sheet.materialsRateCents), 0);
};

export function planEdit(
  current: AssessmentRecord,
  input: EstimateEditInput,
  editorName: string,
  contact: ContactChange | undefined,
  ctx: EditContext,
): EditPlan {
  const damagesBefore = current.damages ?? [];
  const enginesBefore = asLines(current.lineItems ?? []);
  // Engine lines match damages one for one when the engine priced them (else there are none yet).
  const engineOf = (i: number): EstimateLine | undefined => (enginesBefore.length === damagesBefore.length ? enginesBefore[i] : undefined);
  const before = readSheet(current);
  const changes: string[] = [];
  const learning: LearningFromEdit[] = [];
  const damages: FoundDamageRecord[] = [];
  const engineLines: EstimateLine[] = [];
  const unknownDamage = input.damages.findIndex((row) => row.line !== undefined && row.line >= damagesBefore.length);

  input.damages.forEach((row: EstimateRow) => {
    const was = row.line === undefined ? undefined : damagesBefore[row.line];
    const engine = row.line === undefined ? undefined : engineOf(row.line);
    damages.push({
      damageType: row.damageType,
      location: row.location,
      severity: row.severity,
      description: was?.description ?? `Added by ${editorName}`,
      confidence: was?.confidence ?? 1,
      ...(was?.mediaUrl ? { mediaUrl: was.mediaUrl } : {}),
    });
    const sameKind = engine && engine.damageType === row.damageType && engine.severity === row.severity;
    const kept: EstimateLine = sameKind
      ? { ...engine, location: row.location }
      : { damageType: row.damageType, severity: row.severity, location: row.location, priced: false, reason: "Priced by hand" };
    delete kept.manualCents;
    engineLines.push(kept);
  });

  const fromLines = input.lines ? linesFromInput(input, before, ctx) : null;
  const after: Sheet = {
    lines: fromLines ? fromLines.lines : linesFromAmounts(input, before, ctx),
    rates: before.rates,
    materialsRateCents: input.materialsRateCents ?? before.materialsRateCents,
    taxRates: ctx.taxRates,
    deductibleCents: input.deductibleCents === undefined ? before.deductibleCents : input.deductibleCents,
    language: input.language ?? before.language,
    mileage: input.mileage === undefined ? before.mileage : input.mileage,
  };

  input.damages.forEach((row, j) => {
    const was = row.line === undefined ? undefined : damagesBefore[row.line];
    const cents = damageSum(after, j);
    if (!was) {
      changes.push(`Added ${label(row)}: ${formatCents(cents)}`);
      return;
    }
    const previousCents = damageSum(before, row.line!);
    if (label(was) !== label(row)) changes.push(`${label(was)} → ${label(row)}`);
    if (previousCents !== cents) changes.push(`${label(row)}: ${formatCents(previousCents)} → ${formatCents(cents)}`);
    const engine = engineOf(row.line!);
    const original = engine ? aiCents(engine) : null;
    const sameKind = engine && engine.damageType === row.damageType && engine.severity === row.severity;
    if (sameKind && original !== null && original > 0 && cents !== null && cents !== previousCents) {
      learning.push({ damageType: row.damageType, severity: row.severity, originalEstimate: original / 100, finalCost: cents / 100 });
    }
  });
  const keptDamages = new Set(input.damages.flatMap((row) => (row.line === undefined ? [] : [row.line])));
  damagesBefore.forEach((d, i) => {
    if (!keptDamages.has(i)) changes.push(`Removed ${label(d)}: ${formatCents(damageSum(before, i))}`);
  });
  changes.push(...diffSheets(before, after, { lines: Boolean(fromLines) }));
  if ((current.severity ?? null) !== (input.severity ?? null)) {
    changes.push(`Severity: ${current.severity ?? "not determined"} → ${input.severity ?? "not determined"}`);
  }
  if (contact) changes.push(`Customer: ${contact.before ?? "none"} → ${contact.after}`);

  const totalBefore = current.estimatedCost === undefined ? null : Math.round(current.estimatedCost * 100);
  const totalAfter = sheetTotalCents(after, damages.length);
  if (totalBefore !== totalAfter) changes.unshift(`Total: ${formatCents(totalBefore)} → ${formatCents(totalAfter)}`);
  const unpricedReasons = unpricedDamages(after, damages.length).map((j) => engineLines[j]?.reason ?? "Amount to be determined");

  const set: Record<string, unknown> = {
    damages,
    lineItems: engineLines,
    estimateSheet: after,
    damageCategories: [...new Set(damages.map((d) => d.damageType))],
  };
  const unset: string[] = [];
  if (contact) set.contactId = contact.id;
  if (input.severity) set.severity = input.severity;
  else unset.push("severity");
  if (totalAfter === null) {
    unset.push("estimatedCost");
    set.costNote = [...new Set(unpricedReasons.length > 0 ? unpricedReasons : ["No line items"])].join("; ");
  } else {
    set.estimatedCost = totalAfter / 100;
    unset.push("costNote");
  }
  return {
    change: { set, unset, to: AFTER_EDIT, note: input.reason, changes },
    totalBefore,
    totalAfter,
    learning,
    unknownLine: unknownDamage === -1 ? null : unknownDamage,
    unknownSheetLine: fromLines?.unknownLine ?? null,
  };
}

/**
 * What changed from one version of an estimate to the next (a sent one and its supplement): the
 * damages, the lines field by field, rates, taxes and deductible, then the total. Lines keep their
 * ids across versions (a supplement copies them), so a line is matched to itself.
 */
export function versionDifferences(before: AssessmentRecord, after: AssessmentRecord): string[] {
  const changes: string[] = [];
  const damageLabels = (r: AssessmentRecord) => (r.damages ?? []).map((d) => label(d));
  const a = damageLabels(before);
  const b = damageLabels(after);
  for (const d of b.filter((x) => !a.includes(x))) changes.push(`Added damage ${d}`);
  for (const d of a.filter((x) => !b.includes(x))) changes.push(`Removed damage ${d}`);
  changes.push(...diffSheets(readSheet(before), readSheet(after)));
  const total = (r: AssessmentRecord) => (r.estimatedCost === undefined ? null : Math.round(r.estimatedCost * 100));
  if (total(before) !== total(after)) changes.push(`Total: ${formatCents(total(before))} → ${formatCents(total(after))}`);
  return changes;
}
