import { z } from "zod";

/** Blank form fields (""/whitespace) count as absent. */
import { blankWithin } from "./blank";

/** A required text field: at most `max` characters as sent, trimmed, with the spec's message when missing or blank. */
export function requiredText(message: string, max = 200) {
  return z
    .string({ required_error: message, invalid_type_error: message })
    .max(max, `Must be at most ${max} characters`)
    .trim()
    .min(1, message);
}

/** An optional text field: trimmed, blank becomes undefined. */
export function optionalText(max = 200, label = "This field") {
  return z.preprocess(
    blankWithin(max),
    z
      .string({ invalid_type_error: `${label} must be text` })
      .max(max, `Must be at most ${max} characters`)
      .trim()
      .optional(),
  );
}

export const emailField = (message = "Please enter a valid email") =>
  z
    .string({ required_error: message, invalid_type_error: message })
    .max(254, message)
    .trim()
    .email(message);

export const usernameField = z
  .string({
    required_error: "Username must be at least 3 characters",
    invalid_type_error: "Username must be at least 3 characters",
  })
  .max(50, "Username must be at most 50 characters")
  .trim()
  .min(3, "Username must be at least 3 characters")
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
