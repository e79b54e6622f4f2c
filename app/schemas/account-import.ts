import { z } from "zod";
import { MAX_SHEET_LINES, storedSheetSchema } from "./estimate-sheet";
import { ASSESSMENT_LIMITS, ASSESSMENT_STATUSES, assessmentUpdateSchema, MAX_ASSESSMENT_MEDIA } from "./assessment";
import { contactSchema } from "./contact";
import { lineDecisionSchema } from "./customer-approval";
import { DAMAGE_LOCATIONS, DAMAGE_TYPES, SEVERITIES } from "./damage";
import { emailTemplateSchema } from "./email";
import { MAX_DAMAGES } from "./estimate-limits";
import { packageSchema } from "./package";
import { optionalString } from "./text-fields";
import { learningRecordSchema, pricingRuleSchema, vendorPackageSchema } from "./vendor-pricing";
import { MEDIA_URL_PATTERN } from "./media-url";
import { webhookEndpointCreateSchema } from "./webhooks";

/**
 * An imported record is a create through the API: each collection's schema is the API's create
 * schema (same fields, limits and messages), extended only by what the server writes itself and an
 * export carries (timestamps; an assessment's analysis, lines and audit), each bounded too. Unknown
 * fields are dropped. References (ids, media URLs) are checked for shape here and resolved in the
 * importer's account by the import (services/account-data.server.ts).
 */

const DAY_MS = 24 * 3600 * 1000;

/** A stored date as an export writes it (ISO text); absent is "now" (set by the import). */
const isoDate = (label: string) =>
  z
    .string({ invalid_type_error: `${label} must be an ISO date` })
    .datetime({ offset: true, message: `${label} must be an ISO date` })
    .transform((v) => new Date(v))
    .refine((d) => d.getTime() <= Date.now() + DAY_MS && d.getUTCFullYear() >= 2000, `${label} must be a date between 2000 and today`);

const timestamps = {
  createdAt: isoDate("createdAt").optional(),
  updatedAt: isoDate("updatedAt").optional(),
};

/** A reference to another document: 24 hex digits (resolved, or dropped, in the importer's account). */
const ref = (label: string) =>
  z
    .string({ invalid_type_error: `${label} must be an id` })
    .regex(/^[a-f0-9]{24}$/i, `${label} must be an id`)
    .transform((v) => v.toLowerCase());

/** Only this app's own media (`/media/<id>`): `javascript:`, another site's address or a path elsewhere is refused. */
const mediaUrl = z
  .string({ invalid_type_error: "Each media URL must be text" })
  .regex(MEDIA_URL_PATTERN, "Media URLs must be this app's /media/<id> addresses");

const text = (label: string, max: number) => z.string({ invalid_type_error: `${label} must be text` }).max(max, `${label} must be at most ${max} characters`);
const list = <T extends z.ZodTypeAny>(label: string, item: T, max: number) =>
  z.array(item, { invalid_type_error: `${label} must be a list` }).max(max, `At most ${max} ${label}`);
const cents = (label: string) => z.number({ invalid_type_error: `${label} must be a number` }).int(`${label} must be whole cents`).min(-1e11).max(1e11);
const factor = (label: string) => z.number({ invalid_type_error: `${label} must be a number` }).finite().min(0).max(1000);

/** One estimate line as the pricing engine and an estimate edit store it (utils/estimate-lines). */
const lineItem = z.object({
  damageType: z.enum(DAMAGE_TYPES),
  severity: z.enum(SEVERITIES),
  location: z.enum(DAMAGE_LOCATIONS).nullable().default(null),
  priced: z.boolean(),
  reason: text("reason", 500).optional(),
  baseCents: cents("baseCents").optional(),
  labour: z
    .object({ hours: factor("hours"), hoursFrom: z.enum(["training", "default"]), rateCents: cents("rateCents"), cents: cents("cents") })
    .optional(),
  partsCents: cents("partsCents").optional(),
  refinish: z.object({ hours: factor("hours"), rateCents: cents("rateCents"), cents: cents("cents") }).optional(),
  materialsRateCents: cents("materialsRateCents").optional(),
  materialsCents: cents("materialsCents").optional(),
  modifiers: z.object({ make: factor("make"), location: factor("location"), seasonal: factor("seasonal") }).optional(),
  markupPercentage: factor("markupPercentage").optional(),
  subtotalCents: cents("subtotalCents").optional(),
  minimumChargeCents: cents("minimumChargeCents").optional(),
  minimumApplied: z.boolean().optional(),
  ruleCents: cents("ruleCents").optional(),
  learning: z.object({ factor: factor("factor"), records: z.number().int().min(0).max(1e9), cents: cents("cents") }).optional(),
  totalCents: cents("totalCents").optional(),
  manualCents: cents("manualCents").nullable().optional(),
});

