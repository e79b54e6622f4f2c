import { describe, expect, it } from "vitest";
import { codeEndings, fold, searchQuery, searchText, searchTokens, TOKEN_MAX_LENGTH } from "./search-tokens";

describe("search tokens", () => {
  it("folds case and accents, so José, JOSÉ and jose are one word", () => {
    expect(fold("José ÁLVAREZ Ñandú Crème")).toBe("jose alvarez nandu creme");
    expect(searchTokens(["JOSÉ"])).toEqual(["j", "jo", "jos", "jose"]);
    expect(searchQuery(["José"]).tokens).toEqual(["jose"]);
  });

  it("keeps every prefix of every word of every field, once", () => {
    const tokens = searchTokens(["Door ding", "Toyota", undefined, "Dodge"]);
    for (const token of ["d", "do", "doo", "door", "di", "ding", "t", "toyota", "dod", "dodge"]) expect(tokens).toContain(token);
    expect(new Set(tokens).size).toBe(tokens.length);
    expect(tokens).not.toContain("oor");
  });

  it("finds a VIN by any prefix, whatever its case", () => {
    const tokens = searchTokens(["Hail", "Ford", "F-150", "1FTFW1ET5DFC10312"]);
    for (let n = 1; n <= 17; n++) expect(tokens).toContain("1ftfw1et5dfc10312".slice(0, n));
    expect(searchQuery(["1FTFW1ET5"]).tokens).toEqual(["1ftfw1et5"]);
    // And by its tail, from the last 4 characters on.
    expect(codeEndings("2FMDK3GC4BBA12345")).toEqual(expect.arrayContaining(["bba12345", "2345", "fmdk3gc4bba12345"]));
    expect(codeEndings("2FMDK3GC4BBA12345")).not.toContain("345");
    // F-150: two words, each found from its start.
    expect(tokens).toEqual(expect.arrayContaining(["f", "150"]));
  });

  it("finds a phone by its digits written together too", () => {
    const tokens = searchTokens(["Carl"], { phones: ["(555) 123-4567"] });
    expect(tokens).toEqual(expect.arrayContaining(["555", "123", "4567", "5551234567", "555123"]));
    expect(searchText(["Carl"], { phones: ["(555) 123-4567"] })).toBe("carl\n(555) 123-4567\n5551234567");
  });

  it("cuts long words at the longest token, and a query part the same", () => {
    const long = "a".repeat(30);
    expect(Math.max(...searchTokens([long]).map((t) => t.length))).toBe(TOKEN_MAX_LENGTH);
    expect(searchQuery([long]).tokens).toEqual(["a".repeat(TOKEN_MAX_LENGTH)]);
  });

  it("asks each word's first run of letters and digits as its token, the longest first; punctuation alone asks none", () => {
    expect(searchQuery(["bob@baker", "(555)", "&", ".*", "Cooper"])).toEqual({
      words: ["bob@baker", "(555)", "&", ".*", "cooper"],
      tokens: ["cooper", "bob", "555"],
    });
  });
});
