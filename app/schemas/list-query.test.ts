import { describe, expect, it } from "vitest";
import { listQuerySchema, searchWords } from "./list-query";

describe("listQuerySchema", () => {
  it("without parameters: the whole list", () => {
    expect(listQuerySchema.parse({})).toEqual({});
  });

  it("trims q, drops a blank one and cuts it to 100 characters", () => {
    expect(listQuerySchema.parse({ q: "  acme " }).q).toBe("acme");
    expect(listQuerySchema.parse({ q: "   " }).q).toBeUndefined();
    expect(listQuerySchema.parse({ q: "x".repeat(150) }).q).toHaveLength(100);
  });

  it("reads limit and offset as whole numbers in range", () => {
    expect(listQuerySchema.parse({ limit: "10", offset: "20" })).toEqual({ limit: 10, offset: 20 });
    expect(listQuerySchema.safeParse({ limit: "0" }).success).toBe(false);
    expect(listQuerySchema.safeParse({ limit: "1001" }).success).toBe(false);
    expect(listQuerySchema.safeParse({ limit: "2.5" }).success).toBe(false);
    expect(listQuerySchema.safeParse({ offset: "-1" }).success).toBe(false);
    expect(listQuerySchema.safeParse({ limit: "ten" }).success).toBe(false);
  });

  it("refuses an empty value (the description says a whole number; Schemathesis sent offset=)", () => {
    const empty = listQuerySchema.safeParse({ offset: "" });
    expect(empty.success).toBe(false);
    expect(empty.error?.issues[0].message).toBe("offset must be a whole number");
  });
});

describe("searchWords", () => {
  it("splits on white space, lower-cases and keeps at most 8 words", () => {
    expect(searchWords("  Jane   DOE ")).toEqual(["jane", "doe"]);
    expect(searchWords("")).toEqual([]);
    expect(searchWords("a b c d e f g h i j")).toHaveLength(8);
  });
});
