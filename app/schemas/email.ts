import { withZod } from "@remix-validated-form/with-zod";
import { z } from "zod";
import { blankWithin } from "./blank";
import { checkbox } from "./fields";
import { optionalString, requiredString } from "./text-fields";

/** The variables a template may use (spec part 2 §3), as `{{name}}`. */
export const TEMPLATE_VARIABLES = [
  "contact.firstName",
  "contact.lastName",
  "contact.email",
  "assessment.title",
  "assessment.vehicle",
  "assessment.estimatedCost",
  "date",
  "estimateLink",
  "estimate.number",
  "estimate.versionLabel",
  "estimate.previousTotal",
  "estimate.difference",
] as const;

export const TEMPLATE_LIMITS = {
  name: 100,
  subject: 300,
  /** Characters of a template's content: a rich estimate email is a few kilobytes. */
  htmlContent: 100_000,
  additionalMessage: 5_000,
  /**
   * A request body past this is refused with 413 before it is parsed. The largest valid template
   * (100,000 characters, each up to 6 bytes as a JSON escape) fits, so a template within the
   * character limits is never a 413 (Schemathesis found one that was).
   */
  bodyBytes: 768 * 1024,
} as const;

const CR_LF = /[\r\n]/;

/**
 * An email template as the New/Edit Template dialog and `POST`/`PUT /api/email-templates` send it.
 * The subject becomes a mail header: a line break in it (header injection) is refused.
 */
export const emailTemplateSchema = z.object({
  name: requiredString("Template name", "Template name is required", TEMPLATE_LIMITS.name),
  subject: z
    .string({ required_error: "Subject is required", invalid_type_error: "Subject must be text" })
    .max(TEMPLATE_LIMITS.subject, `Subject must be at most ${TEMPLATE_LIMITS.subject} characters`)
    .refine((v) => !CR_LF.test(v), "Subject must be a single line (no line breaks)")
    .transform((v) => v.trim())
    .pipe(
      z
        .string()
        .min(1, "Subject is required")
        .max(TEMPLATE_LIMITS.subject, `Subject must be at most ${TEMPLATE_LIMITS.subject} characters`),
    ),
  htmlContent: requiredString("Content", "Content is required", TEMPLATE_LIMITS.htmlContent),
  isDefault: checkbox.optional().default(false),
});
export type EmailTemplateInput = z.infer<typeof emailTemplateSchema>;
export const emailTemplateValidator = withZod(emailTemplateSchema);

/** The live preview: what is typed so far (blank parts render blank, no required messages). */
export const templatePreviewSchema = z.object({
  subject: z
    .string({ invalid_type_error: "Subject must be text" })
    .max(TEMPLATE_LIMITS.subject, `Subject must be at most ${TEMPLATE_LIMITS.subject} characters`)
    .default(""),
  htmlContent: z
    .string({ invalid_type_error: "Content must be text" })
    .max(TEMPLATE_LIMITS.htmlContent, `Content must be at most ${TEMPLATE_LIMITS.htmlContent} characters`)
    .default(""),
});
export type TemplatePreviewInput = z.infer<typeof templatePreviewSchema>;

const objectId = (message: string) =>
  z.string({ required_error: message, invalid_type_error: message }).trim().min(1, message).regex(/^[a-f0-9]{24}$/i, message);

const optionalId = (message: string) =>
  z.preprocess((v) => (v === "" || v === null ? undefined : v), objectId(message).optional());

/** `POST /api/assessments/{id}/send-email`: the assessment is the path's. */
export const sendEmailSchema = z.object({
  contactId: objectId("Contact is required"),
  templateId: optionalId("Template not found"),
  additionalMessage: optionalString("Additional message", TEMPLATE_LIMITS.additionalMessage),
  /**
   * The contact is not the estimate's customer: make them its customer (audited) and send. Without
   * it such a send is refused (409), since the page, PDF and terms name the estimate's customer.
   */
  makeRecipientCustomer: checkbox.optional().default(false),
});
export type SendEmailInput = z.infer<typeof sendEmailSchema>;

/** The Compose Email dialog (spec §5): assessment and contact required, template and message optional. */
export const composeEmailSchema = sendEmailSchema.extend({
  assessmentId: objectId("Assessment is required"),
});
export const composeEmailValidator = withZod(composeEmailSchema);

/**
 * The confirm step before an estimate leaves (issue 40 item 3): everything the send needs rides in the
 * form (JavaScript off, it is a two-step form), `step` says whether to show it again (another template)
 * or send. `returnTo` is where the sent toast shows: a path on this site only.
 */
export const sendConfirmSchema = composeEmailSchema.extend({
  step: z.enum(["review", "send"], { errorMap: () => ({ message: "Unknown step" }) }).default("review"),
  returnTo: z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z.string().max(2000).regex(/^\/(?![/\\])/, "Return address must be a path on this site").optional(),
  ),
});
export const sendConfirmValidator = withZod(sendConfirmSchema);

