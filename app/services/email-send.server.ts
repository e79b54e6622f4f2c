import { createHash, randomUUID } from "node:crypto";
import { Types } from "mongoose";
import { assignContactIfNone, changeCustomer, findAssessment } from "~/models/assessment.server";
import { findContact } from "~/models/contact.server";
import { findLogByKey } from "~/models/email-log.server";
import { findDefaultTemplate, findTemplate } from "~/models/email-template.server";
import { scopeFor } from "~/models/owner-scope.server";
import { contactSchema } from "~/schemas/contact";
import { recipientNotCustomerMessage, type SendEmailInput } from "~/schemas/email";
import { Conflict, Invalid } from "~/utils/domain-errors";
import { auditActor, type Actor } from "./actor";
import { type AssessmentJson, assessmentNotFound, getAssessment } from "./assessments.server";
import { present } from "./email-logs.server";
import { BUILT_IN_TEMPLATE, formatCost, formatMailDate, renderTemplate } from "./email-render.server";
import { createEstimateLink, revokeUnsentLink } from "./estimate-links.server";
import { keyReused } from "./idempotency.server";
import { type MailRoute, mailRouteFor } from "./mail-config.server";
import { escapeHtml, linkOrigin, queue } from "./outbox.server";
import { type MessageVersion, versionForMessage } from "./supplement-changes.server";
import { authorize } from "./permissions.server";

/**
 * Sending an estimate by email (docs/decisions/0011): renders the template for the contact and
 * queues the message in the outbox (one `pending` email-log record); the delivery worker
 * (email-delivery.server.ts) sends it.
 */

/** Sending is allowed once a person could have looked at the estimate (design: completed or reviewed; sent again). */
const SENDABLE = new Set(["completed", "reviewed", "sent"]);

/** The variables of a message about this assessment to this contact. */
export function contextFor(
  assessment: AssessmentJson,
  contact: { firstName: string; lastName: string; email: string },
  additionalMessage?: string,
  estimateLink?: string,
  version?: MessageVersion | null,
) {
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
    ...(version ? { estimate: estimateVariables(version) } : {}),
  };
}

const cost = (cents: number | null) => formatCost(cents === null ? null : cents / 100);
const signedCost = (cents: number) => (cents > 0 ? `+${formatCost(cents / 100)}` : cents < 0 ? `-${formatCost(-cents / 100)}` : formatCost(0));

