import { describe, expect, it } from "vitest";
import { fieldErrors } from "~/utils/http.server";
import { packageFormSchema, packageSchema, packageValidator } from "./package";

const valid = { name: "Premium Detail", price: 199.99 };

function errorsOf(input: unknown, schema: typeof packageSchema | typeof packageFormSchema = packageSchema) {
  const result = schema.safeParse(input);
  if (result.success) throw new Error("expected a validation error");
  return fieldErrors(result.error);
}

describe("packageSchema (the API's shape)", () => {
  it("accepts name and price; features default to none, isActive to true", () => {
    expect(packageSchema.parse(valid)).toEqual({ ...valid, features: [], isActive: true });
  });

  it("keeps description, features and isActive", () => {
    expect(
      packageSchema.parse({
        name: " Basic Wash ",
        description: " Outside only ",
        price: 0,
        features: ["Hand wash", "Dry"],
        isActive: false,
      }),
    ).toEqual({ name: "Basic Wash", description: "Outside only", price: 0, features: ["Hand wash", "Dry"], isActive: false });
  });

  it("requires a name: 'Package name is required'", () => {
    expect(errorsOf({ price: 10 }).name).toBe("Package name is required");
    expect(errorsOf({ ...valid, name: "  " }).name).toBe("Package name is required");
    expect(errorsOf({ ...valid, name: "x".repeat(101) }).name).toBe("Package name must be at most 100 characters");
  });

  it("requires a price of at least 0: 'Price must be a positive number'", () => {
    expect(errorsOf({ name: "A" }).price).toBe("Price must be a positive number");
    expect(errorsOf({ ...valid, price: -0.01 }).price).toBe("Price must be a positive number");
    expect(errorsOf({ ...valid, price: "12" }).price).toBe("Price must be a positive number");
    expect(errorsOf({ ...valid, price: null }).price).toBe("Price must be a positive number");
    expect(errorsOf({ ...valid, price: { $gt: 0 } }).price).toBe("Price must be a positive number");
    expect(packageSchema.parse({ ...valid, price: 0 }).price).toBe(0);
  });

  it("takes prices in cents (step 0.01) and refuses finer ones", () => {
    expect(packageSchema.parse({ ...valid, price: 0.1 + 0.2 }).price).toBe(0.3);
    expect(packageSchema.parse({ ...valid, price: 1234.5 }).price).toBe(1234.5);
    expect(errorsOf({ ...valid, price: 1.005 }).price).toBe("Price can have at most 2 decimal places");
    expect(packageSchema.parse({ ...valid, price: 19.99 }).price).toBe(19.99);
    // Within a fixed tolerance of 0.00, but not a whole number of cents (Schemathesis, ST201 on POST /api/packages).
    expect(errorsOf({ ...valid, price: 9.090127071328821e-74 }).price).toBe("Price can have at most 2 decimal places");
    expect(errorsOf({ ...valid, price: 10_000_000.01 }).price).toBe("Price must be at most 10,000,000");
  });

  it("trims features, drops empty ones, and limits them (50 × 200 characters)", () => {
    expect(packageSchema.parse({ ...valid, features: ["  Wax ", "", "   ", "Polish"] }).features).toEqual(["Wax", "Polish"]);
    expect(errorsOf({ ...valid, features: Array.from({ length: 51 }, (_, i) => `F${i}`) }).features).toBe(
      "At most 50 features",
    );
    expect(packageSchema.safeParse({ ...valid, features: Array.from({ length: 50 }, (_, i) => `F${i}`) }).success).toBe(
      true,
    );
    expect(errorsOf({ ...valid, features: ["x".repeat(201)] }).features).toBe(
      "Each feature must be at most 200 characters",
    );
    expect(errorsOf({ ...valid, features: "Wax\nPolish" }).features).toBe("Features must be a list of text");
    expect(errorsOf({ ...valid, features: [{ $gt: "" }] })["features.0"]).toBe("Each feature must be text");
  });

  it("limits the description and refuses non-text", () => {
    expect(errorsOf({ ...valid, description: "x".repeat(2001) }).description).toBe(
      "Description must be at most 2000 characters",
    );
    expect(errorsOf({ ...valid, description: { $ne: "" } }).description).toBe("Description must be text");
    expect(errorsOf({ ...valid, name: { $gt: "" } }).name).toBe("Package name must be text");
  });

  it("wants a boolean isActive", () => {
    expect(errorsOf({ ...valid, isActive: "yes" }).isActive).toBe("isActive must be true or false");
  });

  it("drops fields it does not list (ownerId, id, timestamps)", () => {
    expect(packageSchema.parse({ ...valid, ownerId: "64b000000000000000000000", createdAt: "x" })).toEqual({
      ...valid,
      features: [],
      isActive: true,
    });
  });
});

describe("packageFormSchema / packageValidator (the Add/Edit Package form)", () => {
  const form = (entries: Record<string, string>) => {
    const data = new FormData();
    for (const [k, v] of Object.entries(entries)) data.set(k, v);
    return data;
  };

  it("turns the form's text into the API shape: one feature per line, the switch into a boolean", async () => {
    const result = await packageValidator.validate(
      form({
        intent: "create",
        name: "Pro Package",
        description: "",
        price: "249.50",
        features: "  Full detail \r\n\n Ceramic coat\n   \nInterior\n",
        isActive: "on",
      }),
    );
    expect(result.data).toEqual({
      name: "Pro Package",
      price: 249.5,
      features: ["Full detail", "Ceramic coat", "Interior"],
      isActive: true,
    });
  });

  it("an unchecked switch (absent) means inactive", async () => {
    const result = await packageValidator.validate(form({ name: "Basic", price: "10" }));
    expect(result.data).toEqual({ name: "Basic", price: 10, features: [], isActive: false });
  });

  it("shows the spec's messages for an empty or bad form", async () => {
    const empty = await packageValidator.validate(form({ name: "", price: "" }));
    expect(empty.error?.fieldErrors).toEqual({
      name: "Package name is required",
      price: "Price must be a positive number",
    });
    const bad = await packageValidator.validate(form({ name: "A", price: "abc" }));
    expect(bad.error?.fieldErrors).toEqual({ price: "Price must be a positive number" });
    expect(errorsOf({ name: "A", price: "-5" }, packageFormSchema).price).toBe("Price must be a positive number");
  });

  it("reports feature limits on the textarea field", async () => {
    const many = Array.from({ length: 51 }, (_, i) => `Feature ${i}`).join("\n");
    const result = await packageValidator.validate(form({ name: "A", price: "1", features: many }));
    expect(result.error?.fieldErrors).toEqual({ features: "At most 50 features" });
  });
});