const damage = z.object({
  damageType: z.enum(DAMAGE_TYPES),
  location: z.enum(DAMAGE_LOCATIONS),
  severity: z.enum(SEVERITIES),
  description: text("Damage description", 2000).default(""),
  confidence: z.number().min(0).max(1),
  mediaUrl: mediaUrl.optional(),
});

const AUDIT_ENTRIES = 500;
const auditEntry = z.object({
  at: isoDate("Audit date"),
  by: ref("Audit author").nullable().default(null),
  byName: text("Audit author name", 200),
  action: text("Audit action", 100),
  from: z.enum(ASSESSMENT_STATUSES).optional(),
  to: z.enum(ASSESSMENT_STATUSES).optional(),
  note: text("Audit note", 1000).optional(),
  // An edit may remove and add every line and damage (one entry each, or two for a damage kept), plus
  // a few estimate-wide entries (total, rates, taxes, deductible, severity, customer); a changed line's
  // entry names every field before and after (descriptions and notes included).
  changes: list("audit changes", text("Audit change", 4000), MAX_SHEET_LINES * 2 + MAX_DAMAGES * 2 + 20).optional(),
});

const amount = (label: string) => z.number({ invalid_type_error: `${label} must be a number` }).finite().min(0).max(10_000_000);

/**
 * An assessment: the API's fields (title, vehicle, contact, notes, vendor) with its messages, its
 * media (at most 20, this app's only: an export's may all be dropped, so none is allowed here), and
 * what the analysis, the pricing engine, estimate edits and sending wrote.
 */
const assessment = assessmentUpdateSchema.extend({
  mediaUrls: list("media URLs", mediaUrl, MAX_ASSESSMENT_MEDIA).default([]),
  status: z.enum(ASSESSMENT_STATUSES).default("uploaded"),
  severity: z.enum(SEVERITIES).optional(),
  estimatedCost: amount("estimatedCost").optional(),
  aiEstimatedCost: amount("aiEstimatedCost").optional(),
  costNote: optionalString("costNote", 1000),
  lineItems: list("line items", lineItem, MAX_DAMAGES).default([]),
  estimateSheet: storedSheetSchema.optional(),
  damages: list("damages", damage, MAX_DAMAGES).default([]),
  damageCategories: list("damage categories", z.enum(DAMAGE_TYPES), DAMAGE_TYPES.length).default([]),
  aiAnalysis: z
    .object({
      confidence: z.number().min(0).max(1),
      description: text("AI description", ASSESSMENT_LIMITS.notes).default(""),
      provider: z.enum(["openai", "embedded"]),
      model: text("AI model", 100).optional(),
    })
    .optional(),
  analysisError: optionalString("analysisError", 1000),
  // At most 24 pictures go to the analysis (MAX_PICTURES), any of them a video's frame.
  videoFrames: list("video frames", z.object({ mediaUrl, videoUrl: mediaUrl, at: z.number().min(0).max(86_400) }), 24).default([]),
  photoHashes: list(
    "photo hashes",
    z.object({
      mediaUrl,
      hash: z.string().regex(/^[0-9a-f]{16}$/, "A photo hash is 16 hex digits"),
      // The reused-photo print (docs/decisions/0030): 24 × 24 × 3 bytes in base64, and the aspect ratio.
      print: z.string().regex(/^[A-Za-z0-9+/]{2304}$/, "A photo print is 1728 bytes in base64").optional(),
      aspect: z.number().positive().max(100).optional(),
    }),
    MAX_ASSESSMENT_MEDIA,
  ).default([]),
  photoWarnings: list(
    "photo warnings",
    z.object({ mediaUrl, photoName: text("photoName", 255).optional(), otherAssessmentId: ref("otherAssessmentId"), otherTitle: text("otherTitle", ASSESSMENT_LIMITS.title) }),
    MAX_ASSESSMENT_MEDIA * 5,
  ).default([]),
  audit: list("audit entries", auditEntry, AUDIT_ENTRIES).default([]),
  sentAt: isoDate("sentAt").optional(),
  supplementOf: ref("supplementOf").optional(),
  version: z.number().int().min(1).max(1000).default(1),
  ...timestamps,
});

