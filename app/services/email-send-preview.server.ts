import { findTemplates } from "~/models/email-template.server";
import { estimateAttachmentName, type SendEmailInput } from "~/schemas/email";
import type { Actor } from "./actor";
import { getAssessment } from "./assessments.server";
import { contextFor, estimateMessage, fullName, recipientRefusal, resolveSend } from "./email-send.server";
import { linkOrigin } from "./outbox.server";
import { versionForMessage } from "./supplement-changes.server";

/** Templates the confirm step offers at most (as Compose does). */
const TEMPLATE_CHOICES = 200;

/** What the confirm step shows before an estimate leaves (issue 40 item 3, docs/decisions/0039). */
export interface SendPreview {
  assessmentId: string;
  assessmentTitle: string;
  recipient: { contactId: string; name: string; email: string };
  /** The sender asked to make the recipient the estimate's customer (sent on with the confirmation). */
  makeRecipientCustomer: boolean;
  additionalMessage: string;
  /** The picked template's id; "" = the account's default (else the built-in one). */
  templateId: string;
  templateName: string;
  templates: { id: string; name: string; isDefault: boolean }[];
  message: { subject: string; html: string };
  attachment: { name: string };
  /** Nothing looked at the photos (no AI provider, no training images). */
  notAnalysed: boolean;
  /** The total is still to be determined: a damage has no priced line. */
  costTbd: boolean;
}

/**
 * The email as it would leave now, for the confirm step: the same checks and the same rendering as
 * `sendEstimateEmail`, but nothing is made, changed or queued. The customer's link does not exist
 * yet (it is made when the email is sent), so the preview shows where it will point. A saved
 * template is rendered through the compiled-template cache and the sandbox's budget, so this is not
 * counted against the template dialog's preview limit (that one compiles text typed live).
 */
export async function previewEstimateEmail(actor: Actor, assessmentId: string, input: SendEmailInput, origin?: string): Promise<SendPreview> {
  const assessment = await getAssessment(actor, assessmentId);
  const { contact, chosen, template } = await resolveSend(assessment, input);
  const confirmed = input.makeRecipientCustomer ?? false;
  const refusal = await recipientRefusal(assessment, contact, confirmed);
  if (refusal) throw refusal;
  const placeholderLink = `${origin ?? linkOrigin()}/e/…`;
  const version = await versionForMessage(assessment.ownerId, assessment.id);
  const message = estimateMessage(assessment.ownerId, template, contextFor(assessment, contact, input.additionalMessage, placeholderLink, version));
  const templates = await findTemplates({ scope: { ownerId: assessment.ownerId }, limit: TEMPLATE_CHOICES });
  return {
    assessmentId: assessment.id,
    assessmentTitle: assessment.title,
    recipient: { contactId: String(contact._id), name: fullName(contact), email: contact.email },
    makeRecipientCustomer: confirmed,
    additionalMessage: input.additionalMessage ?? "",
    templateId: input.templateId ?? "",
    templateName: chosen?.name ?? "Built-in template",
    templates: templates.map((t) => ({ id: String(t._id), name: t.name, isDefault: Boolean(t.isDefault) })),
    message: { subject: message.subject, html: message.html },
    attachment: {
      name: estimateAttachmentName({
        number: version?.estimateNumber ?? assessment.id,
        vehicle: [assessment.vehicleYear, assessment.vehicleMake, assessment.vehicleModel].filter(Boolean).join(" "),
        customer: assessment.contact ? fullName(assessment.contact) : confirmed ? fullName(contact) : null,
      }),
    },
    notAnalysed: assessment.aiAnalysis?.provider === "none",
    costTbd: assessment.estimatedCost === null,
  };
}
