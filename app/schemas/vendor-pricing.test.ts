import { describe, expect, it } from "vitest";
import { trainingItemFormSchema } from "./training";
import { pricingRuleFormSchema, quoteRequestSchema, vendorPackageFormSchema } from "./vendor-pricing";
import { MAX_DAMAGES } from "./estimate-limits";

describe("the forms' adapters", () => {
  it("a pricing rule form: numbers from text, modifier rows into maps, blank rows dropped, defaults 0", () => {
    const parsed = pricingRuleFormSchema.parse({
      damageType: "dent",
      severity: "major",
      basePrice: "250",
      laborRate: "85.50",
      markupPercentage: "",
      minimumCharge: "",
      vehicleMakeModifierKey: ["BMW", "", "Audi"],
      vehicleMakeModifierValue: ["1.2", "", "1.1"],
      locationModifierKey: "FRONT",
      locationModifierValue: "1.1",
      isActive: "on",
    });
    expect(parsed).toMatchObject({
      basePrice: 250,
      laborRate: 85.5,
      markupPercentage: 0,
      minimumCharge: 0,
      vehicleMakeModifier: { BMW: 1.2, Audi: 1.1 },
      locationModifier: { front: 1.1 },
      seasonalModifier: {},
      isActive: true,
    });
  });

  it("a pricing rule form: an unchecked active box is inactive; text in a number is refused", () => {
    const result = pricingRuleFormSchema.safeParse({ damageType: "dent", severity: "minor", basePrice: "abc", laborRate: "1" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ["basePrice"], message: "Base price must be a positive number" });
    const inactive = pricingRuleFormSchema.parse({ damageType: "dent", severity: "minor", basePrice: "1", laborRate: "1" });
    expect(inactive.isActive).toBe(false);
  });

  it("a pricing rule form: the estimate line defaults from text, a blank one cleared (null), a field not posted left out, the API's messages", () => {
    const base = { damageType: "dent", severity: "minor", basePrice: "1", laborRate: "1" };
    const parsed = pricingRuleFormSchema.parse({ ...base, partPrice: "249.99", refinishHours: "1.5", refinishRate: "", materialsRate: " " });
    expect(parsed).toMatchObject({ partPrice: 249.99, refinishHours: 1.5, refinishRate: null, materialsRate: null });
    expect(pricingRuleFormSchema.parse(base)).not.toHaveProperty("partPrice");
    const bad = pricingRuleFormSchema.safeParse({ ...base, partPrice: "-1", refinishHours: "1000", materialsRate: "1.234" });
    expect(bad.success).toBe(false);
    const messages = bad.error!.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        "partPrice: Part price must be a positive number",
        expect.stringMatching(/^refinishHours: Refinish hours must be at most/),
        "materialsRate: Paint materials rate can have at most 2 decimal places",
      ]),
    );
  });

  it("a vendor package form: comma-separated service types trimmed, defaults warranty 0 and AI weight 1", () => {
    const parsed = vendorPackageFormSchema.parse({
      packageName: " Fleet care ",
      serviceTypes: "dent repair, paint ,, glass",
      pricingModel: "hourly",
      hourlyRate: "95",
      warrantyMonths: "",
      turnaroundDays: "3",
      aiWeighting: "",
    });
    expect(parsed).toMatchObject({
      packageName: "Fleet care",
      serviceTypes: ["dent repair", "paint", "glass"],
      hourlyRate: 95,
      warrantyMonths: 0,
      turnaroundDays: 3,
      aiWeighting: 1,
      includesPickupDelivery: false,
    });
    expect(vendorPackageFormSchema.safeParse({ packageName: "x", serviceTypes: " , ", pricingModel: "hourly" }).error?.issues[0].message).toBe(
      "Service types are required",
    );
  });

  it("a training data form: numbers and checkboxes, comma-separated tags, blank location absent", () => {
    const parsed = trainingItemFormSchema.parse({
      imageUrl: "/media/0123456789abcdef01234567",
      damageType: "scratch",
      severity: "minor",
      description: "Key scratch",
      estimatedCost: "120",
      laborHours: "1.5",
      partsCost: "",
      vehicleYear: "2019",
      location: "",
      paintWork: "on",
      tags: "door, key,",
    });
    expect(parsed).toMatchObject({ estimatedCost: 120, laborHours: 1.5, vehicleYear: 2019, paintWork: true, tags: ["door", "key"], isVerified: false });
    expect(parsed.partsCost).toBeUndefined();
    expect(parsed.location).toBeUndefined();
  });
});

describe("the quote request", () => {
  it("takes an ISO date or a day, and refuses anything else", () => {
    const damages = [{ damageType: "dent", severity: "minor" }];
    expect(quoteRequestSchema.parse({ damages, date: "2026-12-01" }).date?.getUTCMonth()).toBe(11);
    expect(quoteRequestSchema.parse({ damages, date: "2026-12-01T10:00:00Z" }).date?.getUTCDate()).toBe(1);
    expect(quoteRequestSchema.safeParse({ damages, date: "tomorrow" }).success).toBe(false);
    expect(quoteRequestSchema.safeParse({ damages: Array(MAX_DAMAGES).fill(damages[0]) }).success).toBe(true);
    expect(quoteRequestSchema.safeParse({ damages: Array(MAX_DAMAGES + 1).fill(damages[0]) }).success).toBe(false);
  });
});
