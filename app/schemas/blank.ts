/**
 * Blank text ("" or whitespace only) counts as absent, but only within the field's limit. Limits
 * apply to the text as sent, before trimming, as the API description's `maxLength` says: 300 spaces
 * in a 100-character field are too long, not absent. (Schemas check `.max()` before `.trim()`.)
 */
export const blankWithin =
  (max = Number.POSITIVE_INFINITY) =>
  (v: unknown) =>
    typeof v === "string" && v.length <= max && v.trim() === "" ? undefined : v;
