import { describe, expect, it } from "vitest";
import { safeRedirect } from "./safe-redirect";

describe("safeRedirect", () => {
  it.each([
    ["/contacts?q=a", "/contacts?q=a"],
    ["/packages#top", "/packages#top"],
    ["/a/../settings", "/settings"],
    ["/./estimates", "/estimates"],
    ["/estimates?q=a%2Fb", "/estimates?q=a%2Fb"],
    ["/settings?tab=security", "/settings?tab=security"],
  ])("keeps a path of this site, normalised: %s → %s", (value, expected) => {
    expect(safeRedirect(value)).toBe(expected);
  });

  // Each of these leaves the site in some browser, proxy or framework that reads it.
  it.each([
    ["dot segment then two slashes", "/.//evil.example"],
    ["dot-dot then two slashes", "/..//evil.example"],
    ["dot segments down to two slashes", "/a/..//evil.example"],
    ["encoded dot segments", "/%2e//evil.example"],
    ["encoded dot-dot segments", "/%2e%2e//evil.example"],
    ["a protocol-relative URL", "//evil"],
    ["three slashes", "///evil.example"],
    ["a backslash (read as a slash)", "/\\evil"],
    ["two backslashes", "\\\\evil.example"],
    ["a backslash later on", "/a\\..\\..\\/evil.example"],
    ["encoded slashes", "/%2F%2Fevil"],
    ["lower-case encoded slashes", "/%2f%2fevil.example"],
    ["an encoded slash after one", "/%2Fevil.example"],
    ["double-encoded slashes", "/%252F%252Fevil.example"],
    ["an encoded backslash", "/%5Cevil.example"],
    ["an encoded tab", "/%09/evil.example"],
    ["a broken escape", "/%E0%A4%A"],
    ["a scheme without slashes", "https:evil.example"],
    ["an absolute URL", "https://evil.example/"],
    ["a scheme with a slash", "http:/evil.example"],
    ["javascript:", "javascript:alert(1)"],
    ["data:", "data:text/html,<script>alert(1)</script>"],
    ["a tab (browsers drop it: //evil.example)", "/\t/evil.example"],
    ["a newline", "/\n/evil.example"],
    ["a carriage return", "/\r/evil.example"],
    ["a NUL", "/\u0000/evil.example"],
    ["a leading space", " //evil.example"],
    ["a leading tab", "\t//evil.example"],
    ["a host without a slash", "evil.example"],
    ["nothing", ""],
    ["no string at all", null],
    ["a list", ["/settings"]],
    ["a very long path", `/${"a".repeat(5000)}`],
  ])("falls back to / for %s", (_, value) => {
    expect(safeRedirect(value)).toBe("/");
    expect(safeRedirect(value, "")).toBe("");
  });
});
