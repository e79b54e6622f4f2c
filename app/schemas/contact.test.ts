import { describe, expect, it } from "vitest";
import { fieldErrors } from "~/utils/http.server";
import { contactSchema, contactValidator } from "./contact";

const valid = { firstName: "Jane", lastName: "Doe", email: "jane@example.com" };

function errorsOf(input: unknown) {
  const result = contactSchema.safeParse(input);
  if (result.success) throw new Error("expected a validation error");
  return fieldErrors(result.error);
}

describe("contactSchema", () => {
  it("accepts the required fields alone, optional ones absent", () => {
    expect(contactSchema.parse(valid)).toEqual(valid);
  });

  it("trims every field and keeps the optional ones", () => {
    const parsed = contactSchema.parse({
      firstName: "  Jane ",
      lastName: " Doe",
      email: " jane@example.com ",
      phone: " +1 555 0100 ",
      companyName: " Acme Motors ",
      address: " 1 Main St ",
      notes: " Prefers mornings ",
    });
    expect(parsed).toEqual({
      firstName: "Jane",
      lastName: "Doe",
      email: "jane@example.com",
      phone: "+1 555 0100",
      companyName: "Acme Motors",
      address: "1 Main St",
      notes: "Prefers mornings",
    });
  });

  it("requires a first name: 'First name is required'", () => {
    expect(errorsOf({ ...valid, firstName: undefined }).firstName).toBe("First name is required");
    expect(errorsOf({ ...valid, firstName: "" }).firstName).toBe("First name is required");
    expect(errorsOf({ ...valid, firstName: "   " }).firstName).toBe("First name is required");
  });

  it("requires a last name: 'Last name is required'", () => {
    expect(errorsOf({ ...valid, lastName: undefined }).lastName).toBe("Last name is required");
    expect(errorsOf({ ...valid, lastName: "  " }).lastName).toBe("Last name is required");
  });

  it("requires a valid email: 'Invalid email address'", () => {
    expect(errorsOf({ ...valid, email: "not-an-email" }).email).toBe("Invalid email address");
    expect(errorsOf({ ...valid, email: "jane@" }).email).toBe("Invalid email address");
    expect(errorsOf({ ...valid, email: "" }).email).toBe("Invalid email address");
    expect(errorsOf({ ...valid, email: undefined }).email).toBe("Invalid email address");
  });

  it("reports every failing field at once", () => {
    expect(errorsOf({})).toEqual({
      firstName: "First name is required",
      lastName: "Last name is required",
      email: "Invalid email address",
    });
  });

  it("treats blank optional fields (and null from JSON) as absent", () => {
    const parsed = contactSchema.parse({ ...valid, phone: "", companyName: "  ", address: null, notes: "" });
    expect(parsed).toEqual(valid);
  });

  it("limits lengths with messages naming the field", () => {
    expect(errorsOf({ ...valid, firstName: "x".repeat(101) }).firstName).toBe(
      "First name must be at most 100 characters",
    );
    expect(errorsOf({ ...valid, lastName: "x".repeat(101) }).lastName).toBe("Last name must be at most 100 characters");
    expect(errorsOf({ ...valid, companyName: "x".repeat(101) }).companyName).toBe(
      "Company name must be at most 100 characters",
    );
    expect(errorsOf({ ...valid, phone: "1".repeat(41) }).phone).toBe("Phone must be at most 40 characters");
    expect(errorsOf({ ...valid, address: "x".repeat(501) }).address).toBe("Address must be at most 500 characters");
    expect(errorsOf({ ...valid, notes: "x".repeat(5001) }).notes).toBe("Notes must be at most 5000 characters");
    expect(errorsOf({ ...valid, email: `${"x".repeat(250)}@example.com` }).email).toBe(
      "Email must be at most 254 characters",
    );
    // At the limits it passes.
    expect(
      contactSchema.safeParse({ ...valid, firstName: "x".repeat(100), notes: "y".repeat(5000) }).success,
    ).toBe(true);
  });

  it("refuses an object or array where text belongs (no operator injection)", () => {
    expect(errorsOf({ ...valid, firstName: { $gt: "" } }).firstName).toBe("First name must be text");
    expect(errorsOf({ ...valid, lastName: ["Doe"] }).lastName).toBe("Last name must be text");
    expect(errorsOf({ ...valid, email: { $ne: null } }).email).toBe("Invalid email address");
    expect(errorsOf({ ...valid, phone: { $regex: "." } }).phone).toBe("Phone must be text");
    expect(errorsOf({ ...valid, notes: 42 }).notes).toBe("Notes must be text");
  });

  it("drops fields it does not list (ownerId, id, timestamps)", () => {
    const parsed = contactSchema.parse({
      ...valid,
      ownerId: "64b000000000000000000000",
      id: "x",
      _id: "y",
      createdAt: "2020-01-01",
    });
    expect(parsed).toEqual(valid);
  });
});

describe("contactValidator (the form's validation)", () => {
  it("validates form data with the same messages", async () => {
    const form = new FormData();
    form.set("intent", "create");
    form.set("firstName", "");
    form.set("lastName", "Doe");
    form.set("email", "nope");
    form.set("phone", "");
    const result = await contactValidator.validate(form);
    expect(result.error?.fieldErrors).toEqual({
      firstName: "First name is required",
      email: "Invalid email address",
    });
  });

  it("passes a filled-in form, blank optional fields dropped", async () => {
    const form = new FormData();
    for (const [k, v] of Object.entries({ ...valid, phone: "", companyName: "Acme", address: "", notes: "" })) {
      form.set(k, v);
    }
    const result = await contactValidator.validate(form);
    expect(result.data).toEqual({ ...valid, companyName: "Acme" });
  });
});