/** `{{estimate.…}}`: the version's number and label and, on a supplement, the total it is compared with and the difference. */
function estimateVariables(version: MessageVersion) {
  const changes = version.changes;
  return {
    number: version.estimateNumber,
    versionLabel: version.versionLabel,
    revised: version.version > 1,
    total: changes ? cost(changes.totalCents) : "",
    previousTotal: changes ? cost(changes.since.totalCents) : "",
    previousLabel: changes?.since.versionLabel ?? "",
    previousApproved: changes?.since.approved ?? false,
    difference: changes ? (changes.differenceCents === null ? "TBD" : signedCost(changes.differenceCents)) : "",
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
  authorize(actor, "assessments.send");
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
  const { contact, chosen, template } = await resolveSend(assessment, input);
  // The recipient is the customer of record: the page, PDF, terms and notices name the estimate's customer.
  await makeRecipientTheCustomer(actor, assessment, contact, input.makeRecipientCustomer ?? false);
  const recipient = { contactId: contact._id, firstName: contact.firstName, lastName: contact.lastName, email: contact.email };
  // The customer's page for this version (docs/decisions/0019): `{{estimateLink}}` in the template,
  // else a paragraph after it, so every estimate email carries it.
  const link = await createEstimateLink(actor, assessment.id, { via: "email", origin: origin ?? linkOrigin(), recipient });
  const version = await versionForMessage(ownerId, assessment.id);
  const message = estimateMessage(ownerId, template, contextFor(assessment, contact, input.additionalMessage, link.url, version));
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
  return { log: (await present(actor, [record]))[0], created, via };
}

/**
 * What a send needs, checked before anything is made (the confirm step checks the same): a sendable
 * estimate, a contact with one address, the chosen template (else the default, else the built-in one).
 */
export async function resolveSend(assessment: AssessmentJson, input: SendEmailInput) {
  if (!SENDABLE.has(assessment.status)) {
    throw new Conflict("Only a completed or reviewed assessment can be sent");
  }
  const scope = { ownerId: assessment.ownerId };
  const [contact, chosen] = await Promise.all([
    findContact({ scope, id: input.contactId }),
    input.templateId ? findTemplate({ scope, id: input.templateId }) : findDefaultTemplate({ ownerId: assessment.ownerId }),
  ]);
  if (!contact) throw new Invalid("Contact not found", { fields: { contactId: "Contact not found" } });
  // One address, as a contact's create and update check it (a stored list would mail everyone on it).
  if (!contactSchema.shape.email.safeParse(contact.email).success) {
    const message = "The contact's email is not a single valid address";
    throw new Invalid(message, { fields: { contactId: message } });
  }
  if (input.templateId && !chosen) throw new Invalid("Template not found", { fields: { templateId: "Template not found" } });
  return { contact, chosen, template: chosen ?? BUILT_IN_TEMPLATE };
}

/** The message as it leaves: the template rendered, with the customer's link appended when the template has none. */
export function estimateMessage(ownerId: string, template: { subject: string; htmlContent: string }, context: ReturnType<typeof contextFor>) {
  const rendered = renderTemplate(ownerId, template, context);
  const linked = context.estimateLink && !usesEstimateLink(template) ? withEstimateLink(rendered, context.estimateLink) : rendered;
  return context.estimate?.revised && !usesEstimateVariables(template) ? asRevision(linked, context.estimate) : linked;
}

/** The template speaks of the version itself (`{{estimate.…}}`, `{{#if estimate.revised}}`): it is sent as written. */
const usesEstimateVariables = (template: { subject: string; htmlContent: string }) => /\{\{[#^/]?\s*(?:if\s+|unless\s+|with\s+)?estimate[.\s}]/.test(`${template.subject}${template.htmlContent}`);

/**
 * A supplement's email in a template that does not name the version (the built-in one, and every
 * template written before supplements were named): the subject says it is a revised estimate, with its
 * number, and the message opens with what it replaces and the difference (docs/decisions/0053).
 */
export function asRevision(message: { subject: string; html: string; text: string }, estimate: NonNullable<ReturnType<typeof contextFor>["estimate"]>) {
  const subject = `Revised estimate ${estimate.number}: ${message.subject}`;
  const replaced = `${estimate.previousApproved ? "the estimate you approved" : "the estimate we sent you"} (${estimate.previousLabel}, total ${estimate.previousTotal})`;
  const sentence = `This is a revised estimate (${estimate.versionLabel}, No. ${estimate.number}). It replaces ${replaced}: the new total is ${estimate.total}, a difference of ${estimate.difference}.`;
  return {
    subject,
    html: `<p><strong>${escapeHtml(sentence)}</strong></p>\n${message.html}`,
    text: `${sentence}\n\n${message.text}`,
  };
}

/**
 * The refusal of a send to someone other than the estimate's customer without the sender's
 * confirmation (409, nothing changed); null when the send may go. The confirm step asks it first.
 */
export async function recipientRefusal(assessment: AssessmentJson, contact: { _id: Types.ObjectId; firstName: string; lastName: string }, confirmed: boolean) {
  const contactId = String(contact._id);
  if (!assessment.contactId || assessment.contactId === contactId || confirmed) return null;
  const current = (await findContact({ scope: { ownerId: assessment.ownerId }, id: assessment.contactId })) ?? null;
  const message = recipientNotCustomerMessage(current ? fullName(current) : "another contact", fullName(contact));
  return new Conflict(message, { fields: { makeRecipientCustomer: message } });
}

export const fullName = (c: { firstName: string; lastName: string }) => `${c.firstName} ${c.lastName}`.trim();

/**
 * Before anything is sent, the estimate's customer is the recipient (docs/decisions/0035): one
 * without a customer gets the recipient (as Compose always did); another customer is replaced only
 * when the sender asked for it (`makeRecipientCustomer`, audited), else 409 and nothing is sent.
 */
async function makeRecipientTheCustomer(
  actor: Actor,
  assessment: AssessmentJson,
  contact: { _id: Types.ObjectId; firstName: string; lastName: string },
  confirmed: boolean,
) {
  const contactId = String(contact._id);
  if (assessment.contactId === contactId) return;
  const by = auditActor(actor);
  if (!assessment.contactId) {
    await assignContactIfNone({ ownerId: assessment.ownerId, id: assessment.id, contactId, by, name: fullName(contact) });
  } else {
    const current = (await findContact({ scope: { ownerId: assessment.ownerId }, id: assessment.contactId })) ?? null;
    const currentName = current ? fullName(current) : "another contact";
    if (!confirmed) {
      const message = recipientNotCustomerMessage(currentName, fullName(contact));
      throw new Conflict(message, { fields: { makeRecipientCustomer: message } });
    }
    const changed = await changeCustomer({
      ownerId: assessment.ownerId,
      id: assessment.id,
      from: assessment.contactId,
      contactId,
      by,
      change: `Customer: ${currentName} → ${fullName(contact)}`,
    });
    if (!changed) throw new Conflict("The estimate's customer was changed meanwhile: check the recipient and send again");
  }
  // Whoever was set meanwhile (a race with another send), the link must name the customer of record.
  const now = await findAssessment({ scope: { ownerId: assessment.ownerId }, id: assessment.id });
  if (now && String(now.contactId) !== contactId) throw new Conflict("The estimate's customer was changed meanwhile: check the recipient and send again");
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
