import { describe, expect, it } from "vitest";
import { listQuerySchema, matchesSearch, searchWords } from "./list-query";

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
});

describe("matchesSearch", () => {
  const jane = ["Jane", "Doe", "jane@acme.example", "Acme Motors", "(555) 010-0100"];

  it("matches every word somewhere, in any case", () => {
    expect(matchesSearch(searchWords("jane"), jane)).toBe(true);
    expect(matchesSearch(searchWords("ACME"), jane)).toBe(true);
    expect(matchesSearch(searchWords("jane doe"), jane)).toBe(true);
    expect(matchesSearch(searchWords("acme (555)"), jane)).toBe(true);
    expect(matchesSearch(searchWords("jane smith"), jane)).toBe(false);
  });

  it("matches everything without words, and skips absent values", () => {
    expect(matchesSearch(searchWords("  "), jane)).toBe(true);
    expect(matchesSearch(searchWords("x"), [null, undefined, "y"])).toBe(false);
  });

  it("treats pattern characters literally", () => {
    expect(matchesSearch(searchWords(".*"), jane)).toBe(false);
    expect(matchesSearch(searchWords("[a-z]"), jane)).toBe(false);
    expect(matchesSearch(searchWords("010-0100"), jane)).toBe(true);
  });
});
