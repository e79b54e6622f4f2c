import { withZod } from "@remix-validated-form/with-zod";
import { ASSESSMENT_STATUSES } from "./assessment-status";
import { z } from "zod";
import { listQueryInput, listQuerySchema } from "./list-query";
import { messages } from "./upload-limits";
import { optionalString, requiredString } from "./text-fields";
import { VIN_MESSAGE, VIN_PATTERN } from "./vin";

export { VIN_MESSAGE };

export { ASSESSMENT_STATUSES, SEVERITY_COLOR, STATUS_COLOR, type AssessmentStatus } from "./assessment-status";

/** The wizard's limit (spec §5, §9): at most 20 files per assessment. */
export const MAX_ASSESSMENT_MEDIA = 20;

export const ASSESSMENT_LIMITS = {
  title: 200,
  vehicleText: 100,
  notes: 5000,
  mediaUrl: 2048,
} as const;

export const VEHICLE_YEAR_MIN = 1900;
export const VEHICLE_YEAR_MAX = 2030;

export const NO_FILES_MESSAGE = "Please upload at least one file";

const blank = (v: unknown) => v === null || v === undefined || (typeof v === "string" && v.trim() === "");

/** Optional integer 1900–2030; a blank form field is absent, a form's digits become a number. */
const vehicleYear = z.preprocess(
  (v) => (blank(v) ? undefined : typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
  z
    .number({ invalid_type_error: "Vehicle year must be a whole number" })
    .int("Vehicle year must be a whole number")
    .min(VEHICLE_YEAR_MIN, `Vehicle year must be at least ${VEHICLE_YEAR_MIN}`)
    .max(VEHICLE_YEAR_MAX, `Vehicle year must be at most ${VEHICLE_YEAR_MAX}`)
    .optional(),
);

/** Optional VIN: trimmed and upper-cased; 17 of A–Z/0–9 without I, O, Q (they read as 1 and 0). */
const vin = z.preprocess(
  (v) => (blank(v) ? undefined : typeof v === "string" ? v.trim().toUpperCase() : v),
  z.string({ invalid_type_error: "VIN must be text" }).regex(VIN_PATTERN, VIN_MESSAGE).optional(),
);

/** An optional reference to another document: a 24-hex id, blank is absent; anything else reads `message`. */
const optionalId = (message: string) =>
  z.preprocess(
    (v) => (blank(v) ? undefined : typeof v === "string" ? v.trim().toLowerCase() : v),
    z.string({ invalid_type_error: message }).regex(/^[a-f0-9]{24}$/, message).optional(),
  );

/** 1–20 media URLs; a form with one file posts a lone string. */
const mediaUrls = z.preprocess(
  (v) => (v === undefined || v === null ? [] : typeof v === "string" ? [v] : v),
  z
    .array(
      z
        .string({ invalid_type_error: "Each media URL must be text" })
        .max(ASSESSMENT_LIMITS.mediaUrl, `Each media URL must be at most ${ASSESSMENT_LIMITS.mediaUrl} characters`)
        .trim()
        .min(1, "Each media URL must be text"),
      { invalid_type_error: "Media URLs must be a list of text" },
    )
    .min(1, NO_FILES_MESSAGE)
    .max(MAX_ASSESSMENT_MEDIA, messages.maxFiles(MAX_ASSESSMENT_MEDIA)),
);

const editableFields = {
  title: requiredString("Title", "Title is required", ASSESSMENT_LIMITS.title),
  vehicleYear,
  vehicleMake: optionalString("Vehicle make", ASSESSMENT_LIMITS.vehicleText),
  vehicleModel: optionalString("Vehicle model", ASSESSMENT_LIMITS.vehicleText),
  vin,
  contactId: optionalId("Contact not found"),
  notes: optionalString("Notes", ASSESSMENT_LIMITS.notes),
  // Absent means "No vendor": the cost stays TBD.
  vendorId: optionalId("Vendor not found"),
};

/**
 * An assessment as the wizard's details step and `POST /api/assessments` send it: one schema for the
 * API, the screen action and the browser validation. Unknown fields (status, ownerId, costs, AI
 * results…) are dropped: they are never taken from a body.
 */
export const assessmentCreateSchema = z.object({ ...editableFields, mediaUrls });

/** `PUT /api/assessments/{id}`: the editable fields, replaced (an optional one left out is removed). */
export const assessmentUpdateSchema = z.object(editableFields);

export type AssessmentCreateInput = z.infer<typeof assessmentCreateSchema>;
export type AssessmentUpdateInput = z.infer<typeof assessmentUpdateSchema>;

/** Review's Reject: an optional reason, kept in the audit list. */
export const assessmentRejectSchema = z.object({ note: optionalString("Note", 1000) });

export const assessmentCreateValidator = withZod(assessmentCreateSchema);

/**
 * The Estimates screen's status filter sends "all" for no filter, and a form without JavaScript an
 * empty one: both are in the described enum, so an API client reads that they mean every status.
 */
const statusFilter = z
  .enum(["", "all", ...ASSESSMENT_STATUSES], { errorMap: () => ({ message: `status must be one of: all, ${ASSESSMENT_STATUSES.join(", ")}` }) })
  .optional()
  .transform((v) => (v === "" || v === "all" ? undefined : v));

/** `GET /api/assessments?q=&status=&limit=&offset=`: without parameters the whole list. */
export const assessmentListQuerySchema = listQuerySchema.extend({ status: statusFilter });
export type AssessmentListQuery = z.infer<typeof assessmentListQuerySchema>;

export function assessmentListQueryInput(url: URL) {
  return { ...listQueryInput(url), status: url.searchParams.get("status") ?? undefined };
}
