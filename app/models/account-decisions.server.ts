import type { AnyBulkWriteOperation } from "mongoose";
import { Types } from "mongoose";
import { partialApprovalTotal } from "~/utils/approved-total";
import { Assessment } from "./assessment.server";
import { CustomerDecision } from "./customer-decision.server";
import { settleInBatches } from "./dashboard-build.server";

const BATCH = 500;

/** What the version's copy is made from: the decision, and for an approval its total and each line's decision. */
interface DecisionSummary {
  _id: Types.ObjectId;
  decision: "approved" | "declined";
  approvedTotalCents?: number | null;
  lines?: { decision: "approved" | "declined" }[];
}

/**
 * An import's decisions put back on the versions they decided (docs/decisions/0064): the version's
 * `customerDecision` is a copy of its insert-only decision (0019), and an archive carries only the
 * decision. A version that has one already keeps it. The copies are written in bulk, so the
 * dashboard's counters are settled after them (0031); answers how many versions took a decision.
 */
export async function putDecisionsOnEstimates({ ownerId }: { ownerId: string }) {
  const owner = new Types.ObjectId(ownerId);
  let ops: AnyBulkWriteOperation[] = [];
  let modified = 0;
  const flush = async () => {
    if (ops.length) modified += (await Assessment.bulkWrite(ops, { ordered: false })).modifiedCount;
    ops = [];
  };
  const decisions = CustomerDecision.find({ ownerId: owner })
    .select({ assessmentId: 1, decision: 1, decidedAt: 1, approvedTotalCents: 1, "lines.decision": 1 })
    .lean<DecisionSummary & { assessmentId: Types.ObjectId; decidedAt: Date }>()
    .cursor();
  for await (const d of decisions) {
    ops.push({
      updateOne: {
        filter: { _id: d.assessmentId, ownerId: owner, customerDecision: null },
        update: { $set: { customerDecision: { decision: d.decision, decidedAt: d.decidedAt, decisionId: d._id, ...partialApprovalTotal(d) } } },
        timestamps: false,
      },
    });
    if (ops.length >= BATCH) await flush();
  }
  await flush();
  if (modified > 0) await settleInBatches(owner);
  return modified;
}

/**
 * Approvals recorded before the version's copy kept the approved total (a data migration): the copy
 * gets it, so the dashboard's revenue counts what was approved (docs/decisions/0063). Each update
 * goes through the model, which settles the owner's counters. Answers how many versions took it.
 */
export async function copyApprovedTotalsToEstimates() {
  let modified = 0;
  const decisions = CustomerDecision.find({ decision: "approved", "lines.decision": "declined" })
    .select({ ownerId: 1, assessmentId: 1, decision: 1, approvedTotalCents: 1, "lines.decision": 1 })
    .lean<DecisionSummary & { ownerId: Types.ObjectId; assessmentId: Types.ObjectId }>()
    .cursor();
  for await (const d of decisions) {
    const { approvedTotalCents } = partialApprovalTotal(d);
    if (approvedTotalCents === undefined) continue;
    const { modifiedCount } = await Assessment.updateOne(
      { _id: d.assessmentId, ownerId: d.ownerId, "customerDecision.decisionId": d._id, "customerDecision.approvedTotalCents": null },
      { $set: { "customerDecision.approvedTotalCents": approvedTotalCents } },
      { timestamps: false },
    );
    modified += modifiedCount;
  }
  return modified;
}
