import { createHash, randomBytes, randomUUID } from "node:crypto";
import os from "node:os";
import { Readable } from "node:stream";
import MailComposer from "nodemailer/lib/mail-composer";
import type Mail from "nodemailer/lib/mailer";
import { Types } from "mongoose";
import { assignContactIfNone, findAssessment, transitionAssessment } from "~/models/assessment.server";
import { findContact } from "~/models/contact.server";
import {
  claimNextLog,
  findAbandonedLogs,
  findLogByKey,
  recordAccepted,
  recordFailed,
  recordUnknown,
  renewLogLease,
  settleAbandoned,
  EmailLog,
  type DeliveryClaim,
  type EmailLogRecord,
} from "~/models/email-log.server";
import { findDefaultTemplate, findTemplate } from "~/models/email-template.server";
import { scopeFor } from "~/models/owner-scope.server";
import { contactSchema } from "~/schemas/contact";
import type { SendEmailInput } from "~/schemas/email";
import { isDbUnavailableError } from "~/utils/db-errors.server";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { collectWhenIdle } from "~/utils/idle-collector.server";
import { OutboundRefusedError } from "~/utils/outbound.server";
import { assessmentNotFound, auditActor, getAssessment, type AssessmentJson } from "./assessments.server";
import type { Actor } from "./actor";
import { BUILT_IN_TEMPLATE, formatCost, formatMailDate, renderTemplate } from "./email-render.server";
import { estimatePdf } from "./estimate-pdf.server";
import { createEstimateLink, ownerActor, revokeUnsentLink } from "./estimate-links.server";
import { closePooledTransports, mailRouteFor, pooledTransport, type MailRoute } from "./mail-config.server";
import { Doze } from "./doze.server";
import { keyReused } from "./idempotency.server";
import { alertUnknownDelivery, escapeHtml, linkOrigin, notifyDeliveryFailed, outboxes, queue, wakeOutbox } from "./outbox.server";
import { storage } from "./storage/backend.server";
import { present } from "./email-logs.server";
import { dbNow, dbNowMs } from "~/utils/db-clock.server";
import { emitEvent, estimateEventData, estimateOrderKey } from "./webhooks.server";
import { Conflict, Invalid, NotFound, isRefusal } from "~/utils/domain-errors";

/**
 * Sending email through an outbox in the database (docs/decisions/0011). A send writes one
 * document — the log entry, `pending` — and answers; a worker in the housekeeping process claims it,
 * records the attempt, renders the estimate PDF, hands the message to the mail server (or the local
 * mail drop) and records the outcome. Never twice: the attempt is recorded before the message
 * leaves, with the Message-ID it carries; an attempt whose worker died is settled by recovery, which
 * resends only what certainly did not leave.
 */

/** Sending is allowed once a person could have looked at the estimate (design: completed or reviewed; sent again). */
const SENDABLE = new Set(["completed", "reviewed", "sent"]);


/** The variables of a message about this assessment to this contact. */
function contextFor(assessment: AssessmentJson, contact: { firstName: string; lastName: string; email: string }, additionalMessage?: string, estimateLink?: string) {
  return {
    contact: { firstName: contact.firstName, lastName: contact.lastName, email: contact.email },
    assessment: {
      title: assessment.title,
      vehicle: [assessment.vehicleYear, assessment.vehicleMake, assessment.vehicleModel].filter(Boolean).join(" ") || "Not specified",
      estimatedCost: formatCost(assessment.estimatedCost),
    },
    date: formatMailDate(new Date()),
    ...(additionalMessage ? { additionalMessage } : {}),
    ...(estimateLink ? { estimateLink } : {}),
  };
}


/**
 * `POST /api/assessments/{id}/send-email`: renders the chosen template (else the account's default,
 * else the built-in one) for the contact and queues the estimate email with its PDF. Answers the log
 * `pending` at once; the worker delivers it. With an idempotency key already used on this account,
 * answers that send as it stands now and queues nothing.
 */