/**
 * A learning record: the API's fields; `assessmentId` a reference. Pending, whatever the archive says:
 * only an admin's validation lets a record move a vendor's prices.
 */
const learningRecord = learningRecordSchema
  .extend({ assessmentId: ref("assessmentId").optional(), ...timestamps })
  .transform((r) => ({ ...r, adminAdjustment: Math.round((r.finalCost - r.originalEstimate) * 100) / 100, isValidated: false }));

const sha256 = z.string({ invalid_type_error: "pdfSha256 must be text" }).regex(/^[0-9a-f]{64}$/, "pdfSha256 must be a SHA-256 in hex");
const person = z.object({ firstName: text("firstName", 200).default(""), lastName: text("lastName", 200).default(""), email: text("email", 254).default("") });

/**
 * The customer conversation (docs/decisions/0064). Links: a record of what was sent, imported
 * revoked (the token is not in the archive, and a new one is never made up for it).
 */
const estimateLink = z.object({
  assessmentId: ref("assessmentId"),
  rootId: ref("rootId"),
  version: z.number().int().min(1).max(1000),
  createdAt: isoDate("createdAt"),
  expiresAt: z.string().datetime({ offset: true, message: "expiresAt must be an ISO date" }).transform((v) => new Date(v)),
  via: z.enum(["email", "api"]),
  emailLogId: ref("emailLogId").optional(),
  recipient: person.extend({ contactId: ref("recipient.contactId").optional() }).optional(),
  pdfSha256: sha256,
  pdfBytes: z.number().int().min(0).max(1e9),
  terms: text("terms", 20_000).optional(),
  revokedAt: isoDate("revokedAt").optional(),
  supersededAt: isoDate("supersededAt").optional(),
  firstViewedAt: isoDate("firstViewedAt").optional(),
  lastViewedAt: isoDate("lastViewedAt").optional(),
  views: z.number().int().min(0).max(1e9).default(0),
});

/** A customer's decision: evidence, kept as it was (its time, address, signature and the PDF's hash). */
const customerDecision = z.object({
  assessmentId: ref("assessmentId"),
  rootId: ref("rootId"),
  version: z.number().int().min(1).max(1000),
  linkId: ref("linkId"),
  decision: z.enum(["approved", "declined"]),
  signatureName: text("signatureName", 200).optional(),
  termsAccepted: z.boolean().optional(),
  reason: text("reason", 1000).optional(),
  decidedAt: isoDate("decidedAt"),
  ip: text("ip", 100),
  userAgent: text("userAgent", 1000).default(""),
  pdfSha256: sha256,
  estimatedCost: amount("estimatedCost").nullable().default(null),
  // Approval line by line (docs/decisions/0063): absent on declines, TBD totals and older decisions.
  approvedTotalCents: cents("approvedTotalCents").optional(),
  lines: z
    .array(
      // An archive may leave out what the app can fill in (the JSON Schema requires id, decision and amountCents).
      lineDecisionSchema.extend({
        label: lineDecisionSchema.shape.label.default(""),
        damage: lineDecisionSchema.shape.damage.default(null),
        optional: lineDecisionSchema.shape.optional.default(false),
      }),
    )
    .max(1000)
    .optional(),
});

