import { Schema, trusted, type Types } from "mongoose";
import { defineModel, type RecordOf } from "./define-model.server";
import type { ListCursor } from "~/schemas/list-cursor";
import { changedSince, inListOrder, keysetFilter, keysetSort } from "./keyset.server";
import { backfillSearchIndex, backfillSearchIndexOfEveryAccount, searchIndexPlugin, tokenSearchFilter, type SearchedFields } from "./search-index.server";
import { isObjectIdHex, ownerFilter, type OwnerScope } from "./owner-scope.server";
import { dbNow } from "~/utils/db-clock.server";
import { errorCode } from "~/utils/db-errors.server";
import { deleteInBatches } from "./batch-delete.server";

/** `saved`: kept in the local mail drop because no mail server is configured — not delivered, never "sent". */
export const EMAIL_STATUSES = ["pending", "sent", "saved", "failed", "unknown"] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];
export const ATTEMPT_OUTCOMES = ["sending", "accepted", "failed", "unknown"] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/**
 * One email, and its delivery: the log entry the Email Center shows IS the outbox entry the worker
 * delivers (docs/decisions/0011), so queueing an email is one insert. A worker claims a due
 * `pending` entry by recording an attempt (`sending`, `inFlight`, a lease) before it talks to the
 * mail server; the attempt's outcome and the entry's status are written after. An entry left
 * `inFlight` past its lease lost its worker mid-attempt: recovery decides (never a blind resend).
 */
const attemptSchema = new Schema(
  {
    at: { type: Date, required: true },
    finishedAt: { type: Date, allowNull: false },
    outcome: { type: String, enum: ATTEMPT_OUTCOMES, required: true },
    error: { type: String, allowNull: false },
    /** The mail server's last reply ("250 2.0.0 Ok: queued as …", "535 Authentication failed"). */
    response: { type: String, allowNull: false },
    workerId: { type: String, allowNull: false },
  },
  { _id: false },
);

const emailLogSchema = new Schema(
  {
    ownerId: { type: Schema.Types.ObjectId, required: true, immutable: true },
    /** Who asked for it (an admin may send another account's estimate). */
    requestedBy: { type: Schema.Types.ObjectId, allowNull: false },
    kind: { type: String, enum: ["estimate", "notification"], required: true },
    /** The client's name for this send: asking again with it answers this entry. */
    idempotencyKey: { type: String, required: true },
    /** SHA-256 of what the key was sent with (assessment and parsed body): the same key with another request is 409. */
    requestHash: { type: String, allowNull: false },
    recipientEmail: { type: String, required: true },
    /**
     * Where a reply goes when it is not the account's own address (the mail route's Reply-To): a
     * customer's question's notice names the customer; "" sends none (docs/decisions/0058).
     */
    replyTo: { type: String, allowNull: false },
    subject: { type: String, required: true },
    html: { type: String, required: true },
    text: { type: String, required: true },
    assessmentId: { type: Schema.Types.ObjectId, allowNull: false },
    /** The assessment's title when it was sent (the log keeps reading right after a rename or deletion). */
    assessmentTitle: { type: String, allowNull: false },
    contactId: { type: Schema.Types.ObjectId, allowNull: false },
    templateId: { type: Schema.Types.ObjectId, allowNull: false },
    attachEstimate: { type: Boolean, default: false },
    status: { type: String, enum: EMAIL_STATUSES, required: true },
    /** Made before the first attempt and sent with every one, so the message can be recognised. */
    messageId: { type: String, required: true },
    attempts: { type: [attemptSchema], default: [] },
    nextAttemptAt: { type: Date, allowNull: false },
    inFlight: { type: Boolean, default: false },
    leaseUntil: { type: Date, allowNull: false },
    workerId: { type: String, allowNull: false },
    lastError: { type: String, allowNull: false },
    /** Delivered to the local mail drop (outbox/ in object storage) because no mail server is configured. */
    localDrop: { type: Boolean, default: false },
    sentAt: { type: Date, allowNull: false },
    /**
     * How the dealer settled an `unknown` email (docs/decisions/0054): sent again (`resent`, the new
     * entry's id) or confirmed arrived (`delivered`, the entry turns `sent`). Who and when.
     */
    settlement: {
      type: new Schema(
        { action: { type: String, enum: ["resent", "delivered"], required: true }, by: { type: Schema.Types.ObjectId }, at: { type: Date, required: true }, resentAs: { type: Schema.Types.ObjectId } },
        { _id: false },
      ),
    },
  },
  { timestamps: true },
);
emailLogSchema.index({ ownerId: 1, idempotencyKey: 1 }, { unique: true });
// The Logs tab, newest first, paged by cursor (its _id decides ties); the "sent today" card.
emailLogSchema.index({ ownerId: 1, createdAt: -1, _id: -1 });
// A sync's read, in the order of changes (docs/decisions/0052).
emailLogSchema.index({ ownerId: 1, updatedAt: 1, _id: 1 });
// Its search (docs/decisions/0033): the owner, one of the words' tokens, newest first.
const SEARCHED: SearchedFields = { fields: ["recipientEmail", "subject", "assessmentTitle"] };
searchIndexPlugin(emailLogSchema, SEARCHED, { createdAt: -1, _id: -1 });
emailLogSchema.index({ ownerId: 1, status: 1, sentAt: 1 });
// The Templates tab's cards count estimate emails only (notices are not estimates).
emailLogSchema.index({ ownerId: 1, kind: 1, status: 1, sentAt: 1 });
// The worker's claim (due pending entries) and its recovery (attempts whose lease ran out).
emailLogSchema.index({ status: 1, inFlight: 1, nextAttemptAt: 1 });
emailLogSchema.index({ inFlight: 1, leaseUntil: 1 });

