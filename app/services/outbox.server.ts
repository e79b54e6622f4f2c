import { randomBytes, randomUUID } from "node:crypto";
import { Types } from "mongoose";
import { findLogByKey, insertPendingLog, type EmailLogRecord, type NewEmailLog } from "~/models/email-log.server";
import { User } from "~/models/user.server";
import { DEFAULT_NOTIFICATIONS, type NotificationSettings } from "~/schemas/email";
import { versionLabel } from "~/schemas/estimate-sheet";
import { env } from "~/utils/env.server";
import { formatCost } from "./email-render.server";
import { isLanguage, translator } from "./i18n.server";
import { keyReused } from "./idempotency.server";
import { publicOrigin } from "./storage/names.server";

/**
 * Writing to the outbox (docs/decisions/0011): one `pending` email-log record per message, which the
 * delivery worker (email-delivery.server.ts) claims and sends. Services that only need to tell
 * someone something (a sign-in, a customer's answer, a finished analysis) queue it here; they never
 * call into delivery, so delivery may depend on them and never the reverse (docs/decisions/0024).
 */

const messageDomain = () => (env.PUBLIC_URL ? new URL(env.PUBLIC_URL).hostname : "damageiq.local");
export const newMessageId = (id: Types.ObjectId) => `<${id.toHexString()}.${randomBytes(6).toString("hex")}@${messageDomain()}>`;

declare global {
  var __outboxes: Set<{ wake(): void }> | undefined;
}
const globalForOutbox = globalThis;
/** This process's delivery workers (email-delivery.server.ts registers its MailOutbox here). */
export const outboxes = (globalForOutbox.__outboxes ??= new Set());

/** Tells this process's outbox worker (if it runs here) that a message is waiting. */
export function wakeOutbox() {
  for (const outbox of outboxes) outbox.wake();
}

/** Queues a message (one insert) and wakes this process's worker; a repeated key answers the first. */
export async function queue(fields: Omit<NewEmailLog, "_id" | "messageId">) {
  const _id = new Types.ObjectId();
  const created = await insertPendingLog({ ...fields, _id, messageId: newMessageId(_id) });
  if (created) {
    wakeOutbox();
    return { record: created, created: true };
  }
  const first = await findLogByKey({ ownerId: String(fields.ownerId), idempotencyKey: fields.idempotencyKey });
  if (!first) throw new Error("An email with this idempotency key vanished while it was being read");
  if (first.requestHash && first.requestHash !== fields.requestHash) throw keyReused();
  return { record: first, created: false };
}

/**
 * Where the links in emails point: one rule for the customer's links and the account's notices
 * (publicOrigin): PUBLIC_URL, else the address the request behind the message came to when it names
 * this machine (the customer's answer came to the address of the link they were sent), else
 * http://localhost:PORT.
 */
export const linkOrigin = (origin?: string) => origin ?? publicOrigin();

// --- Messages to the account itself (Settings → Notifications, Security → login notifications)

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ENTITIES[c]);

/** The account's own address and its Notifications switches (defaults for those it never set). */
async function notificationSettings(ownerId: string) {
  const owner = await User.findById(ownerId)
    .select({ email: 1, notifications: 1, language: 1 })
    .lean<{ email?: string; notifications?: Partial<NotificationSettings>; language?: string }>();
  if (!owner) return null;
  return { owner, settings: { ...DEFAULT_NOTIFICATIONS, ...owner.notifications } };
}

/** A notice's line: a catalogue key and the values of its `{{name}}` placeholders. */
type Notice = string | [string, Record<string, string | number>];

/** Queues a notice to the account's own address (idempotent on `key`: a hook run twice sends one), in the account's language. */
async function notifyOwner(ownerId: string, key: string, subjectKey: Notice, lineKeys: Notice[], { replyTo }: { replyTo?: string } = {}) {
  const found = await notificationSettings(ownerId);
  if (!found?.owner.email) return null;
  const t = translator(isLanguage(found.owner.language) ? found.owner.language : "en");
  const say = (notice: Notice) => (typeof notice === "string" ? t(notice) : t(...notice));
  const subject = say(subjectKey);
  const lines = lineKeys.map(say);
  const html = lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("\n");
  const { record } = await queue({
    ownerId: new Types.ObjectId(ownerId),
    kind: "notification",
    idempotencyKey: key,
    recipientEmail: found.owner.email,
    ...(replyTo !== undefined ? { replyTo } : {}),
    subject: subject.replace(/\s+/g, " ").trim(),
    html,
    text: lines.join("\n\n"),
    attachEstimate: false,
  });
  return record;
}

