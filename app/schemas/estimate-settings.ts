import { withZod } from "@remix-validated-form/with-zod";
import { z } from "zod";
import { decimalField, formNumber, hasAtMostDecimals, wholeField } from "./number-fields";

/** The terms printed on an estimate, at most this long (Handlebars, escaped). */
export const TERMS_MAX = 5000;
export const DEFAULT_VALIDITY_DAYS = 30;

const percent = (label: string) =>
  z.preprocess(
    (v) => (v === undefined || (typeof v === "string" && v.trim() === "") ? 0 : formNumber(v)),
    decimalField(label, 0, 100).refine((v) => hasAtMostDecimals(v, 3), `${label} can have at most 3 decimal places`),
  );

/**
 * Settings → Profile, Estimates and `PUT /api/auth/estimate-settings`: the tax rates per category
 * (percent), the terms (Handlebars: {{customer.name}}, {{account.name}}, {{estimate.total}},
 * {{estimate.validUntil}}, {{estimate.title}}) and how many days an estimate is valid.
 */
export const estimateSettingsSchema = z.object({
  taxParts: percent("Tax on parts"),
  taxLabour: percent("Tax on labour"),
  taxMaterials: percent("Tax on paint materials"),
  terms: z
    .string({ invalid_type_error: "Terms must be text" })
    .max(TERMS_MAX, `Terms must be at most ${TERMS_MAX} characters`)
    .default(""),
  validityDays: z.preprocess(
    (v) => (v === undefined || (typeof v === "string" && v.trim() === "") ? DEFAULT_VALIDITY_DAYS : formNumber(v)),
    wholeField("Validity", 1, 365),
  ),
});
export type EstimateSettingsInput = z.infer<typeof estimateSettingsSchema>;
export const estimateSettingsValidator = withZod(estimateSettingsSchema);

export const TERMS_VARIABLES = ["customer.name", "account.name", "estimate.title", "estimate.total", "estimate.validUntil"] as const;