// The search's index before tokens: a regex read every log of the account.
export const EmailLog = defineModel("EmailLog", emailLogSchema, { retiredIndexes: ["ownerId_1_createdAt_-1", "ownerId_1_recipientEmail_1_subject_1_createdAt_-1"] });


export type EmailLogRecord = RecordOf<typeof emailLogSchema>;

export interface EmailSettlement {
  action: "resent" | "delivered";
  by?: Types.ObjectId;
  at: Date;
  resentAs?: Types.ObjectId;
}

/** The list leaves out the message itself (a page of logs is cards, not bodies). */
const LIST_FIELDS = { html: 0, text: 0 } as const;

const listFilter = (scope: OwnerScope, q?: string) => ({ ...ownerFilter(scope), ...tokenSearchFilter(q) });

/** Gives the scope's logs written without a search index theirs (see backfillSearchIndex). */
const backfillLogSearch = (scope: OwnerScope) => backfillSearchIndex(EmailLog, scope, SEARCHED);
/** Every account's logs written without a search index (the data migration). */
export const backfillLogSearchOfEveryAccount = () => backfillSearchIndexOfEveryAccount(EmailLog, SEARCHED);

/**
 * A page of the Logs tab, newest first: from `skip`, or past a cursor (keyset paging, docs/decisions/0033).
 * A search walks one of its words' tokens (recipient, subject, estimate), never the account's logs.
 */
export async function findLogs({ scope, q, skip = 0, limit, cursor, since }: { scope: OwnerScope; q?: string; skip?: number; limit?: number; cursor?: ListCursor; since?: Date }) {
  if (q?.trim()) await backfillLogSearch(scope);
  const query = EmailLog.find({ ...listFilter(scope, q), ...keysetFilter(cursor, since) }).select(LIST_FIELDS).sort(keysetSort(cursor, since)).skip(skip);
  return inListOrder(cursor, await (limit === undefined ? query : query.limit(limit)).lean<EmailLogRecord[]>());
}

export async function countLogs({ scope, q, status, kind, since }: { scope: OwnerScope; q?: string; status?: EmailStatus; kind?: EmailLogRecord["kind"]; since?: Date }) {
  if (q?.trim()) await backfillLogSearch(scope);
  return EmailLog.countDocuments({ ...listFilter(scope, q), ...(kind ? { kind } : {}), ...(status ? { status } : {}), ...changedSince(since) });
}

/** Estimate emails a mail server accepted since `since` (notices and the local drop's are not deliveries of estimates). */
export async function countEstimatesSentSince({ scope, since }: { scope: OwnerScope; since: Date }) {
  return EmailLog.countDocuments({ ...ownerFilter(scope), kind: "estimate", status: "sent", sentAt: trusted({ $gte: since }) });
}

export async function findLog({ scope, id }: { scope: OwnerScope; id: string }) {
  if (!isObjectIdHex(id)) return null;
  return EmailLog.findOne({ _id: id, ...ownerFilter(scope) }).lean<EmailLogRecord>();
}

export async function findLogByKey({ ownerId, idempotencyKey }: { ownerId: string; idempotencyKey: string }) {
  return EmailLog.findOne({ ownerId, idempotencyKey }).lean<EmailLogRecord>();
}

export type NewEmailLog = Omit<
  EmailLogRecord,
  "_id" | "status" | "attempts" | "inFlight" | "localDrop" | "createdAt" | "updatedAt" | "nextAttemptAt"
> & { _id: Types.ObjectId };

/**
 * Queues an email: the log entry `pending`, due now — one insert, so the log and the outbox can
 * never disagree. A second insert with the same (owner, idempotency key) is refused by the unique
 * index: null, and the caller reads the first.
 */
