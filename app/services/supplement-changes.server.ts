import type { Types } from "mongoose";
import { findAssessment, type AssessmentRecord } from "~/models/assessment.server";
import { findDecisionsOfEstimate } from "~/models/customer-decision.server";
import { findLinksOfEstimate } from "~/models/estimate-link.server";
import { findEarlierVersions } from "~/models/estimate.server";
import { estimateNumber, versionLabel } from "~/schemas/estimate-sheet";
import { lineLabel, lineTotalCents, readSheet, sheetTotalCents, type Sheet, type SheetLine } from "~/utils/estimate-sheet";

/**
 * Supplements read as supplements (issue 40 item 5, docs/decisions/0053): every version is named
 * by one label (Original, S01, S02…) and one number (the original's, with the label after it), and
 * a supplement shown to the customer says what changed since the version the customer approved
 * (else the latest one sent to them): lines added, removed and changed, the new total and the
 * difference.
 */

type ChainRecord = Pick<AssessmentRecord, "_id" | "ownerId" | "supplementOf">;

/** The first version of the estimate a version belongs to (itself for an original). */
export async function rootIdOf(record: ChainRecord): Promise<Types.ObjectId> {
  if (!record.supplementOf) return record._id;
  const earlier = await findEarlierVersions({ scope: { ownerId: String(record.ownerId) }, record });
  return earlier.at(-1)?._id ?? record.supplementOf;
}

/** The version's label and number (`1A2B3C4D-S01`), read from its chain. */
export async function versionNaming(record: ChainRecord & { version?: number }) {
  const version = record.version ?? 1;
  const rootId = await rootIdOf(record);
  return { version, versionLabel: versionLabel(version), estimateNumber: estimateNumber(String(rootId), version), rootId };
}

/** The total as the page and the PDF print it: TBD (null) while the cost is, else the sheet's total. */
export function versionTotalCents(record: Pick<AssessmentRecord, "estimatedCost" | "damages"> & Parameters<typeof readSheet>[0]) {
  const cost = record.estimatedCost ?? null;
  if (cost === null) return null;
  return sheetTotalCents(readSheet(record), (record.damages ?? []).length) ?? Math.round(cost * 100);
}

export interface LineChange {
  id: string;
  /** The line's name now (for a removed line: as it was). */
  label: string;
  /** Its name before, when it was renamed. */
  previousLabel: string | null;
  beforeCents: number | null;
  afterCents: number | null;
}

export interface LineChanges {
  added: LineChange[];
  removed: LineChange[];
  changed: LineChange[];
}

/** What a line is, for comparing two versions of it (its pricing trail is how, not what). */
const lineKey = (line: SheetLine) => JSON.stringify({ ...line, basis: undefined });

/**
 * The lines added, removed and changed (old → new) from one sheet to the next, matched by the line's
 * id (a supplement keeps its lines' ids). A line is changed when anything on it moved, its total shown
 * before and after. Pure: the unit tests call it.
 */
export function lineChanges(before: Pick<Sheet, "lines" | "materialsRateCents">, after: Pick<Sheet, "lines" | "materialsRateCents">): LineChanges {
  const old = new Map(before.lines.map((l) => [l.id, l]));
  const now = new Set(after.lines.map((l) => l.id));
  const result: LineChanges = { added: [], removed: [], changed: [] };
  for (const line of after.lines) {
    const was = old.get(line.id);
    const afterCents = lineTotalCents(line, after.materialsRateCents);
    if (!was) {
      result.added.push({ id: line.id, label: lineLabel(line), previousLabel: null, beforeCents: null, afterCents });
      continue;
    }
    const beforeCents = lineTotalCents(was, before.materialsRateCents);
    if (lineKey(was) === lineKey(line) && beforeCents === afterCents) continue;
    const renamed = lineLabel(was) !== lineLabel(line);
    result.changed.push({ id: line.id, label: lineLabel(line), previousLabel: renamed ? lineLabel(was) : null, beforeCents, afterCents });
  }
  for (const line of before.lines) {
    if (!now.has(line.id)) {
      result.removed.push({ id: line.id, label: lineLabel(line), previousLabel: null, beforeCents: lineTotalCents(line, before.materialsRateCents), afterCents: null });
    }
  }
  return result;
}

export interface SupplementChanges extends LineChanges {
  /** The version compared with: the one the customer approved, else the latest one sent to them. */
  since: { version: number; versionLabel: string; estimateNumber: string; approved: boolean; totalCents: number | null };
  totalCents: number | null;
  /** New total − the compared version's total; null while either is TBD. */
  differenceCents: number | null;
}

/**
 * For a supplement: what changed since the version its customer approved (the newest approved
 * earlier version), else since the newest earlier version sent to them (by email or a link), else
 * since the version it revises (a supplement is only made of a sent version). Null for an original.
 */
export async function changesSinceCustomerVersion(record: AssessmentRecord): Promise<SupplementChanges | null> {
  if (!record.supplementOf || (record.version ?? 1) <= 1) return null;
  const scope = { ownerId: String(record.ownerId) };
  const earlier = await findEarlierVersions({ scope, record });
  const rootId = earlier.at(-1)?._id ?? record.supplementOf;
  const earlierIds = new Set(earlier.map((v) => String(v._id)));
  const [decisions, links] = await Promise.all([findDecisionsOfEstimate({ scope, rootId }), findLinksOfEstimate({ scope, rootId })]);
  const newest = <T extends { version: number }>(items: T[]) => items.reduce<T | null>((best, x) => (best === null || x.version > best.version ? x : best), null);
  const approved = newest(decisions.filter((d) => d.decision === "approved" && earlierIds.has(String(d.assessmentId))));
  const sent = newest(links.filter((l) => earlierIds.has(String(l.assessmentId))));
  const baseId = approved?.assessmentId ?? sent?.assessmentId ?? record.supplementOf;
  const base = await findAssessment({ scope, id: String(baseId) });
  if (!base) return null;
  const baseVersion = base.version ?? 1;
  const totalCents = versionTotalCents(record);
  const baseTotal = versionTotalCents(base);
  return {
    since: {
      version: baseVersion,
      versionLabel: versionLabel(baseVersion),
      estimateNumber: estimateNumber(String(rootId), baseVersion),
      approved: approved !== null,
      totalCents: baseTotal,
    },
    ...lineChanges(readSheet(base), readSheet(record)),
    totalCents,
    differenceCents: totalCents === null || baseTotal === null ? null : totalCents - baseTotal,
  };
}

/** What an email about a version says of it: its label and number and, for a supplement, its changes. */
export async function versionForMessage(ownerId: string, id: string) {
  const record = await findAssessment({ scope: { ownerId }, id });
  if (!record) return null;
  const [naming, changes] = await Promise.all([versionNaming(record), changesSinceCustomerVersion(record)]);
  return { ...naming, changes };
}
export type MessageVersion = NonNullable<Awaited<ReturnType<typeof versionForMessage>>>;
