import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { pendingText, SHELL_CLASSES } from "./AppShellLayout";

const rootClassOf = (component: string) => {
  const file = path.resolve(import.meta.dirname, `../../node_modules/@mantine/core/esm/components/${component}/${component}.module.css.mjs`);
  return (JSON.parse(/var classes = (\{.*\});/.exec(readFileSync(file, "utf8"))![1]) as Record<string, string>).root;
};

describe("AppShellLayout", () => {
  it("says 'Loading users...' while a user list loads, 'Loading...' for another screen, nothing within a screen", () => {
    const at = (pathname: string, search = "") => ({ pathname, search });
    expect(pendingText(at("/dashboard"), at("/user-management"))).toBe("Loading users...");
    expect(pendingText(at("/admin-settings", "?tab=credentials"), at("/admin-settings", "?tab=users"))).toBe("Loading users...");
    expect(pendingText(at("/dashboard"), at("/admin-settings", "?tab=users"))).toBe("Loading users...");
    expect(pendingText(at("/dashboard"), at("/contacts"))).toBe("Loading...");
    expect(pendingText(at("/admin-settings", "?tab=users"), at("/admin-settings", "?tab=credentials"))).toBeNull();
    // A delete or a create on the list reloads it in place: the table stays.
    expect(pendingText(at("/user-management"), at("/user-management", "?delete=1"))).toBeNull();
    expect(pendingText(at("/contacts"), at("/contacts", "?q=a"))).toBeNull();
    expect(pendingText(at("/contacts"), undefined)).toBeNull();
  });

  it("uses the class names of the installed Mantine's Group, Text and Anchor styles", () => {
    expect(SHELL_CLASSES).toEqual({ group: rootClassOf("Group"), text: rootClassOf("Text"), anchor: rootClassOf("Anchor") });
  });
});
