import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { STAT_CARD_CLASSES } from "./StatCard";

const rootClassOf = (component: string) => {
  const file = path.resolve(import.meta.dirname, `../../../node_modules/@mantine/core/esm/components/${component}/${component}.module.css.mjs`);
  return (JSON.parse(/var classes = (\{.*\});/.exec(readFileSync(file, "utf8"))![1]) as Record<string, string>).root;
};

describe("StatCard", () => {
  it("uses the class names of the installed Mantine's Card, Paper, Text and ThemeIcon styles", () => {
    expect(STAT_CARD_CLASSES).toEqual({ card: rootClassOf("Card"), paper: rootClassOf("Paper"), text: rootClassOf("Text"), themeIcon: rootClassOf("ThemeIcon") });
  });
});
