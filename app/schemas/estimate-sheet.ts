import { z } from "zod";
import { enumField, formNumber, hasAtMostDecimals, wholeField } from "./number-fields";
import { MAX_DAMAGES, MAX_SHEET_LINES } from "./estimate-limits";

export { MAX_SHEET_LINES };

// An estimate line as shops write them (CCC ONE / Mitchell, CIECA BMS): an operation, labour in a
// category at that category's rate, a part, an amount (sublet, or the vendor's other charges), a
// note. Money is integer cents in the API; the form posts dollars, turned into cents before this.

export const OPERATIONS = ["repair", "replace", "refinish", "blend", "remove_install", "sublet"] as const;
export type Operation = (typeof OPERATIONS)[number];
export const OPERATION_LABELS: Record<Operation, string> = {
  repair: "Repair",
  replace: "Replace",
  refinish: "Refinish",
  blend: "Blend",
  remove_install: "Remove & install",
  sublet: "Sublet",
};

export const LABOUR_CATEGORIES = ["body", "refinish", "mechanical", "frame"] as const;
export type LabourCategory = (typeof LABOUR_CATEGORIES)[number];

export const PART_TYPES = ["oem", "aftermarket", "used", "reconditioned"] as const;
export type PartType = (typeof PART_TYPES)[number];
export const PART_TYPE_LABELS: Record<PartType, string> = { oem: "OEM", aftermarket: "Aftermarket", used: "Used", reconditioned: "Reconditioned" };

export const ESTIMATE_LANGUAGES = ["en", "es", "fr"] as const;
export type EstimateLanguage = (typeof ESTIMATE_LANGUAGES)[number];

/** One line's money ceiling: $1,000,000 (integer cents stay far inside exact doubles). */
export const MAX_LINE_CENTS = 100_000_000;
export const MAX_HOURS = 999;
export const MAX_QUANTITY = 999;
export const LINE_NOT_ON_ESTIMATE = "This line is not on the estimate";
export const LINE_OPTIONAL_INVALID = "Optional must be true or false";

const cents = (label: string, min = 0) => wholeField(label, min, MAX_LINE_CENTS);
const text = (label: string, max: number) =>
  z
    .string({ invalid_type_error: `${label} must be text` })
    .max(max, `${label} must be at most ${max} characters`)
    .trim()
    .default("");
const blankToUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);

/** Hours in hundredths at most (engine medians can be 2.25 h). */
const hoursField = z
  .number({ required_error: "Hours are required", invalid_type_error: "Hours must be a number" })
  .finite("Hours must be a number")
  .min(0, "Hours must be at least 0")
  .max(MAX_HOURS, `Hours must be at most ${MAX_HOURS}`)
  .refine((v) => hasAtMostDecimals(v, 2), "Hours can have at most 2 decimal places");

/**
 * One line of an edit. `id`: a line already on the estimate (absent: a new line, the server gives
 * it an id). `damage`: the index of its damage in the edit's `damages` (absent or null: the whole
 * vehicle). `rateCents` absent takes the estimate's rate for the category.
 */
export const sheetLineSchema = z
  .object({
    id: z.preprocess(blankToUndefined, z.string({ invalid_type_error: LINE_NOT_ON_ESTIMATE }).max(40, LINE_NOT_ON_ESTIMATE).regex(/^[a-z0-9-]+$/, LINE_NOT_ON_ESTIMATE).optional()),
    damage: z.preprocess((v) => (v === "" ? null : formNumber(v)), wholeField("Damage", 0, MAX_DAMAGES - 1).nullish()),
    operation: enumField(OPERATIONS, "Operation"),
    description: text("Description", 200),
    labourCategory: z.preprocess(blankToUndefined, enumField(LABOUR_CATEGORIES, "Labour category").optional()),
    hours: z.preprocess(formNumber, hoursField.optional()),
    rateCents: z.preprocess(formNumber, cents("Labour rate").optional()),
    partType: z.preprocess(blankToUndefined, enumField(PART_TYPES, "Part type").optional()),
    partNumber: text("Part number", 60),
    partDescription: text("Part description", 200),
    quantity: z.preprocess(formNumber, wholeField("Quantity", 1, MAX_QUANTITY).optional()),
    unitPriceCents: z.preprocess(formNumber, cents("Unit price").optional()),
    /** Sublet: the sublet's price; any other operation: other charges (negative = an allowance). */
    amountCents: z.preprocess(formNumber, wholeField("Amount", -MAX_LINE_CENTS, MAX_LINE_CENTS).optional()),
    note: text("Note", 500),
    /** Recommended, not required: the customer may leave it out. Absent keeps what the line was (a new line: required). */
    optional: z.preprocess(
      (v) => (v === "on" || v === "true" ? true : v === "false" || v === "" ? false : v),
      z.boolean({ invalid_type_error: LINE_OPTIONAL_INVALID }).optional(),
    ),
  })
  .superRefine((line, ctx) => {
    if ((line.hours ?? 0) > 0 && !line.labourCategory) ctx.addIssue({ code: "custom", path: ["labourCategory"], message: "Choose the labour category for the hours" });
    if (line.partType && line.unitPriceCents === undefined) ctx.addIssue({ code: "custom", path: ["unitPriceCents"], message: "Unit price is required for a part" });
    if (!line.partType && (line.unitPriceCents ?? 0) > 0) ctx.addIssue({ code: "custom", path: ["partType"], message: "Choose the part type for the price" });
    if (line.operation === "sublet" && line.amountCents === undefined) ctx.addIssue({ code: "custom", path: ["amountCents"], message: "A sublet line needs its amount" });
  });
