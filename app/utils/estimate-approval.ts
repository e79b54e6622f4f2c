import { OPERATION_LABELS } from "~/schemas/estimate-sheet";
import { lineTotalCents, sheetTotals, type Sheet } from "./estimate-sheet";

// Approval line by line (issue 40 item 6, docs/decisions/0063): the customer approves the required
// lines and the optional lines they pick; the approved total is the sheet's own total over those
// lines (each tax on what it is on, rounded once, decision 0021), worked out on the server only.

export interface LineDecision {
  id: string;
  /** As the page and the PDF name the line: its damage number, then its description or operation. */
  label: string;
  /** The index of the damage it repairs; null: the whole vehicle. */
  damage: number | null;
  optional: boolean;
  decision: "approved" | "declined";
  /** The line's amount before tax. */
  amountCents: number;
}

export interface Approval {
  lines: LineDecision[];
  /** Null while the version's total is to be determined (TBD), or for a decline. */
  approvedTotalCents: number | null;
}

export const lineName = (line: Sheet["lines"][number]) =>
  `${line.damage !== null ? `#${line.damage + 1} ` : ""}${line.description || OPERATION_LABELS[line.operation]}`;

/**
 * The ids among `chosen` that are not optional lines of this sheet (an unknown id, another
 * version's line, a required line named as a choice is harmless and not listed).
 */
export function unknownChoices(sheet: Pick<Sheet, "lines">, chosen: readonly string[]) {
  const ids = new Set(sheet.lines.map((l) => l.id));
  return chosen.filter((id) => !ids.has(id));
}

/**
 * The decision on each line and the approved total. Approve: every required line and the chosen
 * optional ones; decline: none. `versionTotalCents` is the total the version prints (null: TBD):
 * when every line is approved the approved total is that figure exactly.
 */
export function approvalOf(sheet: Sheet, decision: "approved" | "declined", chosen: readonly string[], versionTotalCents: number | null): Approval {
  const picked = new Set(chosen);
  const approved = (line: Sheet["lines"][number]) => decision === "approved" && (!line.optional || picked.has(line.id));
  const lines = sheet.lines.map(
    (line): LineDecision => ({
      id: line.id,
      label: lineName(line),
      damage: line.damage,
      optional: line.optional === true,
      decision: approved(line) ? "approved" : "declined",
      amountCents: lineTotalCents(line, sheet.materialsRateCents),
    }),
  );
  if (decision === "declined" || versionTotalCents === null) return { lines, approvedTotalCents: null };
  const kept = sheet.lines.filter(approved);
  const approvedTotalCents = kept.length === sheet.lines.length ? versionTotalCents : sheetTotals({ ...sheet, lines: kept }).totalCents;
  return { lines, approvedTotalCents };
}

/**
 * What a decision approved: its own record (line by line, docs/decisions/0063), or for one recorded
 * before (no lines kept) the whole version at the amount it stood at, or nothing for a decline.
 */
export function decisionLines(d: {
  decision: "approved" | "declined";
  estimatedCost?: number | null;
  approvedTotalCents?: number | null;
  lines?: { id: string; label?: string | null; damage?: number | null; optional?: boolean | null; decision: "approved" | "declined"; amountCents: number }[] | null;
}): { approvedTotalCents: number | null; lines: LineDecision[] | null } {
  const lines = d.lines && d.lines.length > 0 ? d.lines.map((l) => ({ id: l.id, label: l.label ?? "", damage: l.damage ?? null, optional: l.optional ?? false, decision: l.decision, amountCents: l.amountCents })) : null;
  const whole = d.decision === "approved" && d.estimatedCost !== null && d.estimatedCost !== undefined ? Math.round(d.estimatedCost * 100) : null;
  return { approvedTotalCents: d.decision === "approved" ? (d.approvedTotalCents ?? (lines ? null : whole)) : null, lines };
}
