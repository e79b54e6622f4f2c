import { z } from "zod";

// The customer's forms on the public estimate page (/e/{token}): one schema each, used by the page's
// action; the page works as plain HTML, so the server's messages are the only ones shown.

export const SIGNATURE_REQUIRED = "Please type your full name to sign";
export const SIGNATURE_TOO_SHORT = "Please type your full name (at least 2 letters)";
export const SIGNATURE_TOO_LONG = "Your name must be at most 120 characters";
export const TERMS_REQUIRED = "Please tick the box to accept the terms";
export const REASON_TOO_LONG = "The reason must be at most 1000 characters";
export const QUESTION_REQUIRED = "Please type your question";
export const QUESTION_TOO_LONG = "Your question must be at most 2000 characters";
export const REPLY_EMAIL_INVALID = "Please enter a valid email address, or leave it empty";
export const LINE_CHOICE_UNKNOWN = "A line you picked is not on this estimate. Please reload the page and choose again";
/** At most this many optional lines are named in one approval (the sheet's own ceiling is lower). */
const MAX_CHOICES = 500;

const text = (required: string) =>
  z.preprocess((v) => (typeof v === "string" ? v.trim() : v), z.string({ required_error: required, invalid_type_error: required }));

/** A tick box posts "on" when ticked and nothing otherwise; JSON may send true. */
const ticked = z.preprocess((v) => v === "on" || v === "true" || v === true, z.literal(true, { errorMap: () => ({ message: TERMS_REQUIRED }) }));

export const approveSchema = z.object({
  signatureName: text(SIGNATURE_REQUIRED)
    .refine((v) => v.length > 0, SIGNATURE_REQUIRED)
    .refine((v) => v.length === 0 || (v.match(/\p{L}/gu)?.length ?? 0) >= 2, SIGNATURE_TOO_SHORT)
    .refine((v) => v.length <= 120, SIGNATURE_TOO_LONG),
  termsAccepted: ticked,
  /** The optional lines the customer picked (their ids; one box each, so a form posts the name once per ticked box). */
  optionalLines: z.preprocess(
    (v) => (v === undefined || v === null || v === "" ? [] : typeof v === "string" ? [v] : v),
    z.array(z.string({ invalid_type_error: LINE_CHOICE_UNKNOWN }).max(40, LINE_CHOICE_UNKNOWN), { invalid_type_error: LINE_CHOICE_UNKNOWN }).max(MAX_CHOICES, LINE_CHOICE_UNKNOWN),
  ),
});
export type ApproveInput = z.infer<typeof approveSchema>;

export const declineSchema = z.object({
  reason: z.preprocess(
    (v) => (typeof v === "string" ? v.trim() : v === null ? undefined : v),
    z.string({ invalid_type_error: REASON_TOO_LONG }).max(1000, REASON_TOO_LONG).optional(),
  ),
});
export type DeclineInput = z.infer<typeof declineSchema>;

export const questionSchema = z.object({
  message: text(QUESTION_REQUIRED).refine((v) => v.length > 0, QUESTION_REQUIRED).refine((v) => v.length <= 2000, QUESTION_TOO_LONG),
  replyEmail: z.preprocess(
    (v) => (typeof v === "string" ? (v.trim() === "" ? undefined : v.trim()) : v),
    z.string({ invalid_type_error: REPLY_EMAIL_INVALID }).email(REPLY_EMAIL_INVALID).max(254, REPLY_EMAIL_INVALID).optional(),
  ),
});
export type QuestionInput = z.infer<typeof questionSchema>;

// The dealer's answer to a customer's question (the estimate's screen and the API, docs/decisions/0058).
export const ANSWER_REQUIRED = "Please type your answer";
export const ANSWER_TOO_LONG = "The answer must be at most 4000 characters";

export const answerSchema = z.object({
  message: text(ANSWER_REQUIRED).refine((v) => v.length > 0, ANSWER_REQUIRED).refine((v) => v.length <= 4000, ANSWER_TOO_LONG),
});

/**
 * One line's decision as a customer decision keeps it (approval line by line, docs/decisions/0063):
 * the API's CustomerDecision, the estimate.approved/declined webhook payload and the archive's
 * customerDecisions all carry this one shape. Its bounds are the archive importer's (untrusted input);
 * what the app writes is well inside them (ids ≤ 40 characters, labels ≤ 200 and a damage number).
 */
export const lineDecisionSchema = z.object({
  id: z.string().max(100),
  label: z.string().max(500),
  damage: z.number().int().min(0).max(10_000).nullable(),
  optional: z.boolean(),
  decision: z.enum(["approved", "declined"]),
  amountCents: z.number().int().min(-1e11).max(1e11),
});
