import { Types } from "mongoose";
import { countUnsettledUnknown, findLog, findLogByKey, findUnsettledUnknown, insertPendingLog, settleUnknownLog, type EmailLogRecord } from "~/models/email-log.server";
import { scopeFor } from "~/models/owner-scope.server";
import { Conflict, NotFound } from "~/utils/domain-errors";
import { dbNow } from "~/utils/db-clock.server";
import type { Actor } from "./actor";
import { afterAccepted } from "./email-delivery.server";
import { present } from "./email-logs.server";
import { newMessageId, wakeOutbox } from "./outbox.server";
import { authorize } from "./permissions.server";

/**
 * An email whose delivery is unknown (the app stopped, or the connection broke, after the message
 * left and before the mail server confirmed it) is never resent by itself: the dealer settles it
 * (docs/decisions/0054). "Resend" queues a new send of the same message (a new entry, the old one
 * keeps who resent it and when, and names the new one); "Mark delivered" records that the recipient
 * has it (`sent`). Each happens once: asking again answers what was done.
 */

const logNotFound = () => new NotFound("Email log not found");
const notUnknown = () => new Conflict("Only an email whose delivery is unknown can be resent or marked delivered");

/** The key of an email's resend: one per unknown email, however often it is asked for. */
const resendKey = (id: string) => `resend:${id}`;

async function insertResend(actor: Actor, log: EmailLogRecord, newId: Types.ObjectId) {
  const fields = {
    _id: newId,
    messageId: newMessageId(newId),
    ownerId: log.ownerId,
    requestedBy: new Types.ObjectId(actor.id),
    kind: log.kind,
    idempotencyKey: resendKey(String(log._id)),
    recipientEmail: log.recipientEmail,
    ...(log.replyTo !== undefined ? { replyTo: log.replyTo } : {}),
    subject: log.subject,
    html: log.html,
    text: log.text,
    attachEstimate: log.attachEstimate,
    ...(log.assessmentId ? { assessmentId: log.assessmentId, assessmentTitle: log.assessmentTitle } : {}),
    ...(log.contactId ? { contactId: log.contactId } : {}),
    ...(log.templateId ? { templateId: log.templateId } : {}),
  };
  const created = await insertPendingLog(fields);
  if (created) wakeOutbox();
  return { record: created ?? (await findLogByKey({ ownerId: String(log.ownerId), idempotencyKey: resendKey(String(log._id)) })), created: Boolean(created) };
}

/**
 * `POST /api/email-logs/{id}/resend`: queues the unknown email again (202 with the new entry; asked
 * again, the same entry). 404 for another account's, 409 for one that is not unknown.
 */
export async function resendEmail(actor: Actor, id: string) {
  authorize(actor, "assessments.send");
  const scope = scopeFor(actor);
  const log = await findLog({ scope, id });
  if (!log) throw logNotFound();
  if (log.settlement?.action !== "resent") {
    if (log.status !== "unknown" || log.settlement) throw notUnknown();
    // The settlement first, naming the new entry: a worker that still held this email's acceptance
    // can no longer write it (and writing it first makes this a 409), so it is never sent twice.
    const settled = await settleUnknownLog({ scope, id, settlement: { action: "resent", by: new Types.ObjectId(actor.id), at: dbNow(), resentAs: new Types.ObjectId() } });
    if (!settled?.settlement?.resentAs) throw notUnknown();
    log.settlement = settled.settlement;
  }
  const resentAs = log.settlement.resentAs;
  if (!resentAs) throw notUnknown();
  const { record, created } = await insertResend(actor, log, resentAs);
  if (!record) throw new Error("The resent email vanished while it was being read");
  return { log: (await present(actor, [record]))[0], created };
}

/**
 * `POST /api/email-logs/{id}/mark-delivered`: the dealer confirms the unknown email arrived: `sent`
 * (and its estimate sent, as when the server confirms). Asked again, the entry as it is. 404 for
 * another account's, 409 for one that is not unknown (or was resent).
 */
export async function markEmailDelivered(actor: Actor, id: string) {
  authorize(actor, "assessments.send");
  const scope = scopeFor(actor);
  const log = await findLog({ scope, id });
  if (!log) throw logNotFound();
  if (log.settlement?.action === "delivered") return (await present(actor, [log]))[0];
  if (log.status !== "unknown" || log.settlement) throw notUnknown();
  const settled = await settleUnknownLog({ scope, id, settlement: { action: "delivered", by: new Types.ObjectId(actor.id), at: dbNow() } });
  if (!settled) throw notUnknown();
  await afterAccepted(settled);
  return (await present(actor, [settled]))[0];
}

/** The dashboard's notice: how many emails wait for the dealer to settle them, and the newest few. */
export async function unknownEmails(actor: Actor, limit = 3) {
  const scope = scopeFor(actor);
  const [count, logs] = await Promise.all([countUnsettledUnknown({ scope }), findUnsettledUnknown({ scope, limit })]);
  return { count, logs: await present(actor, logs) };
}
