import { z } from "zod";

// Number fields whose messages name the field, for the JSON API (numbers) and the forms (text that
// the form adapters turn into numbers first; see `formNumber`).

/**
 * At most `places` decimals, as the API description's `multipleOf` says, give or take the rounding of
 * binary floating point, relative to the number (a client's 0.1 + 0.2 is 0.30): 0.005 is not, nor is
 * 9e-74, which a fixed tolerance took for 0.00.
 */
export function hasAtMostDecimals(v: number, places: number) {
  const scaled = v * 10 ** places;
  return Math.abs(scaled - Math.round(scaled)) <= 4 * Number.EPSILON * Math.abs(scaled);
}

/** A form's text as a number: blank is absent, anything else goes through Number (so "abc" is NaN). */
export const formNumber = (v: unknown) => (typeof v === "string" ? (v.trim() === "" ? undefined : Number(v)) : v);

/** An amount of dollars ≥ 0 with at most 2 decimals, at most `max`. */
export function amountField(label: string, { max = 10_000_000, message }: { max?: number; message?: string } = {}) {
  const invalid = message ?? `${label} must be a positive number`;
  return z
    .number({ required_error: message ?? `${label} is required`, invalid_type_error: invalid })
    .finite(invalid)
    .min(0, invalid)
    .max(max, `${label} must be at most ${max.toLocaleString("en-US")}`)
    .refine((v) => hasAtMostDecimals(v, 2), `${label} can have at most 2 decimal places`)
    .transform((v) => Math.round(v * 100) / 100);
}

/** A decimal number in [min, max]. */
export function decimalField(label: string, min: number, max: number) {
  return z
    .number({ required_error: `${label} is required`, invalid_type_error: `${label} must be a number` })
    .finite(`${label} must be a number`)
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} must be at most ${max}`);
}

/** A whole number in [min, max]. */
export function wholeField(label: string, min: number, max: number) {
  return z
    .number({ required_error: `${label} is required`, invalid_type_error: `${label} must be a whole number` })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} must be at most ${max}`);
}

/** One of the spec's enumeration values; anything else reads "<Label> must be one of: a, b, …". */
export function enumField<const T extends readonly [string, ...string[]]>(values: T, label: string) {
  return z.enum(values, {
    errorMap: (issue, ctx) => ({
      message:
        issue.code === "invalid_type" && ctx.data === undefined
          ? `${label} is required`
          : `${label} must be one of: ${values.join(", ")}`,
    }),
  });
}

/** A boolean from JSON, or from a form checkbox ("on"/"true" checked, absent unchecked). */
export const formBoolean = (v: unknown) => (v === "on" || v === "true" ? true : v === "false" ? false : v);

/** A list of text from a comma-separated form field (JSON clients send the list). */
export const commaList = (v: unknown) => (typeof v === "string" ? v.split(",") : v);

/** A list of text: items trimmed, empty ones dropped, at most `max` of at most `length` characters. */
export function textList(label: string, { max = 50, length = 100 }: { max?: number; length?: number } = {}) {
  return z
    .array(z.string({ invalid_type_error: `Each ${label.toLowerCase()} entry must be text` }), {
      invalid_type_error: `${label} must be a list of text`,
    })
    .transform((list) => list.map((f) => f.trim()).filter((f) => f !== ""))
    .refine((list) => list.length <= max, `At most ${max} ${label.toLowerCase()}`)
    .refine((list) => list.every((f) => f.length <= length), `Each entry must be at most ${length} characters`);
}
