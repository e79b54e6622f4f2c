import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { estimateSettingsSchema } from "~/schemas/estimate-settings";
import { ApiArea, errors, json, record, z } from "./registry.server";

/** The account's estimate settings (tax rates, terms, validity) and the logo its estimates carry (decision 0021). */
export function describeEstimateSettings(registry: OpenAPIRegistry) {
  const area = new ApiArea(registry, "Estimate settings");
  const EstimateSettings = area.schema(
    "EstimateSettings",
    record({
      taxRates: record({ parts: z.number(), labour: z.number(), materials: z.number() }).openapi({ description: "Percent, at most 3 decimals" }),
      terms: z.string(),
      validityDays: z.number().int(),
      logoUrl: z.string().nullable().openapi({ description: "The logo's media URL (`/media/{id}`); null: none" }),
    }),
  );

  area.describe({
    method: "get", path: "/api/auth/estimate-settings", operationId: "getEstimateSettings", auth: "user",
    summary: "The account's estimate settings", responses: { 200: json("The settings", EstimateSettings) },
  });
  area.describe({
    method: "put", path: "/api/auth/estimate-settings", operationId: "updateEstimateSettings", auth: "user",
    summary: "Replace the account's estimate settings",
    description:
      "Tax on parts, labour and paint materials (percent), the terms (Handlebars: `{{customer.name}}`, `{{account.name}}`, `{{estimate.title}}`, `{{estimate.total}}`, `{{estimate.validUntil}}`) and the days an estimate is valid. A field left out takes its default (0 %, no terms, 30 days); the logo has its own call.",
    body: estimateSettingsSchema.strict(),
    example: { taxParts: 8.875, taxLabour: 0, taxMaterials: 8.875, terms: "Valid until {{estimate.validUntil}}.", validityDays: 30 },
    responses: { 200: json("The saved settings", EstimateSettings) },
  });
  area.describe({
    method: "post", path: "/api/auth/logo", operationId: "uploadLogo", auth: "user",
    summary: "Upload the logo printed on the account's estimates",
    description: "`multipart/form-data` with the file in the field `logo` (PNG or JPEG, at most 2 MB); replaces the previous logo.",
    body: { raw: { required: true, content: { "multipart/form-data": { schema: z.object({ logo: z.string().openapi({ format: "binary" }) }) } } } },
    responses: {
      200: json("The settings with the new logo", EstimateSettings),
      400: { ...errors[400], description: "No PNG or JPEG in the field `logo`, or a malformed form" },
      413: { ...errors[413], description: "Larger than 2 MB" },
      415: { ...errors[415], description: "Not a multipart form, or a file type logos do not take" },
    },
  });
  area.describe({
    method: "delete", path: "/api/auth/logo", operationId: "removeLogo", auth: "user",
    summary: "Remove the account's logo", responses: { 200: json("The settings without a logo", EstimateSettings) },
  });
}
