import { Readable } from "node:stream";
import MailComposer from "nodemailer/lib/mail-composer";
import type Mail from "nodemailer/lib/mailer";
import { transitionAssessment } from "~/models/assessment.server";
import {
  claimNextLog,
  type DeliveryClaim,
  EmailLog,
  type EmailLogRecord,
  findAbandonedLogs,
  recordAccepted,
  recordFailed,
  recordHeldAccepted,
  recordUnknown,
  renewLogLease,
  settleAbandoned,
} from "~/models/email-log.server";
import { dbNow, dbNowMs } from "~/utils/db-clock.server";
import { NotFound } from "~/utils/domain-errors";
import { env } from "~/utils/env.server";
import { collectWhenIdle } from "~/utils/idle-collector.server";
import { OutboundRefusedError } from "~/utils/outbound.server";
import { HeldOutcomes, isHeldHere } from "./held-outcomes.server";
import { LeaseQueue, newWorkerId, type LeaseRun, type LeaseTask } from "./lease-queue.server";
import { ownerActor } from "./estimate-links.server";
import { estimatePdfWithTerms } from "./estimate-pdf.server";
import { closePooledTransports, customerFrom, type MailRoute, mailRouteFor, pooledTransport } from "./mail-config.server";
import { alertUnknownDelivery, notifyDeliveryFailed, outboxes, wakeOutbox } from "./outbox.server";
import { storage } from "./storage/backend.server";
import { emitEvent, estimateEventData, estimateOrderKey } from "./webhooks.server";
import { fieldOf, numberField, stringField } from "~/utils/unknown-values";

/**
 * Delivering the outbox (docs/decisions/0011). A send writes one document — the log entry,
 * `pending` — and answers; this worker, in the housekeeping process, claims it, records the attempt,
 * renders the estimate PDF, hands the message to the mail server (or the local mail drop) and
 * records the outcome. Never twice: the attempt is recorded before the message leaves, with the
 * Message-ID it carries; an attempt whose worker died is settled by recovery, which resends only
 * what certainly did not leave.
 */

class PermanentMailError extends Error {}

async function estimateAttachment(log: EmailLogRecord): Promise<Mail.Attachment[]> {
  if (!log.attachEstimate || !log.assessmentId) return [];
  const actor = await ownerActor(String(log.ownerId));
  if (!actor) throw new PermanentMailError("The account was deleted");
  let printed: { pdf: Response; fileName: string };
  try {
    printed = await estimatePdfWithTerms(actor, String(log.assessmentId));
  } catch (error) {
    if (error instanceof NotFound) throw new PermanentMailError("The assessment was deleted");
    throw error;
  }
  return [{ filename: printed.fileName, content: Buffer.from(await printed.pdf.arrayBuffer()), contentType: "application/pdf" }];
}

/**
 * The drop's object of a log: `outbox/<owner>/<log id>.eml` in object storage (DATA_DIR/objects with
 * STORAGE=local), where every instance sees it: the name comes from the log, so a message dropped
 * twice (a worker taken over while writing) is still one message, and recovery on any instance
 * finds what a dead one dropped.
 */
export const dropKey = (log: Pick<EmailLogRecord, "_id" | "ownerId">) => `outbox/${String(log.ownerId)}/${String(log._id)}.eml`;

/** Writes the raw message into the drop: an object is whole or absent. */
async function dropMessage(log: EmailLogRecord, raw: Buffer) {
  const key = dropKey(log);
  await storage().putStream(key, Readable.from([raw]), "message/rfc822", raw.length);
  return `Saved to the local mail drop: ${key}`;
}

/** An error from the server itself (a 4xx/5xx reply), as opposed to a connection that broke. */
const hasReply = (error: unknown) => numberField(error, "responseCode") !== undefined;

/** Failures a retry cannot fix: authentication, a refused sender or recipient, a message the server rejects (5xx). */
function isPermanent(error: unknown) {
  if (error instanceof PermanentMailError || error instanceof OutboundRefusedError) return true;
  const code = fieldOf(error, "code");
  if (code === "EAUTH" || code === "EENVELOPE" || code === "EMESSAGE") return true;
  const responseCode = numberField(error, "responseCode");
  return responseCode !== undefined && responseCode >= 500;
}

