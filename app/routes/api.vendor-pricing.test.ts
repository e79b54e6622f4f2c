import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LearningRecord } from "~/models/learning-record.server";
import { PricingRule } from "~/models/pricing-rule.server";
import { VendorPackage } from "~/models/vendor-package.server";
import { client, createTestUser, signIn, tokenFor } from "../../tests/accounts";
import { startApp, type RunningApp } from "../../tests/app-server";
import { useTestDb } from "../../tests/test-db";

// The Vendor AI Training Center's API: vendors, pricing rules, vendor packages, learning records and
// quotes, for every role: admin (any vendor), vendor (its own), another vendor, dealer, anonymous.

let app: RunningApp;
type Client = ReturnType<typeof client>;
let admin: Client;
let vendor: Client;
let otherVendor: Client;
let dealer: Client;
let vendorId: string;
let otherVendorId: string;
let dealerId: string;

beforeAll(async () => {
  await useTestDb();
  app = await startApp();
  const [a, v, v2, d] = await Promise.all([
    createTestUser({ role: "admin" }),
    createTestUser({ role: "vendor" }),
    createTestUser({ role: "vendor" }),
    createTestUser({ role: "dealer" }),
  ]);
  vendorId = v.id;
  otherVendorId = v2.id;
  dealerId = d.id;
  admin = client(app, { cookie: await signIn(app, a.username, a.password) });
  vendor = client(app, { cookie: await signIn(app, v.username, v.password) });
  otherVendor = client(app, { token: await tokenFor(v2.id) });
  dealer = client(app, { token: await tokenFor(d.id) });
});
afterAll(() => app?.stop());

const rule = (extra: Record<string, unknown> = {}) => ({
  damageType: "dent",
  severity: "minor",
  basePrice: 100,
  laborRate: 80,
  vehicleMakeModifier: {},
  locationModifier: {},
  seasonalModifier: {},
  notes: "Paintless repair",
  ...extra,
});

const vendorPackage = (extra: Record<string, unknown> = {}) => ({
  packageName: "Express dent repair",
  description: "Same-day paintless dent removal",
  serviceTypes: [" dent ", "paint "],
  pricingModel: "flat_rate",
  basePrice: 199,
  ...extra,
});

describe("GET /api/vendors", () => {
  it("lists vendor accounts as {id, name, address} to any signed-in caller, 401 anonymous", async () => {
    for (const who of [admin, vendor, dealer]) {
      const res = await who.get("/api/vendors");
      expect(res.status).toBe(200);
      const ids = res.json.map((v: { id: string }) => v.id);
      expect(ids).toEqual(expect.arrayContaining([vendorId, otherVendorId]));
      expect(ids).not.toContain(dealerId);
      expect(Object.keys(res.json[0]).sort()).toEqual(["address", "id", "name"]);
    }
    expect((await client(app).get("/api/vendors")).status).toBe(401);
  });
});

