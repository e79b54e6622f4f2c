// What a customer's decision approved, as the dashboard, the dealer's badges and the API count it
// (docs/decisions/0063). Apart from the approval's sheet arithmetic (estimate-approval.ts): the
// badges are on most screens, and this imports nothing.

/**
 * What an estimate's copy of its decision keeps for the dashboard's revenue: the approved total of an
 * approval that left optional lines out (an approval of every line counts the estimate's cost).
 */
export function partialApprovalTotal(d: {
  decision: "approved" | "declined";
  approvedTotalCents?: number | null;
  lines?: readonly { decision: "approved" | "declined" }[] | null;
}): { approvedTotalCents?: number } {
  const total = d.decision === "approved" ? d.approvedTotalCents : null;
  return typeof total === "number" && (d.lines ?? []).some((l) => l.decision === "declined") ? { approvedTotalCents: total } : {};
}

/** An estimate's copy of its customer's decision, as the dealer's screens read it. */
export interface DecisionCopy {
  decision: "approved" | "declined";
  approvedTotalCents?: number | null;
}

/**
 * What an approval that left optional lines out approved (cents), for the dealer's badges; null for
 * a decline or an approval of the whole version (its total is the estimate's own).
 */
export function partlyApproved(decision: DecisionCopy, estimatedCost: number | null) {
  const approved = decision.decision === "approved" ? decision.approvedTotalCents : null;
  if (approved === null || approved === undefined) return null;
  return estimatedCost !== null && approved === Math.round(estimatedCost * 100) ? null : approved;
}

/** What a decision approved (cents): its kept total, else (every line approved) the estimate's cost; null for a decline or TBD. */
export function approvedTotalOf(decision: DecisionCopy, estimatedCost: number | null) {
  if (decision.decision !== "approved") return null;
  return decision.approvedTotalCents ?? (estimatedCost === null ? null : Math.round(estimatedCost * 100));
}
