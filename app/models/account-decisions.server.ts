import type { AnyBulkWriteOperation } from "mongoose";
import { Types } from "mongoose";
import { Assessment } from "./assessment.server";
import { CustomerDecision } from "./customer-decision.server";
import { settleInBatches } from "./dashboard-build.server";

const BATCH = 500;

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
  const decisions = CustomerDecision.find({ ownerId: owner }).select({ assessmentId: 1, decision: 1, decidedAt: 1 }).lean<{ _id: Types.ObjectId; assessmentId: Types.ObjectId; decision: "approved" | "declined"; decidedAt: Date }>().cursor();
  for await (const d of decisions) {
    ops.push({
      updateOne: {
        filter: { _id: d.assessmentId, ownerId: owner, customerDecision: null },
        update: { $set: { customerDecision: { decision: d.decision, decidedAt: d.decidedAt, decisionId: d._id } } },
        timestamps: false,
      },
    });
    if (ops.length >= BATCH) await flush();
  }
  await flush();
  if (modified > 0) await settleInBatches(owner);
  return modified;
}