describe("pricing rules", () => {
  it("a vendor creates its own with the spec's defaults (markup and minimum charge 0)", async () => {
    const res = await vendor.post("/api/vendor-pricing-rules", rule());
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      id: expect.stringMatching(/^[a-f0-9]{24}$/),
      vendorId,
      damageType: "dent",
      severity: "minor",
      basePrice: 100,
      laborRate: 80,
      markupPercentage: 0,
      minimumCharge: 0,
      vehicleMakeModifier: {},
      isActive: true,
    });
  });

  it("an admin creates for a vendor it names; a dealer's id or an unknown one is not a vendor (400)", async () => {
    const res = await admin.post("/api/vendor-pricing-rules", rule({ vendorId, severity: "major", basePrice: 300, vehicleMakeModifier: { BMW: 1.2 }, locationModifier: { Front: 1.1 }, seasonalModifier: { "12": 1.05 } }));
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ vendorId, vehicleMakeModifier: { BMW: 1.2 }, locationModifier: { front: 1.1 }, seasonalModifier: { "12": 1.05 } });
    for (const id of [dealerId, "0123456789abcdef01234567"]) {
      const bad = await admin.post("/api/vendor-pricing-rules", rule({ vendorId: id, severity: "severe" }));
      expect(bad.status).toBe(400);
      expect(bad.json.errors.vendorId).toBe("vendorId is not a vendor account");
    }
    expect((await admin.post("/api/vendor-pricing-rules", rule({ severity: "severe" }))).json.errors.vendorId).toBe("vendorId is required");
  });

  it("one active rule per damage type and severity (409), so every line names one rule", async () => {
    const ruled = client(app, { token: await tokenFor((await createTestUser({ role: "vendor" })).id) });
    expect((await ruled.post("/api/vendor-pricing-rules", rule())).status).toBe(201);
    const res = await ruled.post("/api/vendor-pricing-rules", rule());
    expect(res.status).toBe(409);
    expect(res.json.message).toBe("An active pricing rule for dent (minor) already exists");
    expect((await ruled.post("/api/vendor-pricing-rules", rule({ isActive: false }))).status).toBe(201);
  });

  it("lists by ?vendorId=: a vendor its own (another vendor's id is 404), a dealer only active rules", async () => {
    // A vendor of its own with two active rules and an inactive one, whatever ran before.
    const listed = await createTestUser({ role: "vendor" });
    const own = client(app, { token: await tokenFor(listed.id) });
    for (const extra of [{}, { severity: "major" }, { isActive: false }]) expect((await own.post("/api/vendor-pricing-rules", rule(extra))).status).toBe(201);
    const mine = await own.get("/api/vendor-pricing-rules");
    expect(mine.status).toBe(200);
    expect(mine.json.length).toBe(3);
    expect((await own.get(`/api/vendor-pricing-rules?vendorId=${listed.id}`)).json.length).toBe(3);
    expect((await otherVendor.get(`/api/vendor-pricing-rules?vendorId=${listed.id}`)).status).toBe(404);
    expect((await otherVendor.get("/api/vendor-pricing-rules")).json).toEqual([]);
    const seen = await dealer.get(`/api/vendor-pricing-rules?vendorId=${listed.id}`);
    expect(seen.status).toBe(200);
    expect(seen.json.length).toBe(2);
    expect(seen.json.every((r: { isActive: boolean }) => r.isActive)).toBe(true);
    expect((await admin.get(`/api/vendor-pricing-rules?vendorId=${listed.id}`)).json.length).toBe(3);
    expect((await admin.get("/api/vendor-pricing-rules?vendorId=nope")).status).toBe(400);
    expect((await dealer.get(`/api/vendor-pricing-rules?vendorId=${dealerId}`)).status).toBe(404);
  });

  it("edits and deletes: the vendor and admins; another vendor 404, a dealer 403", async () => {
    const created = (await vendor.post("/api/vendor-pricing-rules", rule({ damageType: "scratch" }))).json;
    expect((await otherVendor.put(`/api/vendor-pricing-rules/${created.id}`, rule({ damageType: "scratch", basePrice: 1 }))).status).toBe(404);
    expect((await otherVendor.del(`/api/vendor-pricing-rules/${created.id}`)).status).toBe(404);
    expect((await dealer.put(`/api/vendor-pricing-rules/${created.id}`, rule({ damageType: "scratch" }))).status).toBe(403);
    expect((await dealer.del(`/api/vendor-pricing-rules/${created.id}`)).status).toBe(403);

    const edited = await vendor.put(`/api/vendor-pricing-rules/${created.id}`, rule({ damageType: "scratch", basePrice: 120, notes: undefined, vendorId: otherVendorId }));
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({ basePrice: 120, vendorId });
    expect(edited.json.notes).toBeUndefined();
    const byAdmin = await admin.put(`/api/vendor-pricing-rules/${created.id}`, rule({ damageType: "scratch", markupPercentage: 15 }));
    expect(byAdmin.json).toMatchObject({ markupPercentage: 15, vendorId });
    expect((await admin.del(`/api/vendor-pricing-rules/${created.id}`)).json).toEqual({ message: "Pricing rule deleted successfully" });
    expect((await vendor.del(`/api/vendor-pricing-rules/${created.id}`)).status).toBe(404);
  });

  it("refuses bad input with field messages and stores nothing", async () => {
    const before = await PricingRule.countDocuments();
    const cases: [Record<string, unknown>, string, string][] = [
      [rule({ damageType: "laser" }), "damageType", "Damage type must be one of: scratch, dent, crack, rust, broken_part, missing_part, paint_damage, glass_damage, bumper_damage, headlight_damage, taillight_damage, mirror_damage, wheel_damage, body_panel_damage"],
      [rule({ severity: undefined }), "severity", "Severity is required"],
      [rule({ basePrice: undefined }), "basePrice", "Base price is required"],
      [rule({ basePrice: -5 }), "basePrice", "Base price must be a positive number"],
      [rule({ laborRate: "80" }), "laborRate", "Labor rate must be a positive number"],
      [rule({ markupPercentage: Number.NaN }), "markupPercentage", "Markup percentage must be a number"],
      [rule({ vehicleMakeModifier: { $where: 2 } }), "vehicleMakeModifier.$where", "Vehicle make modifier: keys are letters, digits, spaces, & ' and -"],
      [rule({ vehicleMakeModifier: { "a.b": 2 } }), "vehicleMakeModifier.a.b", "Vehicle make modifier: keys are letters, digits, spaces, & ' and -"],
      [rule({ locationModifier: { roof: 1.1 } }), "locationModifier.roof", "Location modifier: keys must be one of front, rear, left, right, top, bottom, center"],
      [rule({ seasonalModifier: { "13": 1.1 } }), "seasonalModifier.13", "Seasonal modifier: keys must be one of 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12"],
      [rule({ vehicleMakeModifier: { BMW: 0 } }), "vehicleMakeModifier.BMW", "Vehicle make modifier multiplier must be at least 0.01"],
      [rule({ vehicleMakeModifier: "BMW" }), "vehicleMakeModifier", "Vehicle make modifier must be an object of key → multiplier"],
    ];
    for (const [body, field, message] of cases) {
      const res = await vendor.post("/api/vendor-pricing-rules", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.errors[field], JSON.stringify(res.json)).toBe(message);
    }
    expect((await dealer.post("/api/vendor-pricing-rules", rule({ vendorId }))).status).toBe(403);
    expect((await client(app).post("/api/vendor-pricing-rules", rule())).status).toBe(401);
    expect(await PricingRule.countDocuments()).toBe(before);
  });
});

