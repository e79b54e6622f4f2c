import { z } from "zod";
import { ASSESSMENT_STATUSES } from "./assessment-status";
import { lineDecisionSchema } from "./customer-approval";
import type { WebhookEventType } from "./webhooks";

// What each webhook event's `data` carries (docs/decisions/0022, 0051). The service builds every
// payload through these schemas (app/services/webhooks.server.ts `emitEvent` parses it) and the API
// description's `webhooks` object is generated from them (app/openapi/webhooks.server.ts): a field
// added to a payload without its schema fails typecheck, and one the schema lacks never goes out.

const id = z.string().regex(/^[a-f0-9]{24}$/);
/** A date as it goes out: ISO 8601 text (a Date is written as its ISO text). */
const isoDate = z.preprocess((v) => (v instanceof Date ? v.toISOString() : v), z.string().datetime()).describe("ISO 8601 date and time");

/** An assessment as the API names it, without photos or audit. */
export const assessmentEventDataSchema = z
  .object({
    id,
    title: z.string(),
    status: z.enum(ASSESSMENT_STATUSES),
    vehicle: z.object({
      year: z.number().int().nullable(),
      make: z.string().nullable(),
      model: z.string().nullable(),
      vin: z.string().nullable(),
    }),
    contactId: id.nullable(),
    estimatedCost: z.number().nullable().describe("The estimate's total in dollars; null before analysis"),
    error: z.string().optional().describe("assessment.failed: why the analysis failed"),
  })
  .strict();

/** An estimate event: the assessment's fields, its version and the one it supplements. */
export const estimateEventDataSchema = assessmentEventDataSchema
  .extend({
    version: z.number().int().min(1),
    versionLabel: z.string().describe("The version's name as every screen, page and email shows it: Original, S01, S02…"),
    supplementOf: id.nullable().describe("The version this supplement replaces; null for the first version"),
  })
  .strict();

export const estimateUpdatedDataSchema = estimateEventDataSchema
  .extend({ changes: z.array(z.string()).describe("What the edit changed, one sentence a change") })
  .strict();

export const estimateSentDataSchema = estimateEventDataSchema
  .extend({ recipientEmail: z.string(), emailLogId: id.describe("The email log entry (see email.delivered / email.failed)") })
  .strict();

export const estimateDecidedDataSchema = estimateEventDataSchema
  .extend({
    decision: z.enum(["approved", "declined"]),
    decidedAt: isoDate,
    pdfSha256: z.string().describe("SHA-256 (hex) of the PDF the customer saw"),
    signatureName: z.string().optional().describe("Approval: the name the customer signed with"),
    reason: z.string().optional().describe("Decline: the customer's reason, when given"),
    approvedTotalCents: z
      .number()
      .int()
      .nullable()
      .optional()
      .describe("What the customer approved (integer cents): the required lines and the optional ones they chose, with their tax; null for a decline or a total to be determined"),
    lines: z
      .array(lineDecisionSchema.strict())
      .nullable()
      .optional()
      .describe("The decision on each line of the version (approved or declined), with its amount before tax"),
  })
  .strict();

export const estimateQuestionDataSchema = estimateEventDataSchema
  .extend({
    questionId: id.describe("The question (GET /api/assessments/{id}/questions lists it; answer it there)"),
    askedAt: isoDate,
    message: z.string().describe("The customer's question"),
    replyEmail: z.string().nullable().describe("The address the customer gave for the answer, else the link's recipient's; null when none is known"),
  })
  .strict();

export const estimateAnswerDataSchema = estimateEventDataSchema
  .extend({
    questionId: id.describe("The question answered (GET /api/assessments/{id}/questions lists it)"),
    answerId: id.describe("This answer (a question may get several)"),
    answeredAt: isoDate,
    question: z.string().describe("The customer's question"),
    message: z.string().describe("The dealer's answer"),
    answeredBy: z.string().describe("The name of who answered, as it was"),
    answerTo: z.string().nullable().describe("The address the answer was emailed to; null when none is known (the answer is only stored)"),
    emailLogId: id.nullable().describe("The email log entry that takes the answer to the customer; null when it was not emailed"),
  })
  .strict();

export const emailEventDataSchema = z
  .object({
    id: id.describe("The email log entry's id"),
    assessmentId: id.nullable(),
    recipientEmail: z.string(),
    subject: z.string(),
    messageId: z.string(),
    status: z.string().describe("The email log entry's status (sent, saved, failed, …)"),
    error: z.string().nullable().optional().describe("email.failed: the last error"),
  })
  .strict();