export async function insertPendingLog(fields: NewEmailLog): Promise<EmailLogRecord | null> {
  try {
    const doc = await EmailLog.create({ ...fields, status: "pending", nextAttemptAt: dbNow(), attempts: [], inFlight: false });
    return doc.toObject();
  } catch (error) {
    if (errorCode(error) === 11000) return null;
    throw error;
  }
}

/** A worker's hold on one attempt: the entry, the worker and the attempt's index. */
export interface DeliveryClaim {
  id: Types.ObjectId;
  workerId: string;
  attempt: number;
}

const claimFilter = (claim: DeliveryClaim) => ({
  _id: claim.id,
  inFlight: true,
  workerId: claim.workerId,
  [`attempts.${claim.attempt}.outcome`]: "sending",
});

/**
 * Takes the next due pending entry and records the attempt (`sending`) in the same write, before any
 * byte goes to the mail server.
 */
export async function claimNextLog({ workerId, leaseMs, now = dbNow() }: { workerId: string; leaseMs: number; now?: Date }) {
  return EmailLog.findOneAndUpdate(
    { status: "pending", inFlight: false, nextAttemptAt: trusted({ $lte: now }) },
    {
      $set: { inFlight: true, workerId, leaseUntil: new Date(now.getTime() + leaseMs) },
      $push: { attempts: { at: now, outcome: "sending", workerId } },
    },
    { sort: { nextAttemptAt: 1, _id: 1 }, returnDocument: "after" },
  ).lean<EmailLogRecord>();
}

export async function renewLogLease({ claim, leaseUntil }: { claim: DeliveryClaim; leaseUntil: Date }) {
  const { matchedCount } = await EmailLog.updateOne(claimFilter(claim), { $set: { leaseUntil } });
  return matchedCount === 1;
}

const finishAttempt = (claim: DeliveryClaim, outcome: AttemptOutcome, extra: { error?: string; response?: string }) => ({
  [`attempts.${claim.attempt}.outcome`]: outcome,
  [`attempts.${claim.attempt}.finishedAt`]: dbNow(),
  ...(extra.error ? { [`attempts.${claim.attempt}.error`]: extra.error } : {}),
  ...(extra.response ? { [`attempts.${claim.attempt}.response`]: extra.response } : {}),
});

/**
 * The mail server accepted the message: sent. Written to the local drop instead: saved (kept, not
 * delivered; no sentAt). Null when the claim was lost meanwhile.
 */
export async function recordAccepted({ claim, response, localDrop }: { claim: DeliveryClaim; response?: string; localDrop: boolean }) {
  const result = await EmailLog.findOneAndUpdate(
    claimFilter(claim),
    {
      $set: {
        ...finishAttempt(claim, "accepted", { response }),
        inFlight: false,
        localDrop,
        ...(localDrop ? { status: "saved" } : { status: "sent", sentAt: dbNow() }),
      },
      $unset: { leaseUntil: 1, nextAttemptAt: 1, lastError: 1 },
    },
    { returnDocument: "after" },
  ).lean<EmailLogRecord>();
  return result;
}

/**
 * An acceptance the worker held while the database was away (docs/decisions/0054): sent (or saved),
 * with the server's reply, when this worker's attempt is still `sending` — or was settled `unknown`
 * by another instance's recovery meanwhile, and the dealer did not settle it yet. Null otherwise
 * (written already, or no longer this attempt's), so it is written once.
 */
export async function recordHeldAccepted({ claim, response, localDrop, at }: { claim: DeliveryClaim; response?: string; localDrop: boolean; at: Date }) {
  return EmailLog.findOneAndUpdate(
    {
      _id: claim.id,
      workerId: claim.workerId,
      status: trusted({ $in: ["pending", "unknown"] }),
      [`attempts.${claim.attempt}.outcome`]: trusted({ $in: ["sending", "unknown"] }),
      settlement: trusted({ $exists: false }),
    },
    {
      $set: {
        ...finishAttempt(claim, "accepted", { response }),
        inFlight: false,
        localDrop,
        ...(localDrop ? { status: "saved" } : { status: "sent", sentAt: at }),
      },
      $unset: { leaseUntil: 1, nextAttemptAt: 1, lastError: 1, [`attempts.${claim.attempt}.error`]: 1 },
    },
    { returnDocument: "after" },
  ).lean<EmailLogRecord>();
}

/** A refused attempt: pending again at `retryAt`, or failed for good without one. */
export async function recordFailed({ claim, error, response, retryAt }: { claim: DeliveryClaim; error: string; response?: string; retryAt: Date | null }) {
  return EmailLog.findOneAndUpdate(
    claimFilter(claim),
    {
      $set: {
        ...finishAttempt(claim, "failed", { error, response }),
        inFlight: false,
        lastError: error,
        ...(retryAt ? { status: "pending", nextAttemptAt: retryAt } : { status: "failed" }),
      },
      $unset: { leaseUntil: 1, ...(retryAt ? {} : { nextAttemptAt: 1 }) },
    },
    { returnDocument: "after" },
  ).lean<EmailLogRecord>();
}

