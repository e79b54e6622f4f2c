import { trusted, type Model, type Types } from "mongoose";

const BATCH = 100;

/**
 * Deletes every document of `filter` a batch at a time: the ids of a batch (a bounded read of the
 * filter's index), then those. One `deleteMany` over an account made the embedded engine gather
 * every matching document in its heap first: deleting a dealer with 100,000 estimates starved it for
 * 40 s and another dealer's lists answered in 8–32 s or 503 (issue 38). Answers how many went.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function deleteInBatches(model: Model<any>, filter: Record<string, unknown>) {
  let deleted = 0;
  for (;;) {
    const ids = (await model.find(filter).select({ _id: 1 }).limit(BATCH).lean<{ _id: Types.ObjectId }[]>()).map((d) => d._id);
    if (ids.length === 0) return deleted;
    deleted += (await model.deleteMany({ ...filter, _id: trusted({ $in: ids }) })).deletedCount;
  }
}