/** Notifications → "assessment completed": the analysis of one of the account's assessments finished. */
export async function notifyAssessmentCompleted(assessment: { _id: unknown; ownerId: unknown; title: string; estimatedCost?: number | null }) {
  const ownerId = String(assessment.ownerId);
  const found = await notificationSettings(ownerId);
  if (!found?.settings.assessmentCompleted) return null;
  const id = String(assessment._id);
  return notifyOwner(ownerId, `assessment-completed:${id}:${Date.now()}`, ["Assessment completed: {{title}}", { title: assessment.title }], [
    ["The AI analysis of \"{{title}}\" is complete.", { title: assessment.title }],
    ["Estimated cost: {{cost}}.", { cost: formatCost(assessment.estimatedCost) }],
    ["Review it in Estimates: {{url}}", { url: `${linkOrigin()}/estimates?view=${id}` }],
  ]);
}

/** Notifications → "delivery status": an estimate email failed for good. */
export async function notifyDeliveryFailed(log: EmailLogRecord, error: string) {
  if (log.kind !== "estimate") return; // a notice about a notice could loop
  const found = await notificationSettings(String(log.ownerId));
  if (!found?.settings.deliveryStatus) return;
  await notifyOwner(String(log.ownerId), `delivery-failed:${String(log._id)}`, ["Email delivery failed: {{subject}}", { subject: log.subject }], [
    ["The email \"{{subject}}\" to {{recipient}} could not be delivered.", { subject: log.subject, recipient: log.recipientEmail }],
    ["Last error: {{error}}", { error }],
  ]);
}

/** Notifications → "system alerts": a message's fate is unknown after a worker stopped mid-delivery. */
export async function alertUnknownDelivery(log: EmailLogRecord) {
  if (log.kind !== "estimate") return;
  const found = await notificationSettings(String(log.ownerId));
  if (!found?.settings.systemAlerts) return;
  await notifyOwner(String(log.ownerId), `delivery-unknown:${String(log._id)}`, ["Check delivery: {{subject}}", { subject: log.subject }], [
    ["The app stopped while handing the email \"{{subject}}\" to {{recipient}} to the mail server.", { subject: log.subject, recipient: log.recipientEmail }],
    "The server may have accepted it, so it was not sent again. Please check with the recipient, and send it again from the Email Center if it did not arrive.",
  ]);
}

/** Settings → Security → Webhooks: the app turned an endpoint off after a day of failed deliveries. */
export async function notifyWebhookDisabled({ ownerId, endpointId, url, reason }: { ownerId: string; endpointId: string; url: string; reason: string }) {
  return notifyOwner(ownerId, `webhook-disabled:${endpointId}:${Date.now()}`, "Webhook endpoint disabled", [
    `Deliveries to your webhook endpoint ${url} kept failing, so it was disabled.`,
    reason,
    `Fix the receiver, then turn the endpoint on again and redeliver what it missed under Settings → Security → Webhooks: ${linkOrigin()}/settings?tab=security`,
  ]);
}

/** Settings → System → Backups: a scheduled backup failed, or none succeeded for two intervals (docs/decisions/0066). */
export async function notifyBackupProblem(adminId: string, key: string, problem: string) {
  return notifyOwner(adminId, key, "DamageIQ backup needs attention", [
    problem,
    `Settings → System shows the last backup; docs/deploy.md (Backups) says how to run one by hand: ${linkOrigin()}/settings?tab=system`,
  ]);
}

/** Security → login notifications: an email at each new sign-in, when the account turned it on. */
export async function sendLoginNotification(
  user: { _id: unknown; email?: string | null; loginNotifications?: boolean | null },
  { ip, userAgent }: { ip?: string; userAgent?: string | null },
) {
  if (!user.loginNotifications || !user.email) return null;
  const when = new Date();
  return notifyOwner(String(user._id), `login:${when.getTime()}:${randomUUID()}`, "New sign-in to your DamageIQ account", [
    ["Your account was signed in to on {{when}}.", { when: when.toUTCString() }],
    [userAgent ? "From: {{ip}} ({{userAgent}})." : "From: {{ip}}.", { ip: ip ?? "unknown address", userAgent: userAgent ?? "" }],
    "If this was not you, change your password now.",
  ]);
}

/**
 * The dealer hears of the customer's answer on the public estimate page (always sent: it is the
 * reason the link exists); idempotent per decision.
 */