const errorText = (error: unknown) => {
  const code = stringField(error, "code");
  const text = stringField(error, "response") ?? stringField(error, "message") ?? String(error);
  return (code && !text.includes(code) ? `${code}: ${text}` : text) || "Unknown error";
};

const routeLabel = (route: MailRoute) => (route.kind === "drop" ? "drop" : `smtp ${route.host}:${route.port}`);

/** The attempt is about to leave through `route`: written before any byte does (recovery reads it). */
async function markVia(claim: DeliveryClaim, route: MailRoute) {
  const { matchedCount } = await EmailLog.updateOne(
    { _id: claim.id, inFlight: true, workerId: claim.workerId, [`attempts.${claim.attempt}.outcome`]: "sending" },
    { $set: { [`attempts.${claim.attempt}.response`]: `via ${routeLabel(route)}` } },
  );
  return matchedCount === 1;
}

/**
 * After a mail server accepted an estimate: the assessment moves to sent (from completed or
 * reviewed). One only saved to the local drop left nothing: the assessment stays as it was.
 */
async function markAssessmentSent(log: EmailLogRecord) {
  if (log.kind !== "estimate" || !log.assessmentId || log.status !== "sent") return;
  const sent = await transitionAssessment({
    scope: { ownerId: String(log.ownerId) },
    id: String(log.assessmentId),
    from: ["completed", "reviewed"],
    to: "sent",
    by: null,
    action: "estimate emailed",
    note: `to ${log.recipientEmail}`,
    set: { sentAt: new Date() },
  });
  if (sent) {
    await emitEvent({
      ownerId: log.ownerId,
      type: "estimate.sent",
      data: estimateEventData(sent, { recipientEmail: log.recipientEmail, emailLogId: String(log._id) }),
      orderKey: estimateOrderKey(sent),
      key: `estimate.sent:${String(log._id)}`,
    });
  }
}

/** Webhooks: an estimate email's fate (the account's own notices are not events). */
async function emitEmailEvent(log: EmailLogRecord, type: "email.delivered" | "email.failed") {
  if (log.kind !== "estimate") return;
  await emitEvent({
    ownerId: log.ownerId,
    type,
    data: {
      id: String(log._id),
      assessmentId: log.assessmentId ? String(log.assessmentId) : null,
      recipientEmail: log.recipientEmail,
      subject: log.subject,
      messageId: log.messageId,
      status: log.status,
      ...(type === "email.failed" ? { error: log.lastError ?? null } : {}),
    },
    key: `${type}:${String(log._id)}`,
  });
}

export interface OutboxOptions {
  concurrency?: number;
  leaseMs?: number;
  retryDelaysMs?: number[];
  pollMs?: number;
  workerId?: string;
  /** Accepted messages whose record waits for the database, at most (docs/decisions/0054). */
  heldLimit?: number;
}

/** A message the mail server (or the drop) took, whose record the database did not take yet. */
interface AcceptedOutcome {
  log: EmailLogRecord;
  claim: DeliveryClaim;
  response: string;
  localDrop: boolean;
  at: Date;
}

/** After the record says sent: the assessment and the webhook (both keyed: doing them twice does nothing). */
export async function afterAccepted(sent: EmailLogRecord | null) {
  if (!sent) return;
  await markAssessmentSent(sent);
  if (sent.status === "sent") await emitEmailEvent(sent, "email.delivered");
}

/**
 * Writes a held acceptance once the database answers. Null: the record is no longer this attempt's
 * to write — unless an earlier try was written and only its answer was lost (then the follow-ups run).
 */
async function writeHeld({ claim, response, localDrop, at }: AcceptedOutcome) {
  const sent = await recordHeldAccepted({ claim, response, localDrop, at });
  if (sent) return afterAccepted(sent);
  const now = await EmailLog.findById(claim.id).select({ html: 0, text: 0 }).lean<EmailLogRecord>();
  const attempt = now?.attempts[claim.attempt];
  if (now && attempt?.outcome === "accepted" && attempt.workerId === claim.workerId) await afterAccepted(now);
}

const RECOVERY_EVERY_MS = 5_000;

export class MailOutbox {
  readonly workerId: string;
  private readonly leaseMs: number;
  private readonly retryDelaysMs: number[];
  private readonly queue: LeaseQueue;
  /** What mail servers accepted while the database was away, until it is written. */
  readonly held: HeldOutcomes<AcceptedOutcome>;

