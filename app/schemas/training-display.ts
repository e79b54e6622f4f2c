// What the AI Training screen shows and offers, apart from the zod schemas (importing those
// would bring zod into the page's JavaScript).
/** Spec part 2 §9: a fixed figure on the AI Training Center, not computed. */
export const MODEL_ACCURACY_DISPLAY = "96.8%";
export const VERIFIED_FILTERS = ["all", "verified", "pending"] as const;
