import { randomBytes } from "node:crypto";
import os from "node:os";
import { dbNowMs } from "~/utils/db-clock.server";
import { isDbUnavailableError } from "~/utils/db-errors.server";
import { db } from "~/utils/db.server";
import { isRefusal } from "~/utils/domain-errors";
import { log } from "~/utils/log.server";
import { Doze } from "./doze.server";

/**
 * One lease-based worker (docs/decisions/0049), the mechanics the job queue, the mail outbox and the
 * webhook worker share: a claim loop up to `concurrency` held items, the doze between looks (woken
 * by new work in this process or a freed slot), a heartbeat that renews each item's lease on the
 * database's clock (docs/decisions/0016) and aborts the item's run when the lease is lost or ran
 * out before a renewal got through, periodic recovery of items whose worker died, and a stop that
 * waits a grace period, then aborts what still runs and hands it back. What an item is, how it is
 * claimed, run, renewed, handed back and recovered is the queue's own (its model functions).
 */

/** A worker's name in the leases it writes: host, process and a random tail (two queues of one process differ). */
export const newWorkerId = () => `${os.hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;

/** Logs a failure, unless the database is away or refused (that is reported where it is noticed). */
export function logFailure(error: unknown, message: string, fields: Record<string, unknown> = {}) {
  if (!isDbUnavailableError(error) && !isRefusal(error)) log.warn({ err: error, ...fields }, message);
}

export interface LeaseHold {
  /** When the lease the claim wrote ends, on the database's clock (ms). */
  until: number;
  /** Extends the lease to `until`; false when the item is no longer this worker's (taken over, removed). */
  renew: (until: Date) => Promise<boolean>;
}

export interface LeaseRun {
  /** Aborted when the lease was lost or ran out before a renewal got through, or when the worker stopped (after the grace). */
  signal: AbortSignal;
  /** True once the lease is lost or ran out now, on the database's clock (before the heartbeat noticed): past it, nothing may be done. */
  lost: () => boolean;
  /** True once the worker is stopping: a task working through several items stops taking the next. */
  stopping: () => boolean;
  /** Gives back `n` of the task's slots before it ends (one of the items it holds is done). */
  free: (n?: number) => void;
}

export interface LeaseTask {
  /** How many of the worker's slots this task holds (the items it claimed together); 1 by default. */
  slots?: number;
  /** Kept alive by the heartbeat while the task runs; without it the lease the claim wrote must outlast the run. */
  lease?: LeaseHold;
  run: (context: LeaseRun) => Promise<unknown>;
  /** Hands the item back, due now, when the worker stops before the task ended; without it the lease runs out. */
  handBack?: () => Promise<unknown>;
  /** What a failure of `run` (other than the database being away) is logged with. */
  logFields?: Record<string, unknown>;
  logMessage?: string;
}

export interface LeaseQueueOptions {
  /** Logged with a failed claim or recovery. */
  label: string;
  concurrency: number;
  /** How often an idle worker looks for due items (also those of other processes). */
  pollMs: number;
  /** Claims up to `free` items and answers a task for each (or each group claimed together). */
  claim: (free: number) => Promise<LeaseTask[]>;
  /** The lease's length: the heartbeat renews it every third of it. */
  leaseMs?: number;
  /** The heartbeat's shortest period. */
  heartbeatMinMs?: number;
  /** Claims only when this many slots are free, or none is held (claims go in batches). */
  minClaim?: number;
  /** Settles or frees the items whose worker died, every `recoverEveryMs` (before a claim). */
  recover?: () => Promise<unknown>;
  recoverEveryMs?: number;
  /** After a wake, waits this long so that the work arriving together is claimed together. */
  coalesceMs?: number;
  /** Called when the last running task ended. */
  onIdle?: () => void;
}

interface Running {
  controller: AbortController;
  task: LeaseTask;
  done: Promise<void>;
}

export class LeaseQueue {
  private readonly options: LeaseQueueOptions;
  private readonly running = new Set<Running>();
  /** Slots held by the running tasks: what the concurrency counts. */
  private held = 0;
  private readonly doze = new Doze();
  private started = false;
  private stopping = false;
  private loop: Promise<void> = Promise.resolve();
  private lastRecovery = 0;

  constructor(options: LeaseQueueOptions) {
    this.options = options;
  }

  /** How many tasks are running now. */
  get active() {
    return this.running.size;
  }

  /** How many slots the running tasks hold. */
  get holding() {
    return this.held;
  }

  get isStopping() {
    return this.stopping;
  }

  start() {
    if (this.started) return this;
    this.started = true;
    this.loop = this.run();
    return this;
  }

  /** Looks for work now (work arrived in this process, or a slot freed). */
  wake() {
    this.doze.wake();
  }

  /**
   * Stops claiming; waits up to `graceMs` for the running tasks, then aborts the rest and hands
   * back those that can be (the others' leases run out, and recovery or the next claim takes them).
   */
  async stop({ graceMs = 5_000 } = {}) {
    if (!this.started || this.stopping) return this.loop;
    this.stopping = true;
    this.wake();
    await this.loop;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.all([...this.running].map((r) => r.done)), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    const left = [...this.running];
    for (const r of left) r.controller.abort(new Error("The worker is stopping"));
    await Promise.all(left.map((r) => r.task.handBack?.().catch(() => false)));
  }

  private async run() {
    // Started at boot: claim once connected (a failed connection is reported by the database module).
    await db().ready.catch(() => undefined);
    const { concurrency, minClaim = 1, recover, recoverEveryMs = 5_000, coalesceMs = 0 } = this.options;
    while (!this.stopping) {
      this.doze.reset();
      let claimed = 0;
      try {
        if (recover && Date.now() - this.lastRecovery >= recoverEveryMs) {
          this.lastRecovery = Date.now();
          await recover();
        }
        const free = concurrency - this.held;
        if (free > 0 && (free >= minClaim || this.held === 0)) claimed = this.begin(await this.options.claim(free));
      } catch (error) {
        logFailure(error, this.options.label);
      }
      if (this.stopping) break;
      // More may be due at once; a full house waits for a running task to finish (it wakes us).
      if (claimed > 0 && this.held < concurrency) continue;
      if (!this.doze.woken) await this.doze.sleep(this.options.pollMs);
      if (coalesceMs > 0 && this.doze.woken && !this.stopping) await new Promise((resolve) => setTimeout(resolve, coalesceMs));
    }
  }

  /** Starts the claimed tasks; answers how many slots they took. */
  private begin(tasks: LeaseTask[]) {
    let taken = 0;
    for (const task of tasks) {
      const slots = task.slots ?? 1;
      taken += slots;
      this.held += slots;
      const entry: Running = { controller: new AbortController(), task, done: Promise.resolve() };
      this.running.add(entry);
      entry.done = this.execute(entry, slots).finally(() => {
        this.running.delete(entry);
        if (this.running.size === 0) this.options.onIdle?.();
        this.wake();
      });
    }
    return taken;
  }

  private async execute({ controller, task }: Running, slots: number) {
    let left = slots;
    const free = (n = 1) => {
      const given = Math.min(n, left);
      left -= given;
      this.held -= given;
    };
    const lease = task.lease ? this.heartbeat(task.lease, controller) : undefined;
    const lost = () => controller.signal.aborted || (lease !== undefined && dbNowMs() >= lease.until());
    try {
      await task.run({ signal: controller.signal, lost, stopping: () => this.stopping, free });
    } catch (error) {
      // Recording the outcome failed (the database is away): the lease runs out and the item is taken again.
      logFailure(error, task.logMessage ?? this.options.label, task.logFields);
    } finally {
      clearInterval(lease?.timer);
      free(left);
    }
  }

  /**
   * Renews the lease every third of it. A renewal that finds the item gone, or a lease that ran out
   * before a renewal got through (another worker may hold it by now), aborts the run.
   */
  private heartbeat(lease: LeaseHold, controller: AbortController) {
    const leaseMs = this.options.leaseMs ?? 30_000;
    let leaseUntil = lease.until;
    const lost = () => {
      clearInterval(timer);
      controller.abort(new Error("The lease was lost"));
    };
    const timer = setInterval(
      () => {
        if (controller.signal.aborted) return clearInterval(timer);
        if (dbNowMs() >= leaseUntil) return lost();
        const next = dbNowMs() + leaseMs;
        lease.renew(new Date(next)).then(
          (ours) => (ours ? (leaseUntil = next) : lost()),
          () => undefined, // the database is away: the deadline above decides
        );
      },
      Math.max(this.options.heartbeatMinMs ?? 10, Math.floor(leaseMs / 3)),
    );
    return { timer, until: () => leaseUntil };
  }
}