export type SheetLineInput = z.infer<typeof sheetLineSchema>;

/** The estimate-wide figures an edit may set (integer cents). */
export const sheetFields = {
  materialsRateCents: z.preprocess(formNumber, cents("Paint materials rate").optional()),
  /** Absent keeps the deductible as it is; null removes it (no insurer). */
  deductibleCents: z.preprocess((v) => (v === "" ? null : formNumber(v)), cents("Deductible").nullish()),
  language: z.preprocess(blankToUndefined, enumField(ESTIMATE_LANGUAGES, "Language").optional()),
  /** The vehicle's odometer when it was estimated; absent keeps it, null removes it. */
  mileage: z.preprocess((v) => (v === "" ? null : formNumber(v)), wholeField("Mileage", 0, 2_000_000).nullish()),
};

// The version's label and number live in a module of their own (no imports), so that screens can name versions cheaply.
export { estimateNumber, versionLabel } from "~/schemas/version-label";

const storedCents = z.number().int().min(-MAX_LINE_CENTS).max(MAX_LINE_CENTS);
const storedText = (max: number) => z.string().max(max).default("");
const factor = z.number().min(0).max(1000);

/** One step of a line's "why this price" (app/utils/estimate-basis.ts), as stored and imported. */
export const basisStepSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("rule"), damageType: z.string().max(40), severity: z.string().max(20) }),
  z.object({ kind: z.literal("hours"), from: z.enum(["training", "default"]) }),
  z.object({ kind: z.literal("base"), cents: storedCents }),
  z.object({ kind: z.literal("adjustment"), make: factor, location: factor, seasonal: factor, markupPercent: z.number().min(-100).max(1000), cents: storedCents }),
  z.object({ kind: z.literal("minimum"), minimumCents: storedCents, cents: storedCents }),
  z.object({ kind: z.literal("learning"), factor, records: z.number().int().min(0), cents: storedCents }),
  z.object({ kind: z.literal("reviewer"), fromCents: storedCents.nullable(), toCents: storedCents }),
]);

/** The sheet as stored (an import re-validates it with this: a line as the edit writes it). */
export const storedSheetSchema = z.object({
  lines: z
    .array(
      z.object({
        id: z.string().max(40).regex(/^[a-z0-9-]+$/),
        damage: z.number().int().min(0).max(MAX_DAMAGES - 1).nullable(),
        operation: z.enum(OPERATIONS),
        description: storedText(200),
        labour: z
          .object({ category: z.enum(LABOUR_CATEGORIES), hours: z.number().min(0).max(MAX_HOURS), rateCents: storedCents.min(0), amountCents: storedCents.min(0).optional() })
          .nullable(),
        part: z
          .object({
            type: z.enum(PART_TYPES),
            number: storedText(60),
            description: storedText(200),
            quantity: z.number().int().min(1).max(MAX_QUANTITY),
            unitPriceCents: storedCents.min(0),
            amountCents: storedCents.min(0).optional(),
          })
          .nullable(),
        amountCents: storedCents,
        note: storedText(500),
        basis: z.array(basisStepSchema).max(10).optional(),
        optional: z
          .boolean()
          .optional()
          .transform((v) => (v === true ? v : undefined)),
      }),
    )
    .max(MAX_SHEET_LINES),
  rates: z.object({ body: storedCents.min(0), refinish: storedCents.min(0), mechanical: storedCents.min(0), frame: storedCents.min(0) }),
  materialsRateCents: storedCents.min(0),
  taxRates: z.object({ parts: z.number().min(0).max(100), labour: z.number().min(0).max(100), materials: z.number().min(0).max(100) }),
  deductibleCents: storedCents.min(0).nullable(),
  language: z.enum(ESTIMATE_LANGUAGES).nullable(),
  mileage: z.number().int().min(0).max(2_000_000).nullable().default(null),
});
