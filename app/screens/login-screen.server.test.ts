import { describe, expect, it } from "vitest";
import { safeRedirect } from "./login-screen.server";

describe("safeRedirect", () => {
  it("keeps a path of this site, normalised", () => {
    expect(safeRedirect("/contacts?q=a")).toBe("/contacts?q=a");
    expect(safeRedirect("/packages#top")).toBe("/packages#top");
    expect(safeRedirect("/a/../settings")).toBe("/settings");
    expect(safeRedirect("/%2F%2Fevil.example")).toBe("/%2F%2Fevil.example");
  });

  it.each([
    ["a tab (browsers drop it: //evil.example)", "/\t/evil.example"],
    ["a newline", "/\n/evil.example"],
    ["a carriage return", "/\r/evil.example"],
    ["a NUL", "/\u0000/evil.example"],
    ["a protocol-relative URL", "//evil.example"],
    ["a backslash (read as a slash)", "/\\evil.example"],
    ["a backslash later on", "/a\\..\\..\\/evil.example"],
    ["an absolute URL", "https://evil.example/"],
    ["a scheme", "javascript:alert(1)"],
    ["nothing", ""],
    ["no string at all", null],
  ])("falls back to / for %s", (_, value) => {
    expect(safeRedirect(value)).toBe("/");
  });
});
