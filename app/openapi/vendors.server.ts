import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { learningRecordSchema, pricingRuleSchema, quoteRequestSchema, vendorIdQuerySchema, vendorPackageSchema, withVendorId } from "~/schemas/vendor-pricing";
import { ApiArea, errors, idempotencyHeader, isoDate, json, MessageBody, objectIdText, record, z, wholeListHeaders } from "./registry.server";
import { wholeListQuerySchema } from "~/schemas/list-query";

const idParam = z.object({ id: z.string().openapi({ description: "The record's id", example: "6650c0ffee0123456789abcd" }) });
const vendorNote = "A vendor acts on its own (`vendorId` left out); an admin names the vendor with `vendorId`; dealers are refused (403).";
const stored = { id: objectIdText, vendorId: objectIdText, createdAt: isoDate.optional(), updatedAt: isoDate.optional() };

/** Vendors and their pricing knowledge: rules, packages, learning records, quotes. */
export function describeVendors(registry: OpenAPIRegistry) {
  const area = new ApiArea(registry, "Vendors and pricing");
  const modifiers = z.record(z.number());
  const PricingRule = area.schema(
    "PricingRule",
    record({
      ...stored,
      damageType: z.string(),
      severity: z.string(),
      basePrice: z.number(),
      laborRate: z.number(),
      markupPercentage: z.number(),
      minimumCharge: z.number(),
      vehicleMakeModifier: modifiers,
      locationModifier: modifiers,
      seasonalModifier: modifiers,
      notes: z.string().optional(),
      isActive: z.boolean(),
    }),
  );
  const VendorPackage = area.schema(
    "VendorPackage",
    record({
      ...stored,
      packageName: z.string(),
      description: z.string().optional(),
      serviceTypes: z.array(z.string()),
      pricingModel: z.string(),
      basePrice: z.number().optional(),
      hourlyRate: z.number().optional(),
      damageTypeRates: z.record(z.number()),
      includesPickupDelivery: z.boolean(),
      warrantyMonths: z.number().int(),
      turnaroundDays: z.number().int(),
      minimumOrder: z.number().optional(),
      discountTiers: z.array(record({ minimumAmount: z.number(), discountPercentage: z.number() })),
      aiWeighting: z.number(),
      isActive: z.boolean(),
    }),
  );
  const LearningRecord = area.schema(
    "LearningRecord",
    record({
      ...stored,
      damageType: z.string(),
      severity: z.string(),
      originalEstimate: z.number(),
      finalCost: z.number(),
      adminAdjustment: z.number(),
      adjustmentReason: z.string().optional(),
      vehicleMake: z.string().optional(),
      learningWeight: z.number(),
      isValidated: z.boolean(),
    }),
  );
  const Vendor = area.schema("Vendor", record({ id: objectIdText, name: z.string(), address: z.string().nullable() }));
  const notAVendor = { ...errors[404], description: "Not a vendor the caller may read" };
  const byVendor = vendorIdQuerySchema.extend({
    vendorId: vendorIdQuerySchema.shape.vendorId.openapi({ description: "The vendor (a vendor may leave it out: its own)" }),
  });
  const byVendorSince = byVendor.merge(wholeListQuerySchema);

  area.describe({
    method: "get", path: "/api/vendors", operationId: "listVendors", auth: "user",
    summary: "The vendor accounts", responses: { 200: json("The vendors", z.array(Vendor)) },
  });
  const line = record({ damageType: z.string(), severity: z.string(), location: z.string().nullable(), priced: z.boolean() });
  area.describe({
    method: "post", path: "/api/vendors/{vendorId}/quote", operationId: "quoteForVendor", auth: "user",
    params: z.object({ vendorId: z.string().openapi({ example: "6650c0ffee0123456789abcd" }) }),
    summary: "Price damages with a vendor's active rules and validated learning",
    body: quoteRequestSchema, example: { damages: [{ damageType: "dent", severity: "minor", location: "front" }], vehicleMake: "Toyota", date: "2026-06-01" },
    responses: {
      200: json(
        "The line items and total; `complete` is false when a damage has no rule",
        record({ vendor: Vendor, currency: z.literal("USD"), lines: z.array(line), totalCents: z.number().int(), complete: z.boolean(), total: z.number() }),
      ),
    },
  });

  const ruleExample = { damageType: "dent", severity: "minor", basePrice: 100, laborRate: 80, vehicleMakeModifier: { BMW: 1.2 }, locationModifier: { front: 1.1 } };
  area.describe({
    method: "get", path: "/api/vendor-pricing-rules", operationId: "listPricingRules", auth: "user",
    summary: "A vendor's pricing rules", description: "Dealers see a vendor's active rules; vendors their own; admins any vendor's.",
    query: byVendorSince, responses: { 200: json("The rules", z.array(PricingRule), { headers: wholeListHeaders }), 404: notAVendor },
  });
  area.describe({
    method: "post", path: "/api/vendor-pricing-rules", operationId: "createPricingRule", auth: "role",
    summary: "Add a pricing rule", description: vendorNote, headers: idempotencyHeader, body: withVendorId(pricingRuleSchema), example: ruleExample,
    responses: { 201: json("The rule", PricingRule), 409: { ...errors[409], description: "An active rule for this damage type and severity exists" } },
  });
  area.describe({
    method: "put", path: "/api/vendor-pricing-rules/{id}", operationId: "updatePricingRule", auth: "role", params: idParam,
    summary: "Replace a pricing rule", body: pricingRuleSchema, example: ruleExample,
    responses: { 200: json("The rule", PricingRule), 409: { ...errors[409], description: "An active rule for this damage type and severity exists" } },
  });
  area.describe({
    method: "delete", path: "/api/vendor-pricing-rules/{id}", operationId: "deletePricingRule", auth: "role", params: idParam,
    summary: "Delete a pricing rule", responses: { 200: json("Deleted", MessageBody) },
  });

  const packageExample = { packageName: "Express dent repair", serviceTypes: ["dent"], pricingModel: "flat_rate", basePrice: 199 };
  area.describe({
    method: "get", path: "/api/vendor-packages", operationId: "listVendorPackages", auth: "role",
    summary: "A vendor's packages", query: byVendorSince, responses: { 200: json("The packages", z.array(VendorPackage), { headers: wholeListHeaders }), 404: notAVendor },
  });
  area.describe({
    method: "post", path: "/api/vendor-packages", operationId: "createVendorPackage", auth: "role",
    summary: "Add a vendor package", description: vendorNote, headers: idempotencyHeader, body: withVendorId(vendorPackageSchema), example: packageExample,
    responses: { 201: json("The package", VendorPackage), 409: errors[409] },
  });
  area.describe({
    method: "put", path: "/api/vendor-packages/{id}", operationId: "updateVendorPackage", auth: "role", params: idParam,
    summary: "Replace a vendor package", body: vendorPackageSchema, example: packageExample,
    responses: { 200: json("The package", VendorPackage) },
  });
  area.describe({
    method: "delete", path: "/api/vendor-packages/{id}", operationId: "deleteVendorPackage", auth: "role", params: idParam,
    summary: "Delete a vendor package", responses: { 200: json("Deleted", MessageBody) },
  });

  area.describe({
    method: "get", path: "/api/ai-pricing-learning", operationId: "listLearningRecords", auth: "role",
    summary: "A vendor's learning records", query: byVendorSince, responses: { 200: json("The records", z.array(LearningRecord), { headers: wholeListHeaders }), 404: notAVendor },
  });
  area.describe({
    method: "post", path: "/api/ai-pricing-learning", operationId: "createLearningRecord", auth: "role",
    summary: "Add a learning record (admins)", headers: idempotencyHeader, body: withVendorId(learningRecordSchema),
    example: { vendorId: "6650c0ffee0123456789abcd", damageType: "dent", severity: "minor", originalEstimate: 200, finalCost: 300, adjustmentReason: "Hidden crease" },
    responses: { 201: json("The record (pending validation)", LearningRecord), 409: errors[409] },
  });
  area.describe({
    method: "post", path: "/api/ai-pricing-learning/validate/{id}", operationId: "validateLearningRecord", auth: "role", params: idParam,
    summary: "Validate a learning record: from now on it moves the vendor's prices", responses: { 200: json("The record", LearningRecord) },
  });
}