  constructor(options: OutboxOptions = {}) {
    this.held = new HeldOutcomes({ write: writeHeld, limit: options.heldLimit ?? 1_000, label: "mail outbox" });
    this.leaseMs = options.leaseMs ?? env.EMAIL_LEASE_MS;
    this.retryDelaysMs = options.retryDelaysMs ?? env.EMAIL_RETRY_DELAYS;
    this.workerId = options.workerId ?? newWorkerId();
    this.queue = new LeaseQueue({
      label: "mail outbox",
      concurrency: options.concurrency ?? env.EMAIL_CONCURRENCY,
      leaseMs: this.leaseMs,
      heartbeatMinMs: 50,
      pollMs: options.pollMs ?? 500,
      claim: () => this.claimOne(),
      recover: () => recoverAbandoned(),
      recoverEveryMs: Math.min(RECOVERY_EVERY_MS, this.leaseMs),
      // The last message in hand: what rendering and encoding the burst allocated can go back.
      onIdle: collectWhenIdle,
    });
  }

  start() {
    outboxes.add(this);
    this.queue.start();
    return this;
  }

  wake() {
    this.queue.wake();
  }

  /**
   * Stops claiming and waits up to `graceMs` for the messages being handed over. One still talking
   * to its server then is left as it is (no hand-back): its lease runs out and recovery settles it.
   */
  async stop(options?: { graceMs?: number }) {
    outboxes.delete(this);
    await this.queue.stop(options);
    // One more try for what is held; what the database still did not take is left to recovery (unknown).
    if (this.held.size > 0) await this.held.flush().catch(() => 0);
    this.held.stop();
    // A message still being handed over keeps its connection: cutting it could lose the server's
    // "accepted" after the message left (recovery settles it once the process is gone).
    if (this.queue.active === 0) closePooledTransports();
  }

  private async claimOne(): Promise<LeaseTask[]> {
    const log = await claimNextLog({ workerId: this.workerId, leaseMs: this.leaseMs });
    if (!log) return [];
    const claim: DeliveryClaim = { id: log._id, workerId: this.workerId, attempt: log.attempts.length - 1 };
    return [
      {
        lease: { until: dbNowMs() + this.leaseMs, renew: (leaseUntil) => renewLogLease({ claim, leaseUntil }) },
        run: (run) => this.deliver(log, claim, run),
        // Recording failed (database away): the lease runs out and recovery settles the attempt.
        logFields: { emailLogId: String(log._id) },
        logMessage: "mail outbox: a message failed",
      },
    ];
  }

  /** One attempt; once its lease is lost or ran out, nothing may leave. */
  private async deliver(log: EmailLogRecord, claim: DeliveryClaim, { lost }: LeaseRun) {
    let route: MailRoute;
    let raw: Buffer;
    let envelope: { from: string | false; to: string[] };
    try {
      route = await mailRouteFor(String(log.ownerId));
      const message: Mail.Options = {
        // A customer sees the dealership's name in the inbox; the account's own notices come from the app.
        from: log.kind === "notification" ? route.from : customerFrom(route),
        // A message that names its own Reply-To (a customer's question to the dealer) keeps it; "" names none.
        ...(log.replyTo !== undefined ? (log.replyTo ? { replyTo: log.replyTo } : {}) : route.replyTo ? { replyTo: route.replyTo } : {}),
        to: log.recipientEmail,
        subject: log.subject,
        html: log.html,
        text: log.text,
        messageId: log.messageId,
        // RFC 3834: a notice the product wrote by itself says so (auto-responders leave it alone).
        headers: { "X-DamageIQ-Log": String(log._id), ...(log.kind === "notification" ? { "Auto-Submitted": "auto-generated" } : {}) },
        attachments: await estimateAttachment(log),
      };
      // Built here, once: the drop stores these bytes, SMTP sends them and we see when the last one left.
      const node = new MailComposer(message).compile();
      envelope = node.getEnvelope();
      // One recipient per message, whatever was stored (a list in a contact's email reached 200 people).
      if (envelope.to.length !== 1) throw new PermanentMailError("An email goes to exactly one recipient");
      raw = await node.build();
    } catch (error) {
      return await this.failed(log, claim, error);
    }
    // Past this write the message may leave: a crash from here on is settled by recovery.
    if (lost() || !(await markVia(claim, route))) return;
    let response: string;
    let handedOver = false;
    try {
      if (route.kind === "drop") {
        response = await dropMessage(log, raw);
      } else {
        const stream = Readable.from([raw]);
        stream.once("end", () => (handedOver = true));
        const info = await pooledTransport(route).sendMail({ envelope: { from: envelope.from || route.from, to: envelope.to }, raw: stream });
        if (info.rejected.length > 0) {
          throw Object.assign(new Error(`Recipient refused: ${info.rejected.join(", ")}`), { code: "EENVELOPE", response: info.response });
        }
        response = info.response;
      }
    } catch (error) {
      // The whole message left and the connection broke before the server answered: it may have
      // been accepted, so it is not retried (at most once; docs/decisions/0011).
      if (handedOver && !hasReply(error)) {
        const recorded = await recordUnknown({ claim, error: `${errorText(error)}: the connection broke after the message was sent, before the server confirmed it; not sent again (Message-ID ${log.messageId})` });
        if (recorded) await alertUnknownDelivery(recorded);
        return;
      }
      return await this.failed(log, claim, error);
    }
    const accepted: AcceptedOutcome = { log, claim, response, localDrop: route.kind === "drop", at: dbNow() };
    let sent: EmailLogRecord | null;
    try {
      sent = await recordAccepted(accepted);
    } catch (error) {
      // The server has it and the database is away: kept, and written when it answers (never resent).
      if (this.held.hold(String(log._id), accepted)) return;
      throw error;
    }
    await afterAccepted(sent);
  }

