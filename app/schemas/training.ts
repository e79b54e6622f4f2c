import { withZod } from "@remix-validated-form/with-zod";
import { z } from "zod";
import { DAMAGE_LOCATIONS, DAMAGE_TYPES, SEVERITIES } from "./damage";
import { listQuerySchema } from "./list-query";
import { amountField, commaList, decimalField, enumField, formBoolean, formNumber, textList, wholeField } from "./number-fields";
import { optionalString, requiredString } from "./text-fields";

export const TRAINING_LIMITS = { description: 2000, notes: 5000, vehicle: 100, laborHours: 1000 } as const;

/**
 * An AI training item as `POST`/`PUT /api/admin/ai-training-data` send it. `imageUrl` is checked
 * by the service (a media URL of an upload of the caller). Unknown fields are dropped.
 */
export const trainingItemSchema = z.object({
  imageUrl: requiredString("Image", "Image is required", 2000),
  damageType: enumField(DAMAGE_TYPES, "Damage type"),
  severity: enumField(SEVERITIES, "Severity"),
  description: requiredString("Description", "Description is required", TRAINING_LIMITS.description),
  estimatedCost: amountField("Estimated cost"),
  laborHours: decimalField("Labor hours", 0, TRAINING_LIMITS.laborHours).nullish().transform((v) => v ?? undefined),
  partsCost: amountField("Parts cost").nullish().transform((v) => v ?? undefined),
  paintWork: z.boolean({ invalid_type_error: "paintWork must be true or false" }).default(false),
  vehicleMake: optionalString("Vehicle make", TRAINING_LIMITS.vehicle),
  vehicleModel: optionalString("Vehicle model", TRAINING_LIMITS.vehicle),
  vehicleYear: wholeField("Vehicle year", 1900, 2030).nullish().transform((v) => v ?? undefined),
  location: enumField(DAMAGE_LOCATIONS, "Location").nullish().transform((v) => v ?? undefined),
  tags: textList("Tags", { max: 20, length: 50 }).default([]),
  notes: optionalString("Notes", TRAINING_LIMITS.notes),
  isVerified: z.boolean({ invalid_type_error: "isVerified must be true or false" }).default(false),
});
export type TrainingItemInput = z.infer<typeof trainingItemSchema>;

/** `PUT` with only `{isVerified: true}`: Verify (nothing moves an item back to pending). */
export const verifyOnlySchema = z.object({ isVerified: z.literal(true) }).strict();

/** `GET /api/admin/ai-training-data` filters, each omitted when 'all'. */
export const trainingFilterSchema = z.object({
  damageType: enumField(DAMAGE_TYPES, "damageType").optional(),
  severity: enumField(SEVERITIES, "severity").optional(),
  isVerified: z
    .enum(["true", "false"], { errorMap: () => ({ message: "isVerified must be true or false" }) })
    .optional()
    .transform((v) => (v === undefined ? undefined : v === "true")),
});
export type TrainingFilter = z.infer<typeof trainingFilterSchema>;

/** The filters with keyset paging (docs/decisions/0033): `limit` and the `cursor` of the page before; without them, every item. */
export const trainingListQuerySchema = trainingFilterSchema.extend({
  limit: listQuerySchema.shape.limit,
  cursor: listQuerySchema.shape.cursor,
  updatedSince: listQuerySchema.shape.updatedSince,
});

const numberFields = ["estimatedCost", "laborHours", "partsCost", "vehicleYear"] as const;

/** The Add/Edit Training Data form's text fields turned into the API's shape. */
function fromForm(values: unknown) {
  if (values === null || typeof values !== "object" || Array.isArray(values)) return values;
  const form: Record<string, unknown> = { ...(values as Record<string, unknown>) };
  for (const field of numberFields) form[field] = formNumber(form[field]);
  for (const field of ["location"] as const) if (form[field] === "") form[field] = undefined;
  form.paintWork = formBoolean(form.paintWork) ?? false;
  form.isVerified = formBoolean(form.isVerified) ?? false;
  form.tags = commaList(form.tags) ?? [];
  return form;
}

export const trainingItemFormSchema = z.preprocess(fromForm, trainingItemSchema);
export const trainingItemValidator = withZod(trainingItemFormSchema);
