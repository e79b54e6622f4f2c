import { z } from "zod";

// Text fields whose messages name the field ("Notes must be at most 5000 characters"), for domain
// forms that share one schema between the screen (form posts) and the JSON API.

import { blankWithin } from "./blank";

/** Required, trimmed; missing or blank gives `requiredMessage`, a non-string `${label} must be text`. */
export function requiredString(label: string, requiredMessage: string, max: number) {
  return z
    .string({ required_error: requiredMessage, invalid_type_error: `${label} must be text` })
    .max(max, `${label} must be at most ${max} characters`)
    .trim()
    .min(1, requiredMessage);
}

/** Optional, trimmed; blank (or null from a JSON client clearing it) becomes undefined. */
export function optionalString(label: string, max: number) {
  return z.preprocess(
    (v) => (v === null ? undefined : blankWithin(max)(v)),
    z
      .string({ invalid_type_error: `${label} must be text` })
      .max(max, `${label} must be at most ${max} characters`)
      .trim()
      .optional(),
  );
}
