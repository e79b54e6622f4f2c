import { withZod } from "@remix-validated-form/with-zod";
import { z } from "zod";
import { DAMAGE_LOCATIONS, DAMAGE_TYPES, PRICING_MODELS, SEVERITIES } from "./damage";
import { MAX_DAMAGES } from "./estimate-limits";
import {
  amountField,
  commaList,
  decimalField,
  enumField,
  formBoolean,
  formNumber,
  textList,
  wholeField,
} from "./number-fields";
import { optionalString, requiredString } from "./text-fields";

export const MODIFIER_LIMITS = { entries: 50, keyLength: 50, min: 0.01, max: 10 } as const;
export const MODIFIER_KINDS = ["vehicleMakeModifier", "locationModifier", "seasonalModifier"] as const;
export type ModifierKind = (typeof MODIFIER_KINDS)[number];
export const MONTHS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"] as const;

const objectId = (label: string) =>
  z
    .string({ required_error: `${label} is required`, invalid_type_error: `${label} must be text` })
    .regex(/^[a-f0-9]{24}$/i, `${label} is not a valid id`);

/**
 * A modifier map (key → multiplier). Keys are plain words (never `$…` or dotted: they become field
 * names in the database); a make is any name, a location one of the spec's, a month 1–12.
 */
function modifierMap(label: string, allowedKeys?: readonly string[]) {
  return z
    .record(
      z
        .string()
        .max(MODIFIER_LIMITS.keyLength, `${label}: keys are at most ${MODIFIER_LIMITS.keyLength} characters`)
        .trim()
        .min(1, `${label}: a key is empty`)
        .regex(/^[\p{L}\p{N}][\p{L}\p{N} &'-]*$/u, `${label}: keys are letters, digits, spaces, & ' and -`)
        .refine((k) => !allowedKeys || allowedKeys.includes(k.toLowerCase()), {
          message: `${label}: keys must be one of ${allowedKeys?.join(", ")}`,
        }),
      decimalField(`${label} multiplier`, MODIFIER_LIMITS.min, MODIFIER_LIMITS.max),
      { invalid_type_error: `${label} must be an object of key → multiplier` },
    )
    .refine((m) => Object.keys(m).length <= MODIFIER_LIMITS.entries, `${label}: at most ${MODIFIER_LIMITS.entries} entries`)
    .transform((m) => Object.fromEntries(Object.entries(m).map(([k, v]) => [allowedKeys ? k.toLowerCase() : k.trim(), v])))
    .default({});
}

/** A vendor pricing rule (spec part 2 §3, §5): markup and minimum charge default to 0.00. */
export const pricingRuleSchema = z.object({
  damageType: enumField(DAMAGE_TYPES, "Damage type"),
  severity: enumField(SEVERITIES, "Severity"),
  basePrice: amountField("Base price"),
  laborRate: amountField("Labor rate", { max: 100_000 }),
  markupPercentage: decimalField("Markup percentage", 0, 1000).default(0),
  minimumCharge: amountField("Minimum charge").default(0),
  vehicleMakeModifier: modifierMap("Vehicle make modifier"),
  locationModifier: modifierMap("Location modifier", DAMAGE_LOCATIONS),
  seasonalModifier: modifierMap("Seasonal modifier", MONTHS),
  notes: optionalString("Notes", 2000),
  isActive: z.boolean({ invalid_type_error: "isActive must be true or false" }).default(true),
  // Shop defaults of estimate lines (issue 27): a refinish line, paint materials per refinish hour, the part's price.
  refinishHours: decimalField("Refinish hours", 0, 999).nullish(),
  refinishRate: amountField("Refinish rate", { max: 100_000 }).nullish(),
  materialsRate: amountField("Paint materials rate", { max: 100_000 }).nullish(),
  partPrice: amountField("Part price").nullish(),
});
export type PricingRuleInput = z.infer<typeof pricingRuleSchema>;
/** A rule's optional shop defaults of estimate lines. */
export const RULE_LINE_DEFAULTS = ["refinishHours", "refinishRate", "materialsRate", "partPrice"] as const;

const discountTier = z
  .object({
    minimumAmount: amountField("Discount tier minimum amount"),
    discountPercentage: decimalField("Discount percentage", 0, 100),
  })
  .strict();

/** A vendor package (spec part 2 §3, §5): warranty and turnaround default 0, AI weight 1.00. */
export const vendorPackageSchema = z.object({
  packageName: requiredString("Name", "Name is required", 100),
  description: optionalString("Description", 2000),
  serviceTypes: textList("Service types", { max: 30, length: 100 }).refine((l) => l.length > 0, "Service types are required"),
  pricingModel: enumField(PRICING_MODELS, "Pricing model"),
  basePrice: amountField("Base price").nullish().transform((v) => v ?? undefined),
  hourlyRate: amountField("Hourly rate", { max: 100_000 }).nullish().transform((v) => v ?? undefined),
  damageTypeRates: z
    .record(enumField(DAMAGE_TYPES, "damageTypeRates key"), amountField("Damage type rate"), {
      invalid_type_error: "damageTypeRates must be an object of damage type → amount",
    })
    .default({}),
  includesPickupDelivery: z.boolean({ invalid_type_error: "includesPickupDelivery must be true or false" }).default(false),
  warrantyMonths: wholeField("Warranty months", 0, 600).default(0),
  turnaroundDays: wholeField("Turnaround days", 0, 365).default(0),
  minimumOrder: amountField("Minimum order").nullish().transform((v) => v ?? undefined),
  discountTiers: z.array(discountTier, { invalid_type_error: "discountTiers must be a list" }).max(20, "At most 20 discount tiers").default([]),
  aiWeighting: decimalField("AI weight", 0, 10).default(1),
  isActive: z.boolean({ invalid_type_error: "isActive must be true or false" }).default(true),
});
export type VendorPackageInput = z.infer<typeof vendorPackageSchema>;

/** A learning record an admin adds by hand (the estimate-edit flow adds them too). */
export const learningRecordSchema = z.object({
  damageType: enumField(DAMAGE_TYPES, "Damage type"),
  severity: enumField(SEVERITIES, "Severity"),
  originalEstimate: amountField("Original estimate").refine((v) => v > 0, "Original estimate must be more than 0"),
  finalCost: amountField("Final cost"),
  adjustmentReason: optionalString("Adjustment reason", 1000),
  vehicleMake: optionalString("Vehicle make", 100),
  learningWeight: decimalField("Learning weight", 0.01, 10).default(1),
});
export type LearningRecordInput = z.infer<typeof learningRecordSchema>;

/** The API's bodies carry the vendor: `{vendorId, …fields}`. */
export const withVendorId = <S extends z.AnyZodObject>(schema: S) =>
  schema.extend({ vendorId: objectId("vendorId").optional() });

export const vendorIdQuerySchema = z.object({ vendorId: objectId("vendorId").optional() });

/** `POST /api/vendors/{vendorId}/quote`. */
export const quoteRequestSchema = z.object({
  damages: z
    .array(
      z.object({
        damageType: enumField(DAMAGE_TYPES, "Damage type"),
        severity: enumField(SEVERITIES, "Severity"),
        location: enumField(DAMAGE_LOCATIONS, "Location").optional(),
      }),
      { required_error: "damages is required", invalid_type_error: "damages must be a list" },
    )
    .min(1, "At least one damage is required")
    .max(MAX_DAMAGES, `At most ${MAX_DAMAGES} damages`),
  vehicleMake: optionalString("Vehicle make", 100),
  vehicleYear: wholeField("Vehicle year", 1900, 2030).optional(),
  date: z
    .string({ invalid_type_error: "date must be an ISO date" })
    .datetime({ offset: true, message: "date must be an ISO date" })
    .or(z.string().regex(/^\d{4}-\d\d-\d\d$/, "date must be an ISO date"))
    .optional()
    .transform((v) => (v === undefined ? undefined : new Date(v))),
});
export type QuoteRequest = z.infer<typeof quoteRequestSchema>;

// ---------------------------------------------------------------------------------------------
// Forms (screens): text fields → the API's shape

/** Modifier rows posted as `<kind>Key` / `<kind>Value` lists (JS off) or the map itself. */
function modifierRows(form: Record<string, unknown>, kind: ModifierKind) {
  const keys = form[`${kind}Key`];
  const values = form[`${kind}Value`];
  if (keys === undefined && values === undefined) return form[kind] ?? {};
  const k = Array.isArray(keys) ? keys : [keys];
  const v = Array.isArray(values) ? values : [values];
  const map: Record<string, unknown> = {};
  k.forEach((key, i) => {
    if (typeof key === "string" && key.trim() !== "") map[key] = formNumber(v[i]);
  });
  return map;
}

function pricingRuleFromForm(values: unknown) {
  if (values === null || typeof values !== "object" || Array.isArray(values)) return values;
  const form = values as Record<string, unknown>;
  const out: Record<string, unknown> = { ...form };
  for (const field of ["basePrice", "laborRate", "markupPercentage", "minimumCharge"]) out[field] = formNumber(form[field]);
  // The form shows every one of a rule's line defaults: one left blank has none (null clears it on edit).
  for (const field of RULE_LINE_DEFAULTS) {
    if (field in form) out[field] = formNumber(form[field]) ?? null;
  }
  for (const kind of MODIFIER_KINDS) out[kind] = modifierRows(form, kind);
  out.isActive = formBoolean(form.isActive) ?? false;
  return out;
}

function vendorPackageFromForm(values: unknown) {
  if (values === null || typeof values !== "object" || Array.isArray(values)) return values;
  const form = values as Record<string, unknown>;
  const out: Record<string, unknown> = { ...form };
  for (const field of ["basePrice", "hourlyRate", "warrantyMonths", "turnaroundDays", "minimumOrder", "aiWeighting"]) {
    out[field] = formNumber(form[field]);
  }
  out.serviceTypes = commaList(form.serviceTypes) ?? [];
  out.includesPickupDelivery = formBoolean(form.includesPickupDelivery) ?? false;
  out.isActive = formBoolean(form.isActive) ?? false;
  delete out.damageTypeRates;
  delete out.discountTiers;
  return out;
}

export const pricingRuleFormSchema = z.preprocess(pricingRuleFromForm, pricingRuleSchema);
export const pricingRuleValidator = withZod(pricingRuleFormSchema);
export const vendorPackageFormSchema = z.preprocess(vendorPackageFromForm, vendorPackageSchema);
export const vendorPackageValidator = withZod(vendorPackageFormSchema);
