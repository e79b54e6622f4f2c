import { Schema, trusted, type Types } from "mongoose";
import { defineModel } from "./define-model.server";
import { isObjectIdHex } from "./owner-scope.server";
import { dbNow } from "~/utils/db-clock.server";
import { errorCode } from "~/utils/db-errors.server";
import { deleteInBatches } from "./batch-delete.server";

export const JOB_STATES = ["queued", "running", "done", "failed"] as const;
export type JobState = (typeof JOB_STATES)[number];

/**
 * Background jobs (docs/decisions/0008). One document per (type, key): the key names what the job
 * is about (an assessment id), so enqueueing again finds the job already under way, and a finished
 * job is run again in the same document. A running job holds a lease (`leaseUntil`, renewed by its
 * worker's heartbeat); a lease that runs out means the worker died, and any worker may claim it.
 * A claim is identified by (workerId, attempts): each claim increments `attempts`, so a worker
 * whose lease was taken over cannot write over the new claim, even when it is the same worker.
 */
const jobSchema = new Schema(
  {
    type: { type: String, required: true },
    key: { type: String, required: true },
    payload: { type: Schema.Types.Mixed, default: {} },
    /** The account the job works for, if any: its jobs go when the account is deleted. */
    ownerId: { type: Schema.Types.ObjectId },
    state: { type: String, enum: JOB_STATES, required: true },
    attempts: { type: Number, default: 0 },
    maxAttempts: { type: Number, required: true, min: 1 },
    runAt: { type: Date, required: true },
    leaseUntil: { type: Date },
    workerId: { type: String },
    lastError: { type: String },
    result: { type: Schema.Types.Mixed },
    finishedAt: { type: Date },
  },
  { timestamps: true, minimize: false },
);
jobSchema.index({ type: 1, key: 1 }, { unique: true });
// The claim's two branches: due queued jobs in order, and running jobs whose lease ran out.
jobSchema.index({ state: 1, runAt: 1 });
jobSchema.index({ state: 1, leaseUntil: 1 });
jobSchema.index({ ownerId: 1 });

export const Job = defineModel("Job", jobSchema);

export interface JobRecord {
  _id: Types.ObjectId;
  type: string;
  key: string;
  payload: Record<string, unknown>;
  ownerId?: Types.ObjectId;
  state: JobState;
  attempts: number;
  maxAttempts: number;
  runAt: Date;
  leaseUntil?: Date;
  workerId?: string;
  lastError?: string;
  result?: unknown;
  finishedAt?: Date;
  createdAt: Date;
  updatedAt: Date;
}

/** A claim: the worker and the attempt it claimed (see the schema's comment). */
export interface JobClaim {
  id: Types.ObjectId;
  workerId: string;
  attempts: number;
}

const ACTIVE: JobState[] = ["queued", "running"];
const claimFilter = (claim: JobClaim) => ({ _id: claim.id, state: "running" as const, workerId: claim.workerId, attempts: claim.attempts });

export async function findJob({ id }: { id: string }) {
  if (!isObjectIdHex(id)) return null;
  return Job.findById(id).lean<JobRecord>();
}

export async function findJobByKey({ type, key }: { type: string; key: string }) {
  return Job.findOne({ type, key }).lean<JobRecord>();
}

/**
 * The (type, key) job, created queued when there is none. Not atomic with a concurrent first
 * insert of the same key: the unique index refuses the second, and the caller reads the winner.
 */
export async function insertJobIfAbsent(fields: {
  type: string;
  key: string;
  payload: Record<string, unknown>;
  ownerId?: string;
  maxAttempts: number;
  runAt: Date;
}) {
  try {
    return await Job.findOneAndUpdate(
      { type: fields.type, key: fields.key },
      // type and key come from the filter on insert.
      {
        $setOnInsert: {
          payload: fields.payload,
          ...(fields.ownerId ? { ownerId: fields.ownerId } : {}),
          maxAttempts: fields.maxAttempts,
          runAt: fields.runAt,
          state: "queued",
          attempts: 0,
        },
      },
      { upsert: true, returnDocument: "after" },
    ).lean<JobRecord>();
  } catch (error) {
    if (errorCode(error) !== 11000) throw error;
    return findJobByKey(fields);
  }
}