export async function notifyCustomerDecision(decision: {
  id: string;
  ownerId: string;
  assessmentId: string;
  title: string;
  version: number;
  decision: "approved" | "declined";
  signatureName?: string;
  reason?: string;
  customer: string;
  /** The address the customer's answer came to (publicOrigin of its request). */
  origin?: string;
  /** What was approved (docs/decisions/0063): the total and each line's decision; null lines: the whole version. */
  approvedTotalCents?: number | null;
  lines?: { label: string; optional: boolean; decision: "approved" | "declined"; amountCents: number }[] | null;
}) {
  const verb = decision.decision === "approved" ? "approved" : "declined";
  const cents = (c: number) => formatCost(c / 100);
  const optional = decision.decision === "approved" ? (decision.lines ?? []).filter((l) => l.optional) : [];
  const total: Notice[] = decision.approvedTotalCents !== undefined && decision.approvedTotalCents !== null ? [["Approved total: {{total}}", { total: cents(decision.approvedTotalCents) }]] : [];
  const picked = optional.map((l): Notice => [l.decision === "approved" ? "Optional line approved: {{line}} ({{amount}})" : "Optional line declined: {{line}} ({{amount}})", { line: l.label, amount: cents(l.amountCents) }]);
  const lines: Notice[] = [
    `${decision.customer} ${verb} the estimate "${decision.title}" (${versionLabel(decision.version)}).`,
    ...total,
    ...picked,
    ...(decision.signatureName ? [`Signed as: ${decision.signatureName}`] : []),
    ...(decision.decision === "declined" ? [`Reason: ${decision.reason || "none given"}`] : []),
    `Open it in Estimates: ${linkOrigin(decision.origin)}/estimates?view=${decision.assessmentId}`,
  ];
  return notifyOwner(decision.ownerId, `customer-decision:${decision.id}`, `Estimate ${verb}: ${decision.title}`, lines);
}

/**
 * A customer's question from the public estimate page, to the dealer (stored first: the notice only
 * tells of it; docs/decisions/0058). Reply-To is the customer's address — the one they typed, else
 * the link's — and never the dealer's own; none when no address is known. Idempotent per question.
 */
export async function notifyCustomerQuestion(question: {
  id: string;
  ownerId: string;
  assessmentId: string;
  title: string;
  version: number;
  customer: string;
  message: string;
  replyTo: string | null;
  /** The address the customer's question came to (publicOrigin of its request). */
  origin?: string;
}) {
  const lines = [
    `${question.customer} asked about the estimate "${question.title}" (${versionLabel(question.version)}):`,
    question.message,
    question.replyTo ? `Reply to: ${question.replyTo}` : "The customer left no email address: answer from the estimate, and call them if needed.",
    `Answer it in Estimates: ${linkOrigin(question.origin)}/estimates?view=${question.assessmentId}`,
  ];
  return notifyOwner(question.ownerId, `customer-question:${question.id}`, `Question about your estimate: ${question.title}`, lines, { replyTo: question.replyTo ?? "" });
}

/**
 * The dealer's answer to a customer's question, to the customer, with the link to the estimate page
 * they asked on: an estimate email in the log (the account's Reply-To, From as every estimate email).
 */
export async function sendQuestionAnswer(answer: {
  ownerId: string;
  requestedBy: string;
  questionId: string;
  answerId: string;
  assessmentId: string;
  title: string;
  version: number;
  dealer: string;
  to: string;
  question: string;
  message: string;
  pageUrl: string | null;
}) {
  const subject = `Answer to your question: ${answer.title}`;
  const lines = [
    `${answer.dealer} answered your question about the estimate "${answer.title}" (${versionLabel(answer.version)}):`,
    answer.message,
    `Your question: ${answer.question}`,
    ...(answer.pageUrl ? [`Open your estimate: ${answer.pageUrl}`] : []),
  ];
  const html = lines
    .map((line, i) => (i === 3 && answer.pageUrl ? `<p>Open your estimate: <a href="${escapeHtml(answer.pageUrl)}">${escapeHtml(answer.pageUrl)}</a></p>` : `<p>${escapeHtml(line)}</p>`))
    .join("\n");
  const { record } = await queue({
    ownerId: new Types.ObjectId(answer.ownerId),
    requestedBy: new Types.ObjectId(answer.requestedBy),
    kind: "estimate",
    idempotencyKey: `question-answer:${answer.answerId}`,
    recipientEmail: answer.to,
    subject,
    html,
    text: lines.join("\n\n"),
    assessmentId: new Types.ObjectId(answer.assessmentId),
    assessmentTitle: answer.title,
    attachEstimate: false,
  });
  return record;
}

/** An invite to join an account (Settings → Team): a link that sets the person's own sign-in, until it expires. */
export async function sendMemberInvite(invite: { ownerId: string; inviteId: string; email: string; accountName: string; role: string; url: string; expiresAt: Date }) {
  const lines = [
    `${invite.accountName} invited you to DamageIQ as ${invite.role}.`,
    `Choose your username and password here: ${invite.url}`,
    `The link works until ${invite.expiresAt.toUTCString()}.`,
  ];
  const { record } = await queue({
    ownerId: new Types.ObjectId(invite.ownerId),
    kind: "notification",
    idempotencyKey: `invite:${invite.inviteId}`,
    recipientEmail: invite.email,
    subject: `You are invited to ${invite.accountName} on DamageIQ`.replace(/\s+/g, " ").trim(),
    html: lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("\n"),
    text: lines.join("\n\n"),
    attachEstimate: false,
  });
  return record;
}