export async function sendEstimateEmail(
  actor: Actor,
  assessmentId: string,
  input: SendEmailInput,
  idempotencyKey?: string,
  { origin, rawBody }: { origin?: string; rawBody?: string } = {},
) {
  const assessment = await getAssessment(actor, assessmentId);
  const ownerId = assessment.ownerId;
  // Where it will go: a mail server, or only the local drop (then the screens say "saved", not "sent").
  const via = routeKind(await mailRouteFor(ownerId));
  // The request a key names: this assessment and the body's bytes, as for every creating POST
  // (docs/decisions/0017); a screen's send has no raw body, its parsed fields stand for it.
  const requestHash = createHash("sha256")
    .update(`${assessment.id}\n${rawBody ?? JSON.stringify(input)}`)
    .digest("hex");
  if (idempotencyKey) {
    const first = await findLogByKey({ ownerId, idempotencyKey });
    // Logs from before the hash was kept (no requestHash) answer as they did.
    if (first?.requestHash && first.requestHash !== requestHash) throw keyReused();
    if (first) return { log: (await present(actor, [first]))[0], created: false, via };
  }
  if (!SENDABLE.has(assessment.status)) {
    throw new Conflict("Only a completed or reviewed assessment can be sent");
  }
  const scope = { ownerId };
  const [contact, chosen] = await Promise.all([
    findContact({ scope, id: input.contactId }),
    input.templateId ? findTemplate({ scope, id: input.templateId }) : findDefaultTemplate({ ownerId }),
  ]);
  if (!contact) throw new Invalid("Contact not found", { fields: { contactId: "Contact not found" } });
  // One address, as a contact's create and update check it (a stored list would mail everyone on it).
  if (!contactSchema.shape.email.safeParse(contact.email).success) {
    const message = "The contact's email is not a single valid address";
    throw new Invalid(message, { fields: { contactId: message } });
  }
  if (input.templateId && !chosen) throw new Invalid("Template not found", { fields: { templateId: "Template not found" } });
  const template = chosen ?? BUILT_IN_TEMPLATE;
  // The customer's page for this version (docs/decisions/0019): `{{estimateLink}}` in the template,
  // else a paragraph after it, so every estimate email carries it.
  const link = await createEstimateLink(actor, assessment.id, { via: "email", origin: origin ?? linkOrigin() });
  const rendered = renderTemplate(ownerId, template, contextFor(assessment, contact, input.additionalMessage, link.url));
  const message = usesEstimateLink(template) ? rendered : withEstimateLink(rendered, link.url);
  const { record, created } = await queue({
    ownerId: new Types.ObjectId(ownerId),
    requestedBy: new Types.ObjectId(actor.id),
    kind: "estimate",
    idempotencyKey: idempotencyKey ?? `auto-${randomUUID()}`,
    requestHash,
    recipientEmail: contact.email,
    ...message,
    assessmentId: new Types.ObjectId(assessment.id),
    assessmentTitle: assessment.title,
    contactId: contact._id,
    ...(chosen ? { templateId: chosen._id } : {}),
    attachEstimate: true,
  });
  if (!created) await revokeUnsentLink(actor, assessment.id, link.id);
  // An estimate without a customer gets the one it was sent to (Compose), so its Email button works next time.
  if (created && !assessment.contactId) {
    await assignContactIfNone({
      ownerId,
      id: assessment.id,
      contactId: String(contact._id),
      by: auditActor(actor),
      name: `${contact.firstName} ${contact.lastName}`.trim(),
    });
  }
  return { log: (await present(actor, [record]))[0], created, via };
}


const usesEstimateLink = (template: { subject: string; htmlContent: string }) => /\{\{\s*estimateLink\s*\}\}/.test(template.htmlContent);

function withEstimateLink(message: { subject: string; html: string; text: string }, url: string) {
  const href = escapeHtml(url);
  return {
    subject: message.subject,
    html: `${message.html}\n<p>View, approve or decline your estimate online: <a href="${href}">${href}</a></p>`,
    text: `${message.text}\n\nView, approve or decline your estimate online: ${url}`,
  };
}

const routeKind = (route: MailRoute) => (route.kind === "drop" ? ("drop" as const) : route.source);

/** 404 for an assessment out of scope, checked before a send's body is read (another account's id is never a 400). */
export async function assertAssessmentInScope(actor: Actor, id: string) {
  if (!(await findAssessment({ scope: scopeFor(actor), id }))) throw assessmentNotFound();
}

/** Sends the assessment's estimate to its own contact (the Estimates, dashboard and wizard buttons). */
export async function sendEstimateToContact(actor: Actor, assessmentId: string, idempotencyKey?: string, origin?: string) {
  const assessment = await getAssessment(actor, assessmentId);
  if (!assessment.contactId) return { noContact: true as const };
  const result = await sendEstimateEmail(actor, assessmentId, { contactId: assessment.contactId }, idempotencyKey, { origin });
  return { noContact: false as const, ...result };
}

// --- The worker

class PermanentMailError extends Error {}