/** Queues a finished (done or failed) job again; null when it is active (someone else re-queued it). */
export async function requeueFinishedJob({ id, payload, maxAttempts, runAt }: { id: Types.ObjectId; payload: Record<string, unknown>; maxAttempts: number; runAt: Date }) {
  return Job.findOneAndUpdate(
    { _id: id, state: trusted({ $nin: ACTIVE }) },
    {
      $set: { state: "queued", payload, maxAttempts, runAt, attempts: 0 },
      $unset: { leaseUntil: 1, workerId: 1, lastError: 1, result: 1, finishedAt: 1 },
    },
    { returnDocument: "after" },
  ).lean<JobRecord>();
}

/**
 * Atomically takes the next job of these types: a queued one that is due (oldest first), or a
 * running one whose lease ran out (its worker died). Counts an attempt and sets the lease.
 */
export async function claimNextJob({ types, workerId, leaseMs, now = dbNow() }: { types: string[]; workerId: string; leaseMs: number; now?: Date }) {
  if (types.length === 0) return null;
  return Job.findOneAndUpdate(
    {
      type: trusted({ $in: types }),
      $or: [
        { state: "queued" as const, runAt: trusted({ $lte: now }) },
        { state: "running" as const, leaseUntil: trusted({ $lt: now }) },
      ],
    },
    { $set: { state: "running", workerId, leaseUntil: new Date(now.getTime() + leaseMs) }, $inc: { attempts: 1 } },
    { sort: { runAt: 1, _id: 1 }, returnDocument: "after" },
  ).lean<JobRecord>();
}

/** Extends a claim's lease; false when the claim is no longer this worker's (taken over, removed). */
export async function renewJobLease({ claim, leaseUntil }: { claim: JobClaim; leaseUntil: Date }) {
  const { matchedCount } = await Job.updateOne(claimFilter(claim), { $set: { leaseUntil } });
  return matchedCount === 1;
}

/** Records the result; false (nothing written) when the claim was lost meanwhile. */
export async function completeJob({ claim, result }: { claim: JobClaim; result: unknown }) {
  const { matchedCount } = await Job.updateOne(claimFilter(claim), {
    $set: { state: "done", finishedAt: dbNow(), ...(result === undefined ? {} : { result }) },
    $unset: { leaseUntil: 1, lastError: 1 },
  });
  return matchedCount === 1;
}

/** A failed attempt: queued again at `retryAt`, or failed for good without one. False when the claim was lost. */
export async function failJobAttempt({ claim, error, retryAt }: { claim: JobClaim; error: string; retryAt: Date | null }) {
  const $set = retryAt
    ? { state: "queued" as const, runAt: retryAt, lastError: error }
    : { state: "failed" as const, finishedAt: dbNow(), lastError: error };
  const { matchedCount } = await Job.updateOne(claimFilter(claim), { $set, $unset: { leaseUntil: 1 } });
  return matchedCount === 1;
}

/** Hands a claimed job back unfinished (the worker is stopping): due now, the attempt not counted. */
export async function releaseJob({ claim }: { claim: JobClaim }) {
  const { matchedCount } = await Job.updateOne(claimFilter(claim), {
    $set: { state: "queued", runAt: dbNow() },
    $inc: { attempts: -1 },
    $unset: { leaseUntil: 1 },
  });
  return matchedCount === 1;
}

/** Deletes the jobs of these keys whatever their state (their subject was deleted); a running one's worker notices at its next heartbeat. */
/** Every job of an account (the account is being deleted); a worker running one is told through its signal. */
export async function deleteJobsOf({ ownerId }: { ownerId: string }) {
  return deleteInBatches(Job, { ownerId });
}

export async function deleteJobs({ type, keys }: { type: string; keys: string[] }) {
  if (keys.length === 0) return 0;
  const { deletedCount } = await Job.deleteMany({ type, key: trusted({ $in: keys }) });
  return deletedCount;
}
