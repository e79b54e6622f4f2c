import { setTimeout as sleep } from "node:timers/promises";
import mongoose, { Schema, trusted, type Types } from "mongoose";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useTestDb } from "../../tests/test-db";
import { dbNow, dbNowMs } from "~/utils/db-clock.server";
import { LeaseQueue, type LeaseRun } from "./lease-queue.server";

/** A queue of the test's own, on the real database: the smallest claim/renew/release/recover a queue would write. */
interface ItemRecord {
  _id: Types.ObjectId;
  state: "queued" | "running" | "done";
  workerId?: string;
  leaseUntil?: Date;
  recovered?: boolean;
}
const Item =
  (mongoose.models.LeaseTestItem as mongoose.Model<ItemRecord> | undefined) ??
  mongoose.model<ItemRecord>(
    "LeaseTestItem",
    new Schema<ItemRecord>({ state: { type: String, required: true }, workerId: String, leaseUntil: Date, recovered: Boolean }, { collection: "lease_test_items" }),
  );

const mine = (id: Types.ObjectId, workerId: string) => ({ _id: id, state: "running" as const, workerId });
const claimNext = (workerId: string, leaseMs: number) =>
  Item.findOneAndUpdate({ state: "queued" }, { $set: { state: "running", workerId, leaseUntil: new Date(dbNowMs() + leaseMs) } }, { sort: { _id: 1 }, returnDocument: "after" }).lean<ItemRecord>();
const renew = async (id: Types.ObjectId, workerId: string, leaseUntil: Date) => (await Item.updateOne(mine(id, workerId), { $set: { leaseUntil } })).matchedCount === 1;
const release = (id: Types.ObjectId, workerId: string) => Item.updateOne(mine(id, workerId), { $set: { state: "queued" }, $unset: { workerId: 1, leaseUntil: 1 } });
const finish = (id: Types.ObjectId, workerId: string) => Item.updateOne(mine(id, workerId), { $set: { state: "done" } });
const recoverDead = () =>
  Item.updateMany({ state: "running", leaseUntil: trusted({ $lt: dbNow() }) }, { $set: { state: "queued", recovered: true }, $unset: { workerId: 1, leaseUntil: 1 } });

let queues: LeaseQueue[] = [];
let serial = 0;

/** A started worker over the test queue running `run` for each item (then marking it done unless its lease was lost). */
function worker(run: (item: ItemRecord, context: LeaseRun, workerId: string) => Promise<unknown>, { leaseMs = 300, concurrency = 2, recover = false, renewal = renew } = {}) {
  const workerId = `w${++serial}`;
  const queue = new LeaseQueue({
    label: "lease test",
    concurrency,
    leaseMs,
    pollMs: 30,
    recover: recover ? recoverDead : undefined,
    recoverEveryMs: 50,
    claim: async () => {
      const item = await claimNext(workerId, leaseMs);
      if (!item) return [];
      return [
        {
          lease: { until: item.leaseUntil!.getTime(), renew: (until) => renewal(item._id, workerId, until) },
          run: async (context) => {
            await run(item, context, workerId);
            if (!context.signal.aborted) await finish(item._id, workerId);
          },
          handBack: () => release(item._id, workerId),
        },
      ];
    },
  }).start();
  queues.push(queue);
  return { queue, workerId };
}

async function until(check: () => Promise<boolean> | boolean, ms = 5000) {
  for (const t0 = Date.now(); Date.now() - t0 < ms; await sleep(20)) if (await check()) return true;
  return false;
}

const aborted = (signal: AbortSignal) => new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));

