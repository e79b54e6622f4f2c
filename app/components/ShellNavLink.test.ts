import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { NAV_LINK_CLASSES } from "./ShellNavLink";

const classesOf = (component: string) => {
  const file = path.resolve(import.meta.dirname, `../../node_modules/@mantine/core/esm/components/${component}/${component}.module.css.mjs`);
  return JSON.parse(/var classes = (\{.*\});/.exec(readFileSync(file, "utf8"))![1]) as Record<string, string>;
};

describe("ShellNavLink", () => {
  it("uses the class names of the installed Mantine's NavLink and UnstyledButton styles", () => {
    const { unstyledButton, ...navLink } = NAV_LINK_CLASSES;
    expect(classesOf("UnstyledButton").root).toBe(unstyledButton);
    for (const [key, name] of Object.entries(navLink)) expect(classesOf("NavLink")[key], key).toBe(name);
  });
});
