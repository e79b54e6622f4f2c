import type { AssessmentRecord, FoundDamageRecord } from "~/models/assessment.server";
import type { EstimateChange } from "~/models/estimate.server";
import type { AssessmentStatus } from "~/schemas/assessment";
import type { EstimateEditInput, EstimateRow } from "~/schemas/estimate";
import { aiCents, asLines, formatCents, humanizeType, lineCents, linesTotalCents, type EstimateLine } from "~/utils/estimate-lines";

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

export function planEdit(current: AssessmentRecord, input: EstimateEditInput, editorName: string, contact?: ContactChange): EditPlan {
  const damagesBefore = current.damages ?? [];
  const linesBefore = asLines(current.lineItems ?? []);
  // Lines match damages one for one when the engine priced them (else there are none yet).
  const lineOf = (i: number): EstimateLine | undefined => (linesBefore.length === damagesBefore.length ? linesBefore[i] : undefined);
  const changes: string[] = [];
  const learning: LearningFromEdit[] = [];
  const damages: FoundDamageRecord[] = [];
  const lines: EstimateLine[] = [];
  const unknownLine = input.damages.findIndex((row) => row.line !== undefined && row.line >= damagesBefore.length);

  input.damages.forEach((row: EstimateRow) => {
    const cents = row.amount === undefined ? null : Math.round(row.amount * 100);
    const before = row.line === undefined ? undefined : damagesBefore[row.line];
    const previousLine = row.line === undefined ? undefined : lineOf(row.line);
    damages.push({
      damageType: row.damageType,
      location: row.location,
      severity: row.severity,
      description: before?.description ?? `Added by ${editorName}`,
      confidence: before?.confidence ?? 1,
      ...(before?.mediaUrl ? { mediaUrl: before.mediaUrl } : {}),
    });
    const sameKind = previousLine && previousLine.damageType === row.damageType && previousLine.severity === row.severity;
    const base: EstimateLine = sameKind
      ? { ...previousLine, location: row.location }
      : { damageType: row.damageType, severity: row.severity, location: row.location, priced: false, reason: "Priced by hand" };
    delete base.manualCents;
    const line: EstimateLine = cents === aiCents(base) ? base : { ...base, manualCents: cents };
    lines.push(line);

    const previousCents = previousLine ? lineCents(previousLine) : null;
    if (!before) {
      changes.push(`Added ${label(row)}: ${formatCents(cents)}`);
      return;
    }
    if (label(before) !== label(row)) changes.push(`${label(before)} → ${label(row)}`);
    if (previousCents !== cents) changes.push(`${label(row)}: ${formatCents(previousCents)} → ${formatCents(cents)}`);
    const original = previousLine ? aiCents(previousLine) : null;
    if (sameKind && original !== null && original > 0 && cents !== null && cents !== previousCents) {
      learning.push({ damageType: row.damageType, severity: row.severity, originalEstimate: original / 100, finalCost: cents / 100 });
    }
  });
  const kept = new Set(input.damages.flatMap((row) => (row.line === undefined ? [] : [row.line])));
  damagesBefore.forEach((d, i) => {
    if (!kept.has(i)) changes.push(`Removed ${label(d)}: ${formatCents(lineOf(i) ? lineCents(lineOf(i)!) : null)}`);
  });
  if ((current.severity ?? null) !== (input.severity ?? null)) {
    changes.push(`Severity: ${current.severity ?? "not determined"} → ${input.severity ?? "not determined"}`);
  }

  if (contact) changes.push(`Customer: ${contact.before ?? "none"} → ${contact.after}`);

  const totalBefore = current.estimatedCost === undefined ? null : Math.round(current.estimatedCost * 100);
  const totalAfter = linesTotalCents(lines);
  if (totalBefore !== totalAfter) changes.unshift(`Total: ${formatCents(totalBefore)} → ${formatCents(totalAfter)}`);
  const unpricedReasons = lines.flatMap((l) => (lineCents(l) === null ? [l.reason ?? "Amount to be determined"] : []));

  const set: Record<string, unknown> = {
    damages,
    lineItems: lines,
    damageCategories: [...new Set(damages.map((d) => d.damageType))],
  };
  const unset: string[] = [];
  if (contact) set.contactId = contact.id;
  if (input.severity) set.severity = input.severity;
  else unset.push("severity");
  if (totalAfter === null) {
    unset.push("estimatedCost");
    set.costNote = [...new Set(unpricedReasons)].join("; ");
  } else {
    set.estimatedCost = totalAfter / 100;
    unset.push("costNote");
  }
  return {
    change: { set, unset, to: AFTER_EDIT, note: input.reason, changes },
    totalBefore,
    totalAfter,
    learning,
    unknownLine: unknownLine === -1 ? null : unknownLine,
  };
}
