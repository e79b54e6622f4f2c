import { Schema, trusted } from "mongoose";
import { defineModel } from "./define-model.server";
import { errorCode } from "~/utils/db-errors.server";

/**
 * Fixed-window request counters in the database, so a limit holds across app instances: one
 * document per key and window, incremented atomically (an upsert), so concurrent requests each see
 * a different count. Windows are on the database's clock; old windows are swept by housekeeping.
 */
const rateCounterSchema = new Schema({
  key: { type: String, required: true },
  windowStart: { type: Date, required: true },
  count: { type: Number, default: 0 },
  expiresAt: { type: Date, required: true },
});
rateCounterSchema.index({ key: 1, windowStart: 1 }, { unique: true });
rateCounterSchema.index({ expiresAt: 1 });

export const RateCounter = defineModel("RateCounter", rateCounterSchema);

/** Counts one request under `key` in the window starting at `windowStart`; answers the count now. */
export async function countRequest({ key, windowStart, expiresAt }: { key: string; windowStart: Date; expiresAt: Date }) {
  const filter = { key, windowStart };
  const update = { $inc: { count: 1 }, $setOnInsert: { expiresAt } };
  try {
    const doc = await RateCounter.findOneAndUpdate(filter, update, { upsert: true, returnDocument: "after" }).lean<{ count: number }>();
    return doc?.count ?? 1;
  } catch (error) {
    // Two first requests of a window raced to insert: the other one's document is there now.
    if (errorCode(error) !== 11000) throw error;
    const doc = await RateCounter.findOneAndUpdate(filter, { $inc: { count: 1 } }, { returnDocument: "after" }).lean<{ count: number }>();
    return doc?.count ?? 1;
  }
}

export async function sweepRateCounters(now: Date) {
  await RateCounter.deleteMany({ expiresAt: trusted({ $lt: now }) });
}