describe("lease queue", () => {
  beforeEach(async () => {
    await useTestDb();
  });
  afterEach(async () => {
    await Promise.all(queues.map((q) => q.stop({ graceMs: 0 })));
    queues = [];
  });

  it("gives each item to one worker only, and never runs more than its concurrency at once", async () => {
    await Item.insertMany(Array.from({ length: 16 }, () => ({ state: "queued" })));
    const runs = new Map<string, number>();
    const now = new Map<string, number>();
    let most = 0;
    const run = async (item: ItemRecord, _: LeaseRun, workerId: string) => {
      runs.set(String(item._id), (runs.get(String(item._id)) ?? 0) + 1);
      now.set(workerId, (now.get(workerId) ?? 0) + 1);
      most = Math.max(most, now.get(workerId)!);
      await sleep(40);
      now.set(workerId, now.get(workerId)! - 1);
    };
    worker(run, { concurrency: 3 });
    worker(run, { concurrency: 3 });
    expect(await until(async () => (await Item.countDocuments({ state: "done" })) === 16)).toBe(true);
    expect(runs.size).toBe(16);
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    expect(most).toBeLessThanOrEqual(3);
    expect(most).toBeGreaterThan(1);
  });

  it("keeps a long run's lease alive with the heartbeat, so no other worker takes it", async () => {
    const { _id } = await Item.create({ state: "queued" });
    const seen: string[] = [];
    let signal: AbortSignal | undefined;
    const run = async (_: ItemRecord, context: LeaseRun, workerId: string) => {
      seen.push(workerId);
      signal = context.signal;
      await sleep(7_000); // more than three leases
    };
    // A lease long enough that a renewal (every third of it) gets through on a loaded machine: with
    // 300 ms one renewal slower than 200 ms ran the lease out under two suites' load, and with 1.2 s
    // one slower than 800 ms did while the whole suite ran.
    worker(run, { leaseMs: 2_000 });
    expect(await until(() => seen.length === 1)).toBe(true);
    // A second worker that would take it over once the lease ran out (recovery frees a dead worker's).
    worker(run, { leaseMs: 2_000, recover: true });
    expect(await until(async () => (await Item.findById(_id).lean())?.state === "done", 15_000)).toBe(true);
    expect(seen).toHaveLength(1);
    expect(signal?.aborted).toBe(false);
  });

  it("aborts the run when its lease is lost (taken over), and when it ran out before a renewal got through", async () => {
    const taken = await Item.create({ state: "queued" });
    const outcomes: string[] = [];
    let refused = 0;
    let refusedWhenAborted = 0;
    const first = worker(
      async (item, { signal, lost }) => {
        await Promise.race([aborted(signal), sleep(3_000)]);
        refusedWhenAborted = refused;
        outcomes.push(`${String(item._id)}:${signal.aborted ? (signal.reason as Error).message : "ran"}:${lost()}`);
      },
      { renewal: async (...args) => (await renew(...args)) || (refused++, false) },
    );
    expect(await until(async () => (await Item.findById(taken._id).lean())?.state === "running")).toBe(true);
    await Item.updateOne({ _id: taken._id }, { $set: { workerId: "another" } });
    expect(await until(() => outcomes.length === 1, 2_000)).toBe(true);
    expect(outcomes[0]).toBe(`${String(taken._id)}:The lease was lost:true`);
    expect((await Item.findById(taken._id).lean())?.workerId).toBe("another");
    // The first refused renewal aborts it, not the lease's end some heartbeats later.
    expect(refusedWhenAborted).toBe(1);
    // Idle, the first worker would claim the next item as soon as the second one (and renew it fine).
    await first.queue.stop({ graceMs: 0 });

    // A database that never answers the renewal: the lease's end on the database clock decides.
    const stuck = await Item.create({ state: "queued" });
    worker(
      async (item, { signal }) => {
        await Promise.race([aborted(signal), sleep(3_000)]);
        outcomes.push(`${String(item._id)}:${signal.aborted ? (signal.reason as Error).message : "ran"}`);
      },
      { renewal: () => new Promise<boolean>(() => undefined) },
    );
    expect(await until(() => outcomes.length === 2, 2_000)).toBe(true);
    expect(outcomes[1]).toBe(`${String(stuck._id)}:The lease was lost`);
  });

  it("stopping waits for the runs that finish within the grace, then hands the others back", async () => {
    const quick = await Item.create({ state: "queued" });
    const slow = await Item.create({ state: "queued" });
    const { queue } = worker(async (item, { signal }) => {
      if (String(item._id) === String(quick._id)) return sleep(100);
      await aborted(signal);
    });
    expect(await until(() => queue.active === 2)).toBe(true);
    await queue.stop({ graceMs: 300 });
    const [a, b] = await Promise.all([Item.findById(quick._id).lean(), Item.findById(slow._id).lean()]);
    expect(a?.state).toBe("done");
    expect(b).toMatchObject({ state: "queued" });
    expect(b?.workerId).toBeUndefined();
  });

  it("recovers an item whose worker died (its lease ran out) and runs it", async () => {
    const dead = await Item.create({ state: "running", workerId: "dead", leaseUntil: new Date(dbNowMs() - 1_000) });
    const ran: string[] = [];
    worker(async (item) => void ran.push(String(item._id)), { recover: true });
    expect(await until(async () => (await Item.findById(dead._id).lean())?.state === "done")).toBe(true);
    expect(ran).toEqual([String(dead._id)]);
    expect((await Item.findById(dead._id).lean())?.recovered).toBe(true);
  });
});