describe("vendor packages", () => {
  it("creates with the spec's defaults (warranty and turnaround 0, AI weight 1) and trimmed service types", async () => {
    const res = await vendor.post("/api/vendor-packages", vendorPackage());
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      vendorId,
      packageName: "Express dent repair",
      serviceTypes: ["dent", "paint"],
      pricingModel: "flat_rate",
      warrantyMonths: 0,
      turnaroundDays: 0,
      aiWeighting: 1,
      includesPickupDelivery: false,
      damageTypeRates: {},
      discountTiers: [],
      isActive: true,
    });
  });

  it("tells a dealer 403 before reading what it sent: a bad body to a vendor write is not a validation answer", async () => {
    const writes: [string, string][] = [
      ["POST", "/api/vendor-pricing-rules"],
      ["PUT", "/api/vendor-pricing-rules/0123456789abcdef01234567"],
      ["POST", "/api/vendor-packages"],
      ["PUT", "/api/vendor-packages/0123456789abcdef01234567"],
      ["POST", "/api/ai-pricing-learning"],
    ];
    for (const [method, path] of writes) {
      const res = await (method === "POST" ? dealer.post(path, { basePrice: "lots" }) : dealer.put(path, { basePrice: "lots" }));
      expect(res.status, `${method} ${path}`).toBe(403);
    }
  });

  it("lists, edits and deletes within the vendor; dealers get 403, other vendors 404", async () => {
    const created = (await admin.post("/api/vendor-packages", vendorPackage({ vendorId, packageName: "Hail package", pricingModel: "damage_based", damageTypeRates: { dent: 45 } }))).json;
    expect(created.damageTypeRates).toEqual({ dent: 45 });
    expect((await vendor.get("/api/vendor-packages")).json.map((p: { id: string }) => p.id)).toContain(created.id);
    expect((await dealer.get(`/api/vendor-packages?vendorId=${vendorId}`)).status).toBe(403);
    expect((await otherVendor.get(`/api/vendor-packages?vendorId=${vendorId}`)).status).toBe(404);
    expect((await otherVendor.put(`/api/vendor-packages/${created.id}`, vendorPackage())).status).toBe(404);
    const edited = await vendor.put(`/api/vendor-packages/${created.id}`, vendorPackage({ packageName: "Hail package+", pricingModel: "hourly", hourlyRate: 95, description: undefined, basePrice: undefined }));
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({ packageName: "Hail package+", hourlyRate: 95 });
    expect(edited.json.basePrice).toBeUndefined();
    expect((await vendor.del(`/api/vendor-packages/${created.id}`)).json).toEqual({ message: "Vendor package deleted successfully" });
  });

  it("refuses bad input and stores nothing", async () => {
    const before = await VendorPackage.countDocuments();
    const cases: [Record<string, unknown>, string, string][] = [
      [vendorPackage({ packageName: "" }), "packageName", "Name is required"],
      [vendorPackage({ serviceTypes: [" ", ""] }), "serviceTypes", "Service types are required"],
      [vendorPackage({ pricingModel: "free" }), "pricingModel", "Pricing model must be one of: flat_rate, hourly, damage_based"],
      [vendorPackage({ warrantyMonths: 1.5 }), "warrantyMonths", "Warranty months must be a whole number"],
      [vendorPackage({ damageTypeRates: { laser: 5 } }), "damageTypeRates.laser", "damageTypeRates key must be one of: scratch, dent, crack, rust, broken_part, missing_part, paint_damage, glass_damage, bumper_damage, headlight_damage, taillight_damage, mirror_damage, wheel_damage, body_panel_damage"],
      [vendorPackage({ basePrice: { $gt: 0 } }), "basePrice", "Base price must be a positive number"],
    ];
    for (const [body, field, message] of cases) {
      const res = await vendor.post("/api/vendor-packages", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.errors[field], JSON.stringify(res.json)).toBe(message);
    }
    expect(await VendorPackage.countDocuments()).toBe(before);
  });
});