/**
 * The connection failed after the whole message had gone to the server, before its reply: it may
 * have been accepted. `unknown`, never retried.
 */
export async function recordUnknown({ claim, error }: { claim: DeliveryClaim; error: string }) {
  return EmailLog.findOneAndUpdate(
    claimFilter(claim),
    { $set: { ...finishAttempt(claim, "unknown", { error }), inFlight: false, status: "unknown", lastError: error }, $unset: { leaseUntil: 1, nextAttemptAt: 1 } },
    { returnDocument: "after" },
  ).lean<EmailLogRecord>();
}

/** Entries whose worker died during an attempt (the lease ran out with the attempt still `sending`). */
export async function findAbandonedLogs({ now = dbNow(), limit = 50 }: { now?: Date; limit?: number } = {}) {
  return EmailLog.find({ inFlight: true, leaseUntil: trusted({ $lt: now }) })
    .select({ html: 0, text: 0 })
    .limit(limit)
    .lean<EmailLogRecord[]>();
}

/**
 * Settles an abandoned attempt, if it is still abandoned: `saved` (the drop holds the message),
 * `pending` (known not sent: retry) or `unknown` (the server may have it: not resent).
 */
export async function settleAbandoned({
  log,
  outcome,
  note,
  now = dbNow(),
}: {
  log: EmailLogRecord;
  outcome: "accepted" | "failed" | "unknown";
  note: string;
  now?: Date;
}) {
  const attempt = log.attempts.length - 1;
  const claim = { id: log._id, workerId: log.workerId ?? "", attempt };
  // Only the local drop's attempts are settled as accepted (a mail server cannot be asked afterwards).
  const status: EmailStatus = outcome === "accepted" ? "saved" : outcome === "failed" ? "pending" : "unknown";
  return EmailLog.findOneAndUpdate(
    { ...claimFilter(claim), leaseUntil: trusted({ $lt: now }) },
    {
      $set: {
        ...finishAttempt(claim, outcome, { error: outcome === "accepted" ? undefined : note, response: outcome === "accepted" ? note : undefined }),
        inFlight: false,
        status,
        ...(outcome === "accepted" ? { localDrop: true } : {}),
        ...(outcome === "failed" ? { nextAttemptAt: now } : {}),
        ...(outcome === "unknown" ? { lastError: note } : {}),
      },
      $unset: { leaseUntil: 1, ...(outcome === "failed" ? {} : { nextAttemptAt: 1 }) },
    },
    { returnDocument: "after" },
  ).lean<EmailLogRecord>();
}

/** Unknown and not settled by the dealer: what the Email Center and the dashboard ask about (docs/decisions/0054). */
const unsettledUnknown = (scope: OwnerScope) => ({ ...ownerFilter(scope), status: "unknown" as const, settlement: trusted({ $exists: false }) });

export const countUnsettledUnknown = ({ scope }: { scope: OwnerScope }) => EmailLog.countDocuments(unsettledUnknown(scope));

/** The newest unknown emails to settle, without their messages. */
export const findUnsettledUnknown = ({ scope, limit }: { scope: OwnerScope; limit: number }) =>
  EmailLog.find(unsettledUnknown(scope)).select(LIST_FIELDS).sort({ createdAt: -1, _id: -1 }).limit(limit).lean<EmailLogRecord[]>();

/**
 * Settles an unknown email, if it still is one and nobody settled it: `resent` (the new entry's id in
 * the settlement) or `delivered` (the dealer confirmed it arrived: `sent`, at its attempt's time).
 * Null when it was not (settled meanwhile, written sent by the worker that held it, another account's).
 */
export async function settleUnknownLog({ scope, id, settlement }: { scope: OwnerScope; id: string; settlement: EmailSettlement }) {
  if (!isObjectIdHex(id)) return null;
  const log = await EmailLog.findOne({ _id: id, ...unsettledUnknown(scope) }).select({ attempts: 1 }).lean<Pick<EmailLogRecord, "attempts">>();
  if (!log) return null;
  const delivered = settlement.action === "delivered";
  return EmailLog.findOneAndUpdate(
    { _id: id, ...unsettledUnknown(scope) },
    {
      $set: { settlement, ...(delivered ? { status: "sent", sentAt: log.attempts.at(-1)?.at ?? settlement.at } : {}) },
      ...(delivered ? { $unset: { lastError: 1 } } : {}),
    },
    { returnDocument: "after" },
  ).lean<EmailLogRecord>();
}

/** Every log of an account (the account is being deleted). */
export async function removeLogsOf({ ownerId }: { ownerId: string }) {
  await deleteInBatches(EmailLog, { ownerId });
}
