/** Limits of a package, shared by the schema and the form (zod-free, so the form can import it without zod). */
export const PACKAGE_LIMITS = {
  name: 100,
  description: 2000,
  features: 50,
  featureLength: 200,
  price: 10_000_000,
} as const;
