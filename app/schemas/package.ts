import { withZod } from "@remix-validated-form/with-zod";
import { z } from "zod";
import { hasAtMostDecimals } from "./number-fields";
import { optionalString, requiredString } from "./text-fields";
import { PACKAGE_LIMITS } from "./package-limits";

export { PACKAGE_LIMITS };

const PRICE_MESSAGE = "Price must be a positive number";

/** A number ≥ 0 in dollars and cents (the form's step is 0.01). */
const priceField = z
  .number({ required_error: PRICE_MESSAGE, invalid_type_error: PRICE_MESSAGE })
  .finite(PRICE_MESSAGE)
  .min(0, PRICE_MESSAGE)
  .max(PACKAGE_LIMITS.price, `Price must be at most ${PACKAGE_LIMITS.price.toLocaleString("en-US")}`)
  .refine((v) => hasAtMostDecimals(v, 2), "Price can have at most 2 decimal places")
  .transform((v) => Math.round(v * 100) / 100);

/** A list of text: items trimmed, empty ones dropped, at most 50 of at most 200 characters. */
const featuresField = z
  .array(z.string({ invalid_type_error: "Each feature must be text" }), {
    invalid_type_error: "Features must be a list of text",
  })
  .transform((list) => list.map((f) => f.trim()).filter((f) => f !== ""))
  .refine((list) => list.length <= PACKAGE_LIMITS.features, `At most ${PACKAGE_LIMITS.features} features`)
  .refine(
    (list) => list.every((f) => f.length <= PACKAGE_LIMITS.featureLength),
    `Each feature must be at most ${PACKAGE_LIMITS.featureLength} characters`,
  );

/**
 * A package as `POST`/`PUT /api/packages` send it: price is a JSON number, features a list,
 * isActive a boolean (true when left out). Unknown fields (ownerId, timestamps…) are dropped.
 */
export const packageSchema = z.object({
  name: requiredString("Package name", "Package name is required", PACKAGE_LIMITS.name),
  description: optionalString("Description", PACKAGE_LIMITS.description),
  price: priceField,
  features: featuresField.default([]),
  isActive: z.boolean({ invalid_type_error: "isActive must be true or false" }).default(true),
});

export type PackageInput = z.infer<typeof packageSchema>;

/** Splits a textarea into lines (the schema then trims them and drops the empty ones). */
export const featureLines = (text: string) => text.split(/\r\n|\r|\n/);

/**
 * What the Add/Edit Package form posts, turned into the API's shape: the price text becomes a
 * number, the features textarea one feature per line, the switch "on"/absent a boolean.
 */
function fromForm(values: unknown) {
  if (values === null || typeof values !== "object" || Array.isArray(values)) return values;
  const form = values as Record<string, unknown>;
  const price = typeof form.price === "string" ? (form.price.trim() === "" ? undefined : Number(form.price)) : form.price;
  return {
    ...form,
    price,
    features: typeof form.features === "string" ? featureLines(form.features) : (form.features ?? []),
    isActive: form.isActive === "on" || form.isActive === "true" || form.isActive === true,
  };
}

/** The package schema behind the form adapter; the browser and the screen action both use it. */
export const packageFormSchema = z.preprocess(fromForm, packageSchema);
export const packageValidator = withZod(packageFormSchema);