  private async failed(log: EmailLogRecord, claim: DeliveryClaim, error: unknown) {
    const text = errorText(error);
    const attemptNumber = claim.attempt + 1;
    const delay = this.retryDelaysMs[attemptNumber - 1];
    const retryAt = !isPermanent(error) && delay !== undefined ? new Date(dbNowMs() + delay) : null;
    const response = stringField(error, "response");
    const recorded = await recordFailed({ claim, error: text, response, retryAt });
    if (recorded && !retryAt) {
      await emitEmailEvent(recorded, "email.failed");
      await notifyDeliveryFailed(recorded, text);
    }
  }
}

/**
 * Settles attempts whose worker died (lease ran out while `sending`):
 * - it never reached the point of sending (no "via" recorded) → pending again, due now;
 * - via the local drop → the drop's file decides: there (saved) or not (pending again; the file is
 *   written whole or not at all);
 * - via SMTP → `unknown`: the server may have accepted it and we cannot ask it, so it is not resent
 *   (at most once); the account is alerted (system alerts) to check and resend by hand.
 */
export async function recoverAbandoned(now = dbNow()) {
  const abandoned = await findAbandonedLogs({ now });
  let settled = 0;
  for (const log of abandoned) {
    // A worker of this process holds what the server answered: it writes it when the database answers.
    if (isHeldHere(String(log._id))) continue;
    const attempt = log.attempts[log.attempts.length - 1];
    const via = attempt?.response?.startsWith("via ") ? attempt.response.slice(4) : null;
    let result: EmailLogRecord | null;
    if (via === null) {
      result = await settleAbandoned({ log, outcome: "failed", note: "The worker stopped before sending: sending again", now });
    } else if (via === "drop") {
      const there = (await storage().head(dropKey(log))) !== null;
      result = await settleAbandoned({
        log,
        outcome: there ? "accepted" : "failed",
        note: there ? "Found in the local mail drop after the worker stopped" : "The worker stopped before the drop held the message: sending again",
        now,
      });
    } else {
      result = await settleAbandoned({
        log,
        outcome: "unknown",
        note: `The worker stopped while handing the message to ${via}: it may have been accepted, so it was not sent again (Message-ID ${log.messageId})`,
        now,
      });
      if (result) await alertUnknownDelivery(result);
    }
    if (result) settled += 1;
  }
  if (settled > 0) wakeOutbox();
  return settled;
}

/** Starts this process's outbox worker; returns its stop function. */
export function startMailOutbox(options: OutboxOptions = {}) {
  const outbox = new MailOutbox(options).start();
  return (stopOptions?: { graceMs?: number }) => outbox.stop(stopOptions);
}
