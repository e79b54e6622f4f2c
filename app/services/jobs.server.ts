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
import { env } from "~/utils/env.server";
import { LeaseQueue, newWorkerId, type LeaseTask } from "./lease-queue.server";
import { dbNow, dbNowMs } from "~/utils/db-clock.server";
import { isRefusal } from "~/utils/domain-errors";
import { log } from "~/utils/log.server";

export type { JobRecord } from "~/models/job.server";

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

declare global {
  var __jobHandlers: Map<string, JobRegistration> | undefined;
  var __jobQueues: Set<JobQueue> | undefined;
}
const globalForJobs = globalThis;
// Kept on globalThis so that the dev server's module reloads see one registry and one queue.
const handlers = (globalForJobs.__jobHandlers ??= new Map());
const localQueues = (globalForJobs.__jobQueues ??= new Set());

/** Declares how jobs of `type` are run; the queues of this process claim only registered types. */
export function registerJobHandler(type: string, handler: JobHandler, options: JobTypeOptions = {}) {
  handlers.set(type, { handler, ...options });
  for (const queue of localQueues) queue.wake();
}

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
 * Claims and runs jobs on the shared lease worker (lease-queue.server.ts): up to `concurrency` at
 * once, each kept alive by a heartbeat; a lost lease aborts the handler's signal, and whatever it
 * answers afterwards is not recorded. A job still running when the queue stops is handed back.
 */
export class JobQueue {
  readonly workerId: string;
  private readonly leaseMs: number;
  private readonly retryDelaysMs: number[];
  private readonly registry: Map<string, JobRegistration>;
  private readonly queue: LeaseQueue;

  constructor(options: JobQueueOptions = {}) {
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.retryDelaysMs = options.retryDelaysMs ?? RETRY_DELAYS_MS;
    this.registry = options.registry ?? handlers;
    this.workerId = options.workerId ?? newWorkerId();
    this.queue = new LeaseQueue({
      label: "job queue: claim failed",
      concurrency: Math.max(1, options.concurrency ?? env.ANALYSIS_CONCURRENCY),
      leaseMs: this.leaseMs,
      pollMs: options.pollMs ?? DEFAULT_POLL_MS,
      claim: () => this.claimOne(),
    });
  }

  /** How many jobs this queue is running now. */
  get active() {
    return this.queue.active;
  }

  start() {
    localQueues.add(this);
    this.queue.start();
    return this;
  }

  /** Looks for work now (a job was enqueued in this process, or a slot freed). */
  wake() {
    this.queue.wake();
  }

  /**
   * Stops claiming; waits up to `graceMs` for the running jobs, then aborts the rest and hands them
   * back queued (due now, the attempt not counted) so another worker or the next start resumes them.
   */
  async stop(options?: { graceMs?: number }) {
    localQueues.delete(this);
    return this.queue.stop(options);
  }

  private async claimOne(): Promise<LeaseTask[]> {
    const job = await claimNextJob({ types: [...this.registry.keys()], workerId: this.workerId, leaseMs: this.leaseMs });
    if (!job) return [];
    const claim = { id: job._id, workerId: this.workerId, attempts: job.attempts };
    const registration = this.registry.get(job.type);
    if (!registration) {
      // Unregistered meanwhile: hand it back for a process that knows it.
      await releaseJob({ claim });
      return [];
    }
    return [
      {
        lease: { until: job.leaseUntil?.getTime() ?? dbNowMs() + this.leaseMs, renew: (leaseUntil) => renewJobLease({ claim, leaseUntil }) },
        run: ({ signal }) => this.execute(job, claim, registration, signal),
        handBack: () => releaseJob({ claim }),
      },
    ];
  }

  private async execute(job: JobRecord, claim: JobClaim, registration: JobRegistration, signal: AbortSignal) {
    try {
      // A job that used up its attempts by dying with its worker (its lease ran out each time) is not run again.
      if (job.attempts > job.maxAttempts) {
        await this.fail(job, claim, registration, "The job's worker stopped before finishing it, on every attempt", false);
        return;
      }
      let result: unknown;
      try {
        result = await registration.handler(job, { signal });
      } catch (error) {
        if (signal.aborted) return;
        await this.fail(job, claim, registration, messageOf(error), !(error instanceof PermanentJobError));
        return;
      }
      if (signal.aborted) return;
      await completeJob({ claim, result });
    } catch (error) {
      // Recording the outcome failed (the database is away): the lease runs out and the job is run again.
      if (!isDbUnavailableError(error) && !isRefusal(error)) log.warn({ err: error }, `job ${job.type}/${job.key}: could not record the outcome`);
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
