/** The longest reason an estimate edit may carry (zod-free, so the form can import it without zod). */
export const REASON_MAX = 1000;