async function estimateAttachment(log: EmailLogRecord): Promise<Mail.Attachment[]> {
  if (!log.attachEstimate || !log.assessmentId) return [];
  const actor = await ownerActor(String(log.ownerId));
  if (!actor) throw new PermanentMailError("The account was deleted");
  let pdf: Response;
  try {
    pdf = await estimatePdf(actor, String(log.assessmentId));
  } catch (error) {
    if (error instanceof NotFound) throw new PermanentMailError("The assessment was deleted");
    throw error;
  }
  return [{ filename: `estimate-${String(log.assessmentId)}.pdf`, content: Buffer.from(await pdf.arrayBuffer()), contentType: "application/pdf" }];
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
const hasReply = (error: unknown) => typeof (error as { responseCode?: number }).responseCode === "number";

/** Failures a retry cannot fix: authentication, a refused sender or recipient, a message the server rejects (5xx). */
function isPermanent(error: unknown) {
  if (error instanceof PermanentMailError || error instanceof OutboundRefusedError) return true;
  const e = error as { code?: string; responseCode?: number };
  if (e.code === "EAUTH" || e.code === "EENVELOPE" || e.code === "EMESSAGE") return true;
  return typeof e.responseCode === "number" && e.responseCode >= 500;
}

const errorText = (error: unknown) => {
  const e = error as { code?: string; response?: string; message?: string };
  const text = e.response ?? e.message ?? String(error);
  return (e.code && !text.includes(e.code) ? `${e.code}: ${text}` : text) || "Unknown error";
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
}


const RECOVERY_EVERY_MS = 5_000;

export class MailOutbox {
  readonly workerId: string;
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly retryDelaysMs: number[];
  private readonly pollMs: number;
  private readonly running = new Set<Promise<void>>();
  private stopping = false;
  private loop: Promise<void> = Promise.resolve();
  private readonly doze = new Doze();
  private lastRecovery = 0;

  constructor(options: OutboxOptions = {}) {
    this.concurrency = options.concurrency ?? env.EMAIL_CONCURRENCY;
    this.leaseMs = options.leaseMs ?? env.EMAIL_LEASE_MS;
    this.retryDelaysMs = options.retryDelaysMs ?? env.EMAIL_RETRY_DELAYS;
    this.pollMs = options.pollMs ?? 500;
    this.workerId = options.workerId ?? `${os.hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
  }

  start() {
    outboxes.add(this);
    this.loop = this.run();
    return this;
  }

  wake() {
    this.doze.wake();
  }

  /**
   * Stops claiming and waits up to `graceMs` for the messages being handed over. One still talking
   * to its server then is left as it is: its lease runs out and recovery settles it.
   */
  async stop({ graceMs = 5_000 } = {}) {
    this.stopping = true;
    outboxes.delete(this);
    this.wake();
    await this.loop;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.all(this.running), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    // A message still being handed over keeps its connection: cutting it could lose the server's
    // "accepted" after the message left (recovery settles it once the process is gone).
    if (this.running.size === 0) closePooledTransports();
  }

  private async run() {
    await db().ready.catch(() => undefined);
    while (!this.stopping) {
      this.doze.reset();
      let claimed = false;
      try {
        if (Date.now() - this.lastRecovery >= Math.min(RECOVERY_EVERY_MS, this.leaseMs)) {
          this.lastRecovery = Date.now();
          await recoverAbandoned();
        }
        if (this.running.size < this.concurrency) claimed = await this.claimOne();
      } catch (error) {
        if (!isDbUnavailableError(error) && !isRefusal(error)) console.warn("mail outbox:", error);
      }
      if (claimed || this.stopping || this.doze.woken) continue;
      await this.doze.sleep(this.pollMs);
    }
  }

  private async claimOne() {
    const log = await claimNextLog({ workerId: this.workerId, leaseMs: this.leaseMs });
    if (!log) return false;
    const claim: DeliveryClaim = { id: log._id, workerId: this.workerId, attempt: log.attempts.length - 1 };
    const task: Promise<void> = this.deliver(log, claim)
      .catch((error: unknown) => {
        // Recording failed (database away): the lease runs out and recovery settles the attempt.
        if (!isDbUnavailableError(error) && !isRefusal(error)) console.warn(`mail outbox: ${String(log._id)}:`, error);
      })
      .finally(() => {
        this.running.delete(task);
        // The last message in hand: what rendering and encoding the burst allocated can go back.
        if (this.running.size === 0) collectWhenIdle();
        this.wake();
      });
    this.running.add(task);
    return true;
  }

  private async deliver(log: EmailLogRecord, claim: DeliveryClaim) {
    // Leases are on the database's clock, as every instance reads them (docs/decisions/0016).
    let leaseUntil = dbNowMs() + this.leaseMs;
    const heartbeat = setInterval(() => {
      const next = dbNowMs() + this.leaseMs;
      renewLogLease({ claim, leaseUntil: new Date(next) }).then(
        (ours) => {
          if (ours) leaseUntil = next;
        },
        () => undefined,
      );
    }, Math.max(50, Math.floor(this.leaseMs / 3)));
    try {
      let route: MailRoute;
      let raw: Buffer;
      let envelope: { from: string | false; to: string[] };
      try {
        route = await mailRouteFor(String(log.ownerId));
        const message: Mail.Options = {
          from: route.from,
          ...(route.replyTo ? { replyTo: route.replyTo } : {}),
          to: log.recipientEmail,
          subject: log.subject,
          html: log.html,
          text: log.text,
          messageId: log.messageId,
          headers: { "X-DamageIQ-Log": String(log._id) },
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
      if (dbNowMs() >= leaseUntil || !(await markVia(claim, route))) return;
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
      const sent = await recordAccepted({ claim, response, localDrop: route.kind === "drop" });
      if (sent) await markAssessmentSent(sent);
      if (sent?.status === "sent") await emitEmailEvent(sent, "email.delivered");
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async failed(log: EmailLogRecord, claim: DeliveryClaim, error: unknown) {
    const text = errorText(error);
    const attemptNumber = claim.attempt + 1;
    const delay = this.retryDelaysMs[attemptNumber - 1];
    const retryAt = !isPermanent(error) && delay !== undefined ? new Date(dbNowMs() + delay) : null;
    const response = (error as { response?: string }).response;
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