/** The estimate PDF's file name as the email attaches it (shown on the confirm step). */
/** Letters and digits without their accents, spaces and `.,()_-`: a name every mail client and file system keeps as it is. */
const safeFileText = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9 .,()_-]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();

/**
 * The estimate PDF's file name (the email's attachment and the download): its number and the vehicle,
 * else the customer, e.g. `Estimate 1A2B3C4D - 2019 Honda Civic.pdf`, in safe characters only.
 */
export function estimateAttachmentName({ number, vehicle, customer }: { number: string; vehicle?: string | null; customer?: string | null }) {
  const about = safeFileText(vehicle ?? "") || safeFileText(customer ?? "");
  const name = `Estimate ${safeFileText(number)}${about ? ` - ${about.slice(0, 80).trim()}` : ""}`;
  return `${name.replace(/[ .]+$/, "")}.pdf`;
}

/** A send to someone other than the estimate's customer, without the confirmation (issue 40 item 1). */
export const recipientNotCustomerMessage = (customer: string, recipient: string) =>
  `This estimate's customer is ${customer}, not ${recipient}. To send it to ${recipient}, make ${recipient} this estimate's customer.`;

/** An Idempotency-Key: what a client (or a screen's form) names one send with. */
export const idempotencyKeySchema = z
  .string()
  .max(200, "Idempotency-Key must be 8 to 200 characters")
  .trim()
  .min(8, "Idempotency-Key must be 8 to 200 characters")
  .regex(/^[\x21-\x7e]+$/, "Idempotency-Key must be printable ASCII without spaces");

/** Settings → Email (spec §5): all optional; port a number (587 by default); secure off by default. */
export const mailServerSchema = z.object({
  host: optionalString("Host", 255),
  port: z.preprocess(
    (v) => (v === "" || v === undefined || v === null ? 587 : typeof v === "string" ? Number(v) : v),
    z
      .number({ invalid_type_error: "Port must be a number" })
      .int("Port must be a whole number")
      .min(1, "Port must be between 1 and 65535")
      .max(65535, "Port must be between 1 and 65535"),
  ),
  secure: checkbox.optional().default(false),
  user: optionalString("User", 255),
  /** Blank keeps the stored password; `clearPassword` removes it. */
  password: optionalString("Password", 500),
  clearPassword: checkbox.optional().default(false),
  from: z.preprocess(
    (v) => (v === null ? undefined : blankWithin(254)(v)),
    z
      .string({ invalid_type_error: "From address must be text" })
      .max(254, "From address must be at most 254 characters")
      .trim()
      .email("From address must be a valid email")
      .optional(),
  ),
});
export type MailServerInput = z.infer<typeof mailServerSchema>;
export const mailServerValidator = withZod(mailServerSchema);

export const NOTIFICATION_SWITCHES = ["assessmentCompleted", "deliveryStatus", "systemAlerts", "desktop", "sound"] as const;
export type NotificationSettings = Record<(typeof NOTIFICATION_SWITCHES)[number], boolean>;
export const DEFAULT_NOTIFICATIONS: NotificationSettings = {
  assessmentCompleted: true,
  deliveryStatus: true,
  systemAlerts: true,
  desktop: false,
  sound: false,
};

/** Settings → Notifications: every switch (an unchecked box posts nothing: off). */
export const notificationsSchema = z.object(
  Object.fromEntries(NOTIFICATION_SWITCHES.map((name) => [name, checkbox.optional().default(false)])) as Record<
    (typeof NOTIFICATION_SWITCHES)[number],
    z.ZodDefault<z.ZodOptional<typeof checkbox>>
  >,
);
export const notificationsValidator = withZod(notificationsSchema);

/** Spec §8's messages of the Email Center and the send call. */
export const EMAIL_TOASTS = {
  sent: { title: "Email Sent", message: "Estimate has been sent successfully.", color: "green" },
  /** No mail server: the message is only kept on this server, so it must not say "sent". */
  saved: {
    title: "Email Saved, Not Sent",
    message:
      "No mail server is configured, so the estimate was saved to the local mail drop in the app's storage (outbox/) instead of being sent. Set up a mail server in Settings → Email to deliver estimates.",
    color: "yellow",
  },
  sendFailed: { title: "Error", message: "Failed to send email", color: "red" },
  templateCreated: { title: "Template Created", message: "The email template has been created.", color: "green" },
  templateCreateFailed: { title: "Error", message: "Failed to create template", color: "red" },
  connectionOk: { title: "Success", message: "Email connection is working properly.", color: "green" },
  connectionFailed: { title: "Connection Failed", message: "Email connection failed. Please check your settings.", color: "red" },
  connectionError: { title: "Error", message: "Could not test email connection.", color: "red" },
} as const;


/**
 * Settling an email whose delivery is unknown (docs/decisions/0054): the API takes no fields (an
 * empty body or `{}`; anything else is a 400 and changes nothing); the screens post the email's id.
 */
export const settleEmailSchema = z.object({}).strict();
export const settleEmailFormSchema = z.object({ id: objectId("Email not found") });
