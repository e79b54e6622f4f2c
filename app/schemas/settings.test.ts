import { describe, expect, it } from "vitest";
import { appearanceSchema, defaultVendorSchema, preferencesSchema, profileSchema, securitySchema } from "./settings";

describe("settings schemas", () => {
  it("profile: names and email as for a contact, phone and company optional, other fields dropped", () => {
    const ok = profileSchema.parse({ firstName: " A ", lastName: "B", email: "a@b.co", phone: "", role: "admin" });
    // Blank clears (null), absent keeps (undefined).
    expect(ok).toEqual({ firstName: "A", lastName: "B", email: "a@b.co", phone: null, companyName: undefined, address: undefined });
    const bad = profileSchema.safeParse({ firstName: "", lastName: "", email: "x" });
    expect(bad.success || bad.error.issues.map((i) => i.message)).toEqual([
      "First name is required",
      "Last name is required",
      "Invalid email address",
    ]);
  });

  it("security: the four timeouts and a switch posted as 'on' or absent", () => {
    expect(securitySchema.parse({ sessionTimeout: "1h", loginNotifications: "on" })).toEqual({ sessionTimeout: "1h", loginNotifications: true });
    expect(securitySchema.parse({ sessionTimeout: "30d" })).toEqual({ sessionTimeout: "30d", loginNotifications: false });
    expect(securitySchema.safeParse({ sessionTimeout: "2h" }).success).toBe(false);
    expect(securitySchema.safeParse({ sessionTimeout: "1d", loginNotifications: "maybe" }).success).toBe(false);
  });

  it("appearance and default vendor", () => {
    expect(appearanceSchema.safeParse({ theme: "auto", language: "es" }).success).toBe(true);
    expect(appearanceSchema.safeParse({ theme: "blue", language: "de" }).success).toBe(false);
    expect(defaultVendorSchema.parse({ defaultVendorId: "" })).toEqual({ defaultVendorId: null });
    expect(defaultVendorSchema.safeParse({ defaultVendorId: "{$ne:1}" }).success).toBe(false);
  });

  it("preferences: partial, at least one field, unknown fields refused", () => {
    expect(preferencesSchema.parse({ theme: "dark" })).toEqual({ theme: "dark" });
    expect(preferencesSchema.safeParse({}).success).toBe(false);
    expect(preferencesSchema.safeParse({ theme: "dark", isAdmin: true }).success).toBe(false);
  });
});