describe("learning records and quotes", () => {
  it("admins add records (pending); the vendor validates its own; others cannot", async () => {
    const created = await admin.post("/api/ai-pricing-learning", {
      vendorId,
      damageType: "dent",
      severity: "minor",
      originalEstimate: 200,
      finalCost: 300,
      adjustmentReason: "Hidden crease",
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ vendorId, adminAdjustment: 100, learningWeight: 1, isValidated: false });
    expect((await vendor.post("/api/ai-pricing-learning", { damageType: "dent", severity: "minor", originalEstimate: 1, finalCost: 2 })).status).toBe(403);
    expect((await admin.post("/api/ai-pricing-learning", { vendorId, damageType: "dent", severity: "minor", originalEstimate: 0, finalCost: 2 })).status).toBe(400);

    expect((await vendor.get("/api/ai-pricing-learning")).json.map((r: { id: string }) => r.id)).toContain(created.json.id);
    expect((await dealer.get(`/api/ai-pricing-learning?vendorId=${vendorId}`)).status).toBe(403);
    expect((await otherVendor.post(`/api/ai-pricing-learning/validate/${created.json.id}`)).status).toBe(404);
    expect((await dealer.post(`/api/ai-pricing-learning/validate/${created.json.id}`)).status).toBe(403);
    const validated = await vendor.post(`/api/ai-pricing-learning/validate/${created.json.id}`);
    expect(validated.status).toBe(200);
    expect(validated.json).toMatchObject({ id: created.json.id, isValidated: true });
    expect((await vendor.post("/api/ai-pricing-learning/validate/0123456789abcdef01234567")).status).toBe(404);
  });

  it("quotes from the vendor's active rules and validated records; unpriced damages make it incomplete", async () => {
    // A vendor of its own: one active rule for dent (minor) and one validated record (200 → 300).
    const quoting = await createTestUser({ role: "vendor" });
    const own = client(app, { token: await tokenFor(quoting.id) });
    expect((await own.post("/api/vendor-pricing-rules", rule())).status).toBe(201);
    const record = await admin.post("/api/ai-pricing-learning", { vendorId: quoting.id, damageType: "dent", severity: "minor", originalEstimate: 200, finalCost: 300 });
    expect((await own.post(`/api/ai-pricing-learning/validate/${record.json.id}`)).status).toBe(200);
    const res = await dealer.post(`/api/vendors/${quoting.id}/quote`, {
      damages: [
        { damageType: "dent", severity: "minor", location: "front" },
        { damageType: "crack", severity: "severe" },
      ],
      vehicleMake: "Toyota",
      date: "2026-06-01",
    });
    expect(res.status).toBe(200);
    expect(res.json.complete).toBe(false);
    const [dent, crack] = res.json.lines;
    // (100 + 1 h × 80) with no modifier, then the validated record's factor 300/200 = 1.5.
    expect(dent).toMatchObject({ priced: true, baseCents: 10000, labour: { hours: 1, hoursFrom: "default", cents: 8000 }, ruleCents: 18000, learning: { factor: 1.5, records: 1, cents: 9000 }, totalCents: 27000 });
    expect(crack).toMatchObject({ priced: false, reason: "No active pricing rule for crack (severe)" });
    expect(res.json.totalCents).toBe(27000);
    expect(res.json.total).toBe(270);
    expect(res.json.vendor.id).toBe(quoting.id);

    expect((await dealer.post("/api/vendors/not-an-id/quote", { damages: [{ damageType: "dent", severity: "minor" }] })).status).toBe(404);
    expect((await dealer.post(`/api/vendors/${dealerId}/quote`, { damages: [{ damageType: "dent", severity: "minor" }] })).status).toBe(404);
    expect((await dealer.post(`/api/vendors/${vendorId}/quote`, { damages: [] })).status).toBe(400);
    expect((await dealer.post(`/api/vendors/${vendorId}/quote`, { damages: [{ damageType: "dent", severity: "huge" }] })).status).toBe(400);
    expect((await client(app).post(`/api/vendors/${vendorId}/quote`, { damages: [{ damageType: "dent", severity: "minor" }] })).status).toBe(401);
  });
});

describe("deleting a vendor account", () => {
  it("removes its rules, packages and learning records with it, and nothing of another vendor", async () => {
    const doomed = await createTestUser({ role: "vendor" });
    const v = client(app, { token: await tokenFor(doomed.id) });
    expect((await v.post("/api/vendor-pricing-rules", rule())).status).toBe(201);
    expect((await v.post("/api/vendor-packages", vendorPackage())).status).toBe(201);
    expect((await admin.post("/api/ai-pricing-learning", { vendorId: doomed.id, damageType: "dent", severity: "minor", originalEstimate: 1, finalCost: 2 })).status).toBe(201);
    const others = await PricingRule.countDocuments({ vendorId });

    expect((await admin.del(`/api/admin/users/${doomed.id}`)).status).toBe(200);
    for (const model of [PricingRule, VendorPackage, LearningRecord] as const) {
      expect(await (model as typeof PricingRule).countDocuments({ vendorId: doomed.id })).toBe(0);
    }
    expect(await PricingRule.countDocuments({ vendorId })).toBe(others);
  });
});
