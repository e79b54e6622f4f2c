import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SHELL_CLASSES } from "./AppShellLayout";

const rootClassOf = (component: string) => {
  const file = path.resolve(import.meta.dirname, `../../node_modules/@mantine/core/esm/components/${component}/${component}.module.css.mjs`);
  return (JSON.parse(/var classes = (\{.*\});/.exec(readFileSync(file, "utf8"))![1]) as Record<string, string>).root;
};

describe("AppShellLayout", () => {
  it("uses the class names of the installed Mantine's Group, Text and Anchor styles", () => {
    expect(SHELL_CLASSES).toEqual({ group: rootClassOf("Group"), text: rootClassOf("Text"), anchor: rootClassOf("Anchor") });
  });
});