const estimateQuestion = z.object({
  assessmentId: ref("assessmentId"),
  rootId: ref("rootId"),
  version: z.number().int().min(1).max(1000),
  linkId: ref("linkId"),
  customer: person.optional(),
  replyEmail: text("replyEmail", 254).optional(),
  message: text("message", 5000).min(1, "message is required"),
  askedAt: isoDate("askedAt"),
  answers: list(
    "answers",
    z.object({ message: text("answer", 5000).min(1, "An answer's message is required"), at: isoDate("Answer date"), byName: text("byName", 200).default(""), emailLogId: ref("emailLogId").optional() }),
    100,
  ).default([]),
  answeredAt: isoDate("answeredAt").nullable().default(null),
});

export const IMPORTED_NOT_SENT = "Imported from an archive: not sent from this account";
const EMAIL_STATUSES = ["pending", "sent", "saved", "failed", "unknown"] as const;
/**
 * An email: the record of what was sent. A `pending` one becomes `failed` ("Imported: not sent")
 * and an attempt cut short `unknown`: nothing imported is ever queued or sent (docs/decisions/0064).
 */
const emailLog = z
  .object({
    kind: z.enum(["estimate", "notification"]),
    recipientEmail: text("recipientEmail", 254).min(1, "recipientEmail is required"),
    replyTo: text("replyTo", 254).optional(),
    subject: text("subject", 1000).min(1, "subject is required"),
    html: text("html", 500_000),
    text: text("text", 500_000),
    assessmentId: ref("assessmentId").optional(),
    assessmentTitle: text("assessmentTitle", ASSESSMENT_LIMITS.title).optional(),
    contactId: ref("contactId").optional(),
    templateId: ref("templateId").optional(),
    attachEstimate: z.boolean().default(false),
    status: z.enum(EMAIL_STATUSES),
    messageId: text("messageId", 500).min(1, "messageId is required"),
    attempts: list(
      "attempts",
      z.object({
        at: isoDate("Attempt date"),
        finishedAt: isoDate("Attempt end").optional(),
        outcome: z.enum(["sending", "accepted", "failed", "unknown"]).transform((o) => (o === "sending" ? "unknown" : o)),
        error: text("error", 2000).optional(),
        response: text("response", 2000).optional(),
      }),
      50,
    ).default([]),
    lastError: text("lastError", 2000).optional(),
    localDrop: z.boolean().default(false),
    sentAt: isoDate("sentAt").optional(),
    settlement: z.object({ action: z.enum(["resent", "delivered"]), at: isoDate("Settlement date"), resentAs: ref("resentAs").optional() }).optional(),
    ...timestamps,
  })
  .transform((log) =>
    log.status === "pending" ? { ...log, status: "failed" as const, lastError: IMPORTED_NOT_SENT } : log,
  );

/** A webhook endpoint: the API's fields; its secret is not in the archive and a new one is made (docs/decisions/0064). */
const webhookEndpoint = webhookEndpointCreateSchema.extend({ lastSuccessAt: isoDate("lastSuccessAt").optional(), ...timestamps });

/** Per collection of the export registry: the schema and the most records one archive may hold. */
export const IMPORT_SCHEMAS = {
  contacts: { schema: contactSchema.extend(timestamps), maxRecords: 50_000 },
  packages: { schema: packageSchema.extend(timestamps), maxRecords: 5_000 },
  assessments: { schema: assessment, maxRecords: 50_000 },
  // An imported template is never the account's default: the account keeps its own.
  emailTemplates: { schema: emailTemplateSchema.extend({ isDefault: z.unknown().transform(() => false), ...timestamps }), maxRecords: 1_000 },
  pricingRules: { schema: pricingRuleSchema.extend(timestamps), maxRecords: 5_000 },
  vendorPackages: { schema: vendorPackageSchema.extend(timestamps), maxRecords: 1_000 },
  learningRecords: { schema: learningRecord, maxRecords: 50_000 },
  emailLogs: { schema: emailLog, maxRecords: 100_000 },
  estimateLinks: { schema: estimateLink, maxRecords: 50_000 },
  customerDecisions: { schema: customerDecision, maxRecords: 50_000 },
  estimateQuestions: { schema: estimateQuestion, maxRecords: 50_000 },
  webhookEndpoints: { schema: webhookEndpoint, maxRecords: 100 },
} satisfies Record<string, { schema: z.ZodTypeAny; maxRecords: number }>;

export type ImportableName = keyof typeof IMPORT_SCHEMAS;
