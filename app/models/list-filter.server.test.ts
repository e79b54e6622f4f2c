import { describe, expect, it } from "vitest";
import { escapeRegex, searchFilter } from "./list-filter.server";

describe("escapeRegex", () => {
  it("makes every metacharacter literal", () => {
    const text = String.raw`a.b*c+d?e^f$g{h}i(j)k|l[m]n\o`;
    const escaped = escapeRegex(text);
    expect(new RegExp(`^${escaped}$`).test(text)).toBe(true);
    expect(new RegExp(escapeRegex(".*")).test("anything")).toBe(false);
    expect(escapeRegex("010-0100 (555)")).toBe(String.raw`010-0100 \(555\)`);
  });
});

describe("searchFilter", () => {
  it("asks for every word in one of the fields, any case, and nothing without words", () => {
    expect(searchFilter(undefined, ["a"])).toEqual({});
    expect(searchFilter("   ", ["a"])).toEqual({});
    // As sent to the database (mongoose's `trusted` marker is a symbol property).
    const filter = JSON.parse(JSON.stringify(searchFilter("Jane (555", ["firstName", "phone"])));
    expect(filter.$and).toHaveLength(2);
    expect(filter.$and[1].$or).toEqual([
      { firstName: { $regex: String.raw`\(555`, $options: "i" } },
      { phone: { $regex: String.raw`\(555`, $options: "i" } },
    ]);
  });
});
