import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useTestDb } from "../../tests/test-db";
import { Job } from "../models/job.server";
import {
  JobQueue,
  PermanentJobError,
  enqueueJob,
  getJob,
  removeJobs,
  waitForJob,
  type JobHandler,
  type JobQueueOptions,
  type JobRecord,
  type JobRegistration,
} from "./jobs.server";

const TYPE = "test";
let queues: JobQueue[] = [];

/** A started queue running `handler` for TYPE, with short leases and polls; stopped after the test. */
function queue(handler: JobHandler, options: JobQueueOptions & Partial<JobRegistration> = {}) {
  const registry = new Map([[TYPE, { handler, onFailed: options.onFailed }]]);
  const q = new JobQueue({ leaseMs: 600, pollMs: 50, retryDelaysMs: [200], concurrency: 2, registry, ...options }).start();
  queues.push(q);
  return q;
}

async function until(check: () => Promise<boolean> | boolean, ms = 5000) {
  for (const t0 = Date.now(); Date.now() - t0 < ms; await sleep(20)) if (await check()) return true;
  return false;
}

const idOf = (job: JobRecord) => job._id.toHexString();

describe("jobs", () => {
  beforeEach(async () => {
    await useTestDb();
  });
  afterEach(async () => {
    await Promise.all(queues.map((q) => q.stop({ graceMs: 0 })));
    queues = [];
  });

  it("enqueues once per key while the job is active, and runs a finished one again", async () => {
    const first = await enqueueJob({ type: TYPE, key: "a", payload: { n: 1 } });
    const again = await enqueueJob({ type: TYPE, key: "a", payload: { n: 2 } });
    expect(idOf(again)).toBe(idOf(first));
    expect(again.payload).toEqual({ n: 1 });
    const racing = await Promise.all(Array.from({ length: 5 }, () => enqueueJob({ type: TYPE, key: "b" })));
    expect(new Set(racing.map(idOf)).size).toBe(1);
    expect(await Job.countDocuments({})).toBe(2);

    const runs: unknown[] = [];
    queue(async (job) => {
      if (job.key === "a") runs.push(job.payload.n);
      return { answer: job.payload.n };
    });
    const done = await waitForJob(idOf(first), 5000);
    expect(done).toMatchObject({ state: "done", attempts: 1, result: { answer: 1 } });

    const rerun = await enqueueJob({ type: TYPE, key: "a", payload: { n: 3 } });
    expect(idOf(rerun)).toBe(idOf(first));
    // Queued again with the new payload (this process's queue may have claimed it already).
    expect(rerun.payload).toEqual({ n: 3 });
    expect(["queued", "running"]).toContain(rerun.state);
    expect(await waitForJob(idOf(first), 5000)).toMatchObject({ state: "done", result: { answer: 3 } });
    expect(runs).toEqual([1, 3]);
  });

  it("waitForJob answers the job as it stands at the timeout, and null for an unknown id", async () => {
    const job = await enqueueJob({ type: TYPE, key: "waiting" });
    const t0 = Date.now();
    expect(await waitForJob(idOf(job), 300)).toMatchObject({ state: "queued" });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    expect(await waitForJob("0123456789abcdef01234567", 100)).toBeNull();
    expect(await waitForJob("not-an-id", 100)).toBeNull();
  });

  it("starts a job enqueued in this process without waiting for a poll", async () => {
    queue(async () => "ok", { pollMs: 10_000 });
    await sleep(100); // the queue found nothing and sleeps
    const t0 = Date.now();
    const job = await enqueueJob({ type: TYPE, key: "now" });
    expect(await waitForJob(idOf(job), 5000, { pollMs: 20 })).toMatchObject({ state: "done" });
    expect(Date.now() - t0).toBeLessThan(3000);
  });

  it("runs at most `concurrency` jobs at once", async () => {
    let now = 0;
    let most = 0;
    queue(
      async () => {
        most = Math.max(most, ++now);
        await sleep(100);
        now--;
      },
      { concurrency: 3 },
    );
    const jobs = await Promise.all(Array.from({ length: 10 }, (_, i) => enqueueJob({ type: TYPE, key: `c${i}` })));
    for (const job of jobs) expect(await waitForJob(idOf(job), 10_000)).toMatchObject({ state: "done" });
    expect(most).toBe(3);
  });

  it("never gives one job to two workers: two queues racing run each job exactly once", async () => {
    const runs = new Map<string, string[]>();
    const handler = (name: string): JobHandler => async (job) => {
      runs.set(job.key, [...(runs.get(job.key) ?? []), name]);
      await sleep(20);
    };
    const jobs = await Promise.all(Array.from({ length: 30 }, (_, i) => enqueueJob({ type: TYPE, key: `r${i}` })));
    queue(handler("A"), { concurrency: 3, pollMs: 5 });
    queue(handler("B"), { concurrency: 3, pollMs: 5 });
    for (const job of jobs) expect(await waitForJob(idOf(job), 10_000)).toMatchObject({ state: "done", attempts: 1 });
    expect([...runs.values()].every((by) => by.length === 1)).toBe(true);
    expect(runs.size).toBe(30);
    const workers = new Set([...runs.values()].flat());
    expect(workers).toEqual(new Set(["A", "B"]));
  });

  it("keeps a long job's lease alive with the heartbeat, so no other worker takes it", async () => {
    let runs = 0;
    const slow: JobHandler = async () => {
      runs++;
      await sleep(2000);
      return "finished";
    };
    const job = await enqueueJob({ type: TYPE, key: "long" });
    queue(slow, { leaseMs: 500 });
    await until(async () => (await getJob(idOf(job)))?.state === "running");
    queue(slow, { leaseMs: 500 });
    expect(await waitForJob(idOf(job), 5000)).toMatchObject({ state: "done", attempts: 1, result: "finished" });
    expect(runs).toBe(1);
  });

  it("re-claims a job whose worker died (its lease ran out): a restart resumes it", async () => {
    const dead = await Job.create({
      type: TYPE,
      key: "orphan",
      state: "running",
      attempts: 1,
      maxAttempts: 3,
      runAt: new Date(Date.now() - 60_000),
      leaseUntil: new Date(Date.now() - 1000),
      workerId: "dead-worker",
    });
    const live = await Job.create({
      type: TYPE,
      key: "alive",
      state: "running",
      attempts: 1,
      maxAttempts: 3,
      runAt: new Date(Date.now() - 60_000),
      leaseUntil: new Date(Date.now() + 60_000),
      workerId: "busy-worker",
    });
    const ran: string[] = [];
    const q = queue(async (job) => void ran.push(job.key));
    expect(await waitForJob(dead.id, 5000)).toMatchObject({ state: "done", attempts: 2, workerId: q.workerId });
    await sleep(200);
    expect(ran).toEqual(["orphan"]);
    expect(await getJob(live.id)).toMatchObject({ state: "running", workerId: "busy-worker" });
  });

  it("fails for good a job whose worker died on every attempt, without running it again", async () => {
    const failed: string[] = [];
    const job = await Job.create({
      type: TYPE,
      key: "crashes",
      state: "running",
      attempts: 2,
      maxAttempts: 2,
      runAt: new Date(),
      leaseUntil: new Date(Date.now() - 1),
      workerId: "dead-worker",
    });
    let ran = false;
    queue(async () => void (ran = true), { onFailed: async (j, error) => void failed.push(`${j.key}: ${error}`) });
    expect(await waitForJob(job.id, 5000)).toMatchObject({ state: "failed", lastError: expect.stringMatching(/stopped before finishing/) });
    expect(ran).toBe(false);
    expect(failed).toEqual(["crashes: The job's worker stopped before finishing it, on every attempt"]);
  });

  it("retries a failed attempt after the backoff, and fails for good after the last one", async () => {
    const attempts: number[] = [];
    const failed: string[] = [];
    const job = await enqueueJob({ type: TYPE, key: "flaky", maxAttempts: 3 });
    queue(
      async (j) => {
        attempts.push(Date.now());
        throw new Error(`attempt ${j.attempts} broke`);
      },
      { retryDelaysMs: [200, 400], onFailed: async (_j, error) => void failed.push(error) },
    );
    await until(async () => (await getJob(idOf(job)))?.attempts === 1 && (await getJob(idOf(job)))?.state === "queued");
    const waiting = await getJob(idOf(job));
    expect(waiting).toMatchObject({ state: "queued", lastError: "attempt 1 broke" });
    expect(waiting!.runAt.getTime()).toBeGreaterThan(Date.now() + 50);

    expect(await waitForJob(idOf(job), 5000)).toMatchObject({ state: "failed", attempts: 3, lastError: "attempt 3 broke" });
    expect(attempts[1] - attempts[0]).toBeGreaterThanOrEqual(190);
    expect(attempts[2] - attempts[1]).toBeGreaterThanOrEqual(390);
    expect(failed).toEqual(["attempt 3 broke"]);
  });

  it("succeeds on a retry, and does not retry a permanent error", async () => {
    const job = await enqueueJob({ type: TYPE, key: "second-time" });
    const permanent = await enqueueJob({ type: TYPE, key: "hopeless" });
    queue(async (j) => {
      if (j.key === "hopeless") throw new PermanentJobError("The assessment is gone");
      if (j.attempts === 1) throw new Error("provider busy");
      return "ok";
    });
    expect(await waitForJob(idOf(job), 5000)).toMatchObject({ state: "done", attempts: 2, result: "ok" });
    expect(await waitForJob(idOf(permanent), 5000)).toMatchObject({ state: "failed", attempts: 1, lastError: "The assessment is gone" });
  });

  it("aborts a handler whose lease was taken over and does not record its result", async () => {
    let signal: AbortSignal | undefined;
    const job = await enqueueJob({ type: TYPE, key: "taken" });
    const q = queue(
      async (_j, context) => {
        signal = context.signal;
        await sleep(800);
        return "stale";
      },
      { leaseMs: 300 },
    );
    await until(() => signal !== undefined);
    // Another worker took it over (as after a long pause of this one).
    await Job.updateOne({ _id: job._id }, { $set: { workerId: "other-worker", attempts: 2, leaseUntil: new Date(Date.now() + 60_000) } });
    expect(await until(() => signal!.aborted, 2000)).toBe(true);
    // Stopping waits for the handler to return and for what the queue does with its result.
    await q.stop({ graceMs: 5_000 });
    expect(await getJob(idOf(job))).toMatchObject({ state: "running", workerId: "other-worker" });
    expect((await getJob(idOf(job)))?.result).toBeUndefined();
  });

  it("removeJobs deletes jobs, and the worker running one is told", async () => {
    let signal: AbortSignal | undefined;
    const running = await enqueueJob({ type: TYPE, key: "doomed" });
    const queued = await enqueueJob({ type: TYPE, key: "later", runAt: new Date(Date.now() + 60_000) });
    const kept = await enqueueJob({ type: TYPE, key: "kept", runAt: new Date(Date.now() + 60_000) });
    queue(
      async (_j, context) => {
        signal = context.signal;
        await sleep(1000);
      },
      { leaseMs: 300 },
    );
    await until(() => signal !== undefined);
    expect(await removeJobs({ type: TYPE, keys: ["doomed", "later"] })).toBe(2);
    expect(await removeJobs({ type: TYPE, keys: [] })).toBe(0);
    expect(await until(() => signal!.aborted, 2000)).toBe(true);
    expect(await getJob(idOf(running))).toBeNull();
    expect(await getJob(idOf(queued))).toBeNull();
    expect(await getJob(idOf(kept))).toMatchObject({ state: "queued" });
  });

  it("stopping waits briefly, then hands unfinished jobs back for the next worker", async () => {
    let signal: AbortSignal | undefined;
    const job = await enqueueJob({ type: TYPE, key: "interrupted" });
    const q = queue(
      async (_j, context) => {
        signal = context.signal;
        await new Promise((resolve) => context.signal.addEventListener("abort", resolve));
        return "too late";
      },
      // A lease no renewal can miss, however loaded the machine: with the suite's 600 ms one, a late
      // renewal lost the lease first (the handler ended aborted), so nothing was left to hand back.
      { leaseMs: 60_000 },
    );
    await until(() => signal !== undefined);
    await q.stop({ graceMs: 50 });
    expect(signal!.aborted).toBe(true);
    expect(await getJob(idOf(job))).toMatchObject({ state: "queued", attempts: 0 });
    queue(async () => "resumed");
    expect(await waitForJob(idOf(job), 5000)).toMatchObject({ state: "done", attempts: 1, result: "resumed" });
  });

  it("claims only the types it has handlers for", async () => {
    const other = await enqueueJob({ type: "other", key: "x" });
    const mine = await enqueueJob({ type: TYPE, key: "x" });
    queue(async () => "mine");
    expect(await waitForJob(idOf(mine), 5000)).toMatchObject({ state: "done" });
    expect(await getJob(idOf(other))).toMatchObject({ state: "queued", attempts: 0 });
  });
});