/** Each event type's `data` schema. */
export const WEBHOOK_EVENT_DATA = {
  "assessment.created": assessmentEventDataSchema,
  "assessment.completed": assessmentEventDataSchema,
  "assessment.failed": assessmentEventDataSchema,
  "estimate.updated": estimateUpdatedDataSchema,
  "estimate.sent": estimateSentDataSchema,
  "estimate.approved": estimateDecidedDataSchema,
  "estimate.declined": estimateDecidedDataSchema,
  "estimate.question_asked": estimateQuestionDataSchema,
  "estimate.question_answered": estimateAnswerDataSchema,
  "email.delivered": emailEventDataSchema,
  "email.failed": emailEventDataSchema,
} as const satisfies Record<WebhookEventType, z.ZodTypeAny>;

/** What a service hands emitEvent for an event type (a Date where the payload has ISO text). */
export type WebhookEventDataInput<T extends WebhookEventType> = z.input<(typeof WEBHOOK_EVENT_DATA)[T]>;

const exampleAssessment: z.input<typeof assessmentEventDataSchema> = {
  id: "6650c0ffee0123456789abcd",
  title: "2021 Honda Civic front bumper",
  status: "completed",
  vehicle: { year: 2021, make: "Honda", model: "Civic", vin: "2HGFC2F59MH512345" },
  contactId: "6650c0ffee0123456789abce",
  estimatedCost: 1840.5,
};
const exampleEstimate = { ...exampleAssessment, version: 1, versionLabel: "Original", supplementOf: null };

/** One example payload per event type (the API description's examples; tests emit them). */
export const WEBHOOK_EXAMPLE_DATA: { [T in WebhookEventType]: z.input<(typeof WEBHOOK_EVENT_DATA)[T]> } = {
  "assessment.created": { ...exampleAssessment, status: "uploaded", estimatedCost: null },
  "assessment.completed": exampleAssessment,
  "assessment.failed": { ...exampleAssessment, status: "uploaded", estimatedCost: null, error: "The photos could not be read" },
  "estimate.updated": { ...exampleEstimate, status: "reviewed", changes: ["Front bumper cover: labour 2.5 h → 3 h"] },
  "estimate.sent": { ...exampleEstimate, status: "sent", recipientEmail: "pat@example.com", emailLogId: "6650c0ffee0123456789abcf" },
  "estimate.approved": { ...exampleEstimate, status: "sent", decision: "approved", decidedAt: "2026-11-25T09:30:00.000Z", pdfSha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", signatureName: "Pat Lee" },
  "estimate.declined": { ...exampleEstimate, status: "sent", decision: "declined", decidedAt: "2026-11-25T09:30:00.000Z", pdfSha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", reason: "Too expensive" },
  "estimate.question_asked": { ...exampleEstimate, status: "sent", questionId: "6650c0ffee0123456789abd0", askedAt: "2026-11-25T09:30:00.000Z", message: "Does the price include paint?", replyEmail: "pat@example.com" },
  "estimate.question_answered": {
    ...exampleEstimate,
    status: "sent",
    questionId: "6650c0ffee0123456789abd0",
    answerId: "6650c0ffee0123456789abd1",
    answeredAt: "2026-11-25T10:05:00.000Z",
    question: "Does the price include paint?",
    message: "Yes: paint and materials are included.",
    answeredBy: "Sam Ortiz",
    answerTo: "pat@example.com",
    emailLogId: "6650c0ffee0123456789abd2",
  },
  "email.delivered": { id: "6650c0ffee0123456789abcf", assessmentId: "6650c0ffee0123456789abcd", recipientEmail: "pat@example.com", subject: "Your estimate", messageId: "<a1b2c3@damageiq.example>", status: "sent" },
  "email.failed": { id: "6650c0ffee0123456789abcf", assessmentId: "6650c0ffee0123456789abcd", recipientEmail: "pat@example.com", subject: "Your estimate", messageId: "<a1b2c3@damageiq.example>", status: "failed", error: "550 Mailbox unavailable" },
};

/** The body of one delivery as app/services/webhook-delivery.server.ts POSTs it (JSON; signed per Standard Webhooks). */
export function webhookEnvelopeSchema<T extends WebhookEventType>(type: T) {
  return z
    .object({
      type: z.literal(type),
      timestamp: z.string().datetime().describe("When the event happened (ISO 8601)"),
      data: WEBHOOK_EVENT_DATA[type],
    })
    .strict();
}
