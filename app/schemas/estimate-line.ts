import { z } from "zod";

/**
 * One of an estimate's lines as stored and answered (`lineItems`): the pricing engine's quote line
 * (integer cents) and, where a reviewer set the amount, `manualCents` (null: to be determined).
 * app/utils/estimate-lines.ts reads stored lines into this shape (`asLines`); the API answers that
 * reading and its description is generated from this schema (docs/decisions/0051).
 */
export const estimateLineSchema = z.object({
  damageType: z.string(),
  severity: z.string(),
  location: z.string().nullable(),
  priced: z.boolean(),
  reason: z.string().optional().describe("An unpriced line: why (no rule, added by a reviewer)"),
  ruleId: z.string().optional().describe("The pricing rule that priced it"),
  baseCents: z.number().optional(),
  labour: z.object({ hours: z.number(), hoursFrom: z.string(), rateCents: z.number(), cents: z.number() }).optional(),
  partsCents: z.number().optional(),
  refinish: z.object({ hours: z.number(), rateCents: z.number(), cents: z.number() }).optional().describe("The rule's refinish labour, at its refinish rate"),
  materialsRateCents: z.number().optional(),
  materialsCents: z.number().optional(),
  modifiers: z.object({ make: z.number(), location: z.number(), seasonal: z.number() }).optional(),
  markupPercentage: z.number().optional(),
  subtotalCents: z.number().optional(),
  minimumChargeCents: z.number().optional(),
  minimumApplied: z.boolean().optional(),
  ruleCents: z.number().optional(),
  learning: z.object({ factor: z.number(), records: z.number(), cents: z.number() }).optional(),
  totalCents: z.number().optional(),
  manualCents: z.number().nullable().optional().describe("A reviewer's amount, replacing the engine's; null: to be determined"),
});
export type EstimateLine = z.infer<typeof estimateLineSchema>;
