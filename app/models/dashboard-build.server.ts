import mongoose, { Types } from "mongoose";
import { applyIncrement, incrementFor, settleAssessment, TALLY_FIELDS, tallyOf, type TalliedFields } from "./dashboard-tally.server";

// Settling an account's assessments a batch at a time (docs/decisions/0031, "Existing data"): an
// account written before its counters (a restore, a bench seed) has every tally to set, and settling
// them one by one (read, swap, $inc: each its own commit on the embedded engine) took minutes at
// 50,000. Here a batch costs a few bulk writes whatever its size, with the same guarantees as one
// settle: a tally lands only on the document as it was read, and the counters move by exactly what landed.

/** Documents read and settled together (the cursor's batch). */
export const BUILD_BATCH = 1000;

interface Marked extends TalliedFields {
  /**
   * The batch whose bulk write set this tally, so the batch knows which of its writes landed. Left on
   * the document (a few bytes; nothing else reads it): clearing it cost a second write of each document.
   */
  tallyMark?: Types.ObjectId;
}
const assessments = () => mongoose.connection.collection<Marked>("assessments");

/** Each of the owner's assessments, with the fields its contribution is made from, streamed in the database's order. */
export const ownersAssessments = (ownerId: Types.ObjectId) =>
  assessments().find({ ownerId }, { projection: TALLY_FIELDS, batchSize: BUILD_BATCH });

/** The counters' `$inc` for a set of assessments whose tallies move to their contributions. */
function incrementOf(docs: TalliedFields[]) {
  const inc: Record<string, number> = {};
  for (const doc of docs) for (const [path, n] of Object.entries(incrementFor(doc.tally, tallyOf(doc)))) inc[path] = (inc[path] ?? 0) + n;
  return Object.fromEntries(Object.entries(inc).filter(([, n]) => n !== 0));
}

/**
 * Settles a batch: one bulk write sets every dirty tally, each only if the document's revision and
 * tally are still those read (every model write moves the revision), and marks it with this batch.
 * When all landed (the usual case), one `$inc` adds their differences. Otherwise the marks say which
 * landed; a document deleted meanwhile is counted from the bulk write's total (its deletion took back
 * whatever tally it had), and when that leaves it unknown which of several differing ones landed, the
 * batch answers false (the caller then sums the tallies again). Those that changed since being read
 * are settled one by one from what they are now.
 */
async function settleBatch(ownerId: Types.ObjectId, docs: TalliedFields[]) {
  const dirty = docs.filter((doc) => doc.tally !== tallyOf(doc));
  if (dirty.length === 0) return true;
  const mark = new Types.ObjectId();
  const ids = dirty.map((doc) => doc._id);
  const { modifiedCount } = await assessments().bulkWrite(
    dirty.map((doc) => ({
      updateOne: {
        filter: { _id: doc._id, revision: doc.revision ?? null, tally: doc.tally ?? null } as never,
        update: { $set: { tally: tallyOf(doc), tallyMark: mark } },
      },
    })),
    { ordered: false },
  );
  let landed = dirty;
  let changed: TalliedFields[] = [];
  let exact = true;
  if (modifiedCount !== dirty.length) {
    const now = new Map((await assessments().find({ _id: { $in: ids } }, { projection: { tallyMark: 1 } }).toArray()).map((d) => [String(d._id), d.tallyMark]));
    const ours = (doc: TalliedFields) => now.get(String(doc._id))?.equals(mark) === true;
    landed = dirty.filter(ours);
    changed = dirty.filter((doc) => now.has(String(doc._id)) && !ours(doc));
    const gone = dirty.filter((doc) => !now.has(String(doc._id)));
    const goneLanded = modifiedCount - landed.length;
    const alike = new Set(gone.map((doc) => JSON.stringify(incrementFor(doc.tally, tallyOf(doc))))).size <= 1;
    if (goneLanded === gone.length || (goneLanded > 0 && alike)) landed = [...landed, ...gone.slice(0, goneLanded)];
    else if (goneLanded > 0) exact = false;
  }
  await applyIncrement(ownerId, incrementOf(landed));
  for (const doc of changed) await settleAssessment(doc._id);
  return exact;
}

/**
 * Settles every assessment of the account whose tally is not its contribution, BUILD_BATCH at a
 * time; `keepGoing` is asked after each batch (a build renews its lease there). Answers whether the
 * counters moved by exactly what was settled (false: rare, see settleBatch) and whether it went through.
 */
export async function settleInBatches(ownerId: Types.ObjectId, keepGoing: () => Promise<boolean> = async () => true) {
  let exact = true;
  let batch: TalliedFields[] = [];
  const flush = async () => {
    exact = (await settleBatch(ownerId, batch)) && exact;
    batch = [];
    return keepGoing();
  };
  for await (const doc of ownersAssessments(ownerId)) {
    batch.push(doc);
    if (batch.length === BUILD_BATCH && !(await flush())) return { exact, done: false };
  }
  return { exact, done: batch.length === 0 || (await flush()) };
}
