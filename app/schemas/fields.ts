import { z } from "zod";

/** Blank form fields (""/whitespace) count as absent. */
const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

/** A required text field: trimmed, with the spec's message when missing or blank. */
export function requiredText(message: string, max = 200) {
  return z
    .string({ required_error: message, invalid_type_error: message })
    .trim()
    .min(1, message)
    .max(max, `Must be at most ${max} characters`);
}

/** An optional text field: trimmed, blank becomes undefined. */
export function optionalText(max = 200, label = "This field") {
  return z.preprocess(
    blankToUndefined,
    z
      .string({ invalid_type_error: `${label} must be text` })
      .trim()
      .max(max, `Must be at most ${max} characters`)
      .optional(),
  );
}

export const emailField = (message = "Please enter a valid email") =>
  z
    .string({ required_error: message, invalid_type_error: message })
    .trim()
    .max(254, message)
    .email(message);

export const usernameField = z
  .string({
    required_error: "Username must be at least 3 characters",
    invalid_type_error: "Username must be at least 3 characters",
  })
  .trim()
  .min(3, "Username must be at least 3 characters")
  .max(50, "Username must be at most 50 characters")
  .regex(/^[A-Za-z0-9._@-]+$/, "Username may contain letters, digits and . _ @ - only");

export const passwordField = (min: number) =>
  z
    .string({
      required_error: `Password must be at least ${min} characters`,
      invalid_type_error: `Password must be at least ${min} characters`,
    })
    .min(min, `Password must be at least ${min} characters`)
    .max(200, "Password must be at most 200 characters");

/** Checkbox/switch: form posts "on"/"true", JSON sends a boolean; absent means false. */
export const checkbox = z.preprocess(
  (v) => (v === "on" || v === "true" ? true : v === "false" || v === undefined || v === "" ? false : v),
  z.boolean({ invalid_type_error: "Must be true or false" }),
);
