import { randomBytes } from "node:crypto";
import os from "node:os";
import {
  claimNextJob,
  completeJob,
  deleteJobs,
  failJobAttempt,
  findJob,
  insertJobIfAbsent,
  releaseJob,
  renewJobLease,
  requeueFinishedJob,
  type JobClaim,
  type JobRecord,
} from "~/models/job.server";
import { isDbUnavailableError } from "~/utils/db-errors.server";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { Doze } from "./doze.server";
import { dbNow, dbNowMs } from "~/utils/db-clock.server";
import { isRefusal } from "~/utils/domain-errors";
import { log } from "~/utils/log.server";

export type { JobRecord, JobState } from "~/models/job.server";

/**
 * A small durable job queue on the database (docs/decisions/0008): jobs survive a restart, each
 * is run by one worker at a time under a lease kept alive by a heartbeat, at most `concurrency`
 * at once per process, and a failed attempt is retried after a growing delay.
 */

export interface JobContext {
  /** Aborted when this worker lost the job (lease taken over, job removed) or is stopping. */
  signal: AbortSignal;
}
export type JobHandler = (job: JobRecord, context: JobContext) => Promise<unknown>;

export interface JobTypeOptions {
  /** Called once when the job fails for good (its last attempt failed or could not finish). */
  onFailed?: (job: JobRecord, error: string) => Promise<void>;
}

export interface JobRegistration extends JobTypeOptions {
  handler: JobHandler;
}

/** An error that retrying will not fix (the job's subject is gone, the input is invalid): no more attempts. */
export class PermanentJobError extends Error {
  override name = "PermanentJobError";
}

export const DEFAULT_MAX_ATTEMPTS = 3;
/** Waits before the 2nd, 3rd, 4th… attempt. */
export const RETRY_DELAYS_MS = [5_000, 30_000, 120_000];
/** Without JOB_LEASE_MS (entry.server passes it): tests that start a queue themselves. */
const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_POLL_MS = 750;

const globalForJobs = globalThis as typeof globalThis & {
  __jobHandlers?: Map<string, JobRegistration>;
  __jobQueues?: Set<JobQueue>;
};
// Kept on globalThis so that the dev server's module reloads see one registry and one queue.
const handlers = (globalForJobs.__jobHandlers ??= new Map());
const localQueues = (globalForJobs.__jobQueues ??= new Set());

/** Declares how jobs of `type` are run; the queues of this process claim only registered types. */
export function registerJobHandler(type: string, handler: JobHandler, options: JobTypeOptions = {}) {
  handlers.set(type, { handler, ...options });
  for (const queue of localQueues) queue.wake();
}

const idOf = (job: JobRecord) => job._id.toHexString();

/**
 * Queues the job of (type, key). A job of that key that is still queued or running is returned as
 * it is (asking twice never runs twice); a finished one is queued to run again with this payload.
 * Wakes this process's queue, so a job enqueued here starts without waiting for a poll.
 */
export async function enqueueJob({
  type,
  key,
  payload = {},
  ownerId,
  maxAttempts = DEFAULT_MAX_ATTEMPTS,
  runAt = dbNow(),
}: {
  type: string;
  key: string;
  payload?: Record<string, unknown>;
  /** The account it works for: deleting the account deletes the job. */
  ownerId?: string;
  maxAttempts?: number;
  runAt?: Date;
}): Promise<JobRecord> {
  for (let tries = 0; tries < 3; tries++) {
    const job = await insertJobIfAbsent({ type, key, payload, ownerId, maxAttempts, runAt });
    if (!job) continue; // deleted between the insert's refusal and the read: insert again
    if (job.state === "queued" || job.state === "running") {
      for (const queue of localQueues) queue.wake();
      return job;
    }
    const again = await requeueFinishedJob({ id: job._id, payload, maxAttempts, runAt });
    if (again) {
      for (const queue of localQueues) queue.wake();
      return again;
    }
  }
  throw new Error(`Could not enqueue job ${type}/${key}: it kept changing`);
}

export async function getJob(id: string) {
  return findJob({ id });
}

const finished = (job: JobRecord | null) => job === null || job.state === "done" || job.state === "failed";

/**
 * Waits until the job is done or failed, or `timeoutMs` passed, reading the database (the job may
 * run in another process); answers the job as it then stands, null when it does not exist.
 */
export async function waitForJob(id: string, timeoutMs: number, { pollMs = 250 } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await findJob({ id });
    const left = deadline - Date.now();
    if (finished(job) || left <= 0) return job;
    await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, left)));
  }
}

/** Deletes the jobs of these keys (their subjects were deleted); a worker running one is told through its signal. */
export async function removeJobs({ type, keys }: { type: string; keys: string[] }) {
  return deleteJobs({ type, keys });
}

export interface JobQueueOptions {
  concurrency?: number;
  leaseMs?: number;
  /** How often an idle queue looks for due jobs (also those enqueued by other processes). */
  pollMs?: number;
  retryDelaysMs?: number[];
  workerId?: string;
  /** The handlers to run; the process's registry by default. */
  registry?: Map<string, JobRegistration>;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)) || "Unknown error";

/**
 * Claims and runs jobs: up to `concurrency` at once. Each running job renews its lease every third
 * of the lease; a renewal that finds the claim gone (or a lease that ran out before a renewal got
 * through) aborts the handler's signal, and whatever it answers afterwards is not recorded.
 */
export class JobQueue {
  readonly workerId: string;
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly retryDelaysMs: number[];
  private readonly registry: Map<string, JobRegistration>;
  private readonly running = new Map<string, { claim: JobClaim; controller: AbortController; done: Promise<void> }>();
  private started = false;
  private stopping = false;
  private loop: Promise<void> = Promise.resolve();
  private readonly doze = new Doze();

  constructor(options: JobQueueOptions = {}) {
    this.concurrency = Math.max(1, options.concurrency ?? env.ANALYSIS_CONCURRENCY);
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.pollMs = options.pollMs ?? DEFAULT_POLL_MS;
    this.retryDelaysMs = options.retryDelaysMs ?? RETRY_DELAYS_MS;
    this.registry = options.registry ?? handlers;
    this.workerId = options.workerId ?? `${os.hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
  }

  /** How many jobs this queue is running now. */
  get active() {
    return this.running.size;
  }

  start() {
    if (this.started) return this;
    this.started = true;
    localQueues.add(this);
    this.loop = this.run();
    return this;
  }

  /** Looks for work now (a job was enqueued in this process, or a slot freed). */
  wake() {
    this.doze.wake();
  }

  /**
   * Stops claiming; waits up to `graceMs` for the running jobs, then aborts the rest and hands them
   * back queued (due now, the attempt not counted) so another worker or the next start resumes them.
   */
  async stop({ graceMs = 5_000 } = {}) {
    if (!this.started || this.stopping) return this.loop;
    this.stopping = true;
    localQueues.delete(this);
    this.wake();
    await this.loop;
    const all = [...this.running.values()];
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.all(all.map((r) => r.done)), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    const left = [...this.running.values()];
    for (const r of left) r.controller.abort(new Error("The worker is stopping"));
    await Promise.all(left.map((r) => releaseJob({ claim: r.claim }).catch(() => false)));
  }

  private async run() {
    // Started at boot: claim once connected (a failed connection is reported by the database module).
    await db().ready.catch(() => undefined);
    while (!this.stopping) {
      this.doze.reset();
      let claimed = false;
      if (this.running.size < this.concurrency) {
        try {
          claimed = await this.claimOne();
        } catch (error) {
          if (!isDbUnavailableError(error) && !isRefusal(error)) log.warn({ err: error }, "job queue: claim failed");
        }
      }
      if (claimed || this.stopping || this.doze.woken) continue;
      await this.doze.sleep(this.pollMs);
    }
  }

  private async claimOne() {
    const job = await claimNextJob({ types: [...this.registry.keys()], workerId: this.workerId, leaseMs: this.leaseMs });
    if (!job) return false;
    const claim = { id: job._id, workerId: this.workerId, attempts: job.attempts };
    const registration = this.registry.get(job.type);
    if (!registration) {
      // Unregistered meanwhile: hand it back for a process that knows it.
      await releaseJob({ claim });
      return false;
    }
    const controller = new AbortController();
    const entry = { claim, controller, done: Promise.resolve() };
    this.running.set(idOf(job), entry);
    entry.done = this.execute(job, claim, registration, controller).finally(() => {
      this.running.delete(idOf(job));
      this.wake();
    });
    return true;
  }

  private async execute(job: JobRecord, claim: JobClaim, registration: JobRegistration, controller: AbortController) {
    const lost = () => controller.abort(new Error("The job's lease was lost"));
    // Leases are on the database's clock, as every instance reads them (docs/decisions/0016).
    let leaseUntil = job.leaseUntil?.getTime() ?? dbNowMs() + this.leaseMs;
    const heartbeat = setInterval(() => {
      if (dbNowMs() >= leaseUntil) {
        clearInterval(heartbeat);
        return lost(); // another worker may hold it by now
      }
      const next = dbNowMs() + this.leaseMs;
      renewJobLease({ claim, leaseUntil: new Date(next) }).then(
        (ours) => (ours ? (leaseUntil = next) : lost()),
        () => undefined, // the database is away: the deadline above decides
      );
    }, Math.max(10, Math.floor(this.leaseMs / 3)));

    try {
      // A job that used up its attempts by dying with its worker (its lease ran out each time) is not run again.
      if (job.attempts > job.maxAttempts) {
        await this.fail(job, claim, registration, "The job's worker stopped before finishing it, on every attempt", false);
        return;
      }
      let result: unknown;
      try {
        result = await registration.handler(job, { signal: controller.signal });
      } catch (error) {
        if (controller.signal.aborted) return;
        await this.fail(job, claim, registration, messageOf(error), !(error instanceof PermanentJobError));
        return;
      }
      if (controller.signal.aborted) return;
      await completeJob({ claim, result });
    } catch (error) {
      // Recording the outcome failed (the database is away): the lease runs out and the job is run again.
      if (!isDbUnavailableError(error) && !isRefusal(error)) log.warn({ err: error }, `job ${job.type}/${job.key}: could not record the outcome`);
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async fail(job: JobRecord, claim: JobClaim, registration: JobRegistration, error: string, retryable: boolean) {
    const delay = this.retryDelaysMs[Math.min(job.attempts - 1, this.retryDelaysMs.length - 1)] ?? 0;
    const retryAt = retryable && job.attempts < job.maxAttempts ? new Date(dbNowMs() + delay) : null;
    const recorded = await failJobAttempt({ claim, error, retryAt });
    if (recorded && !retryAt) await registration.onFailed?.({ ...job, state: "failed", lastError: error }, error);
  }
}

/**
 * Starts this process's queue with the configured concurrency (ANALYSIS_CONCURRENCY); returns the
 * stop function, which waits for running jobs briefly and hands back the rest.
 */
export function startJobs(options: JobQueueOptions = {}) {
  const queue = new JobQueue(options).start();
  return (stopOptions?: { graceMs?: number }) => queue.stop(stopOptions);
}
