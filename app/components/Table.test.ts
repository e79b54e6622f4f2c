import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TABLE_CLASSES } from "./Table";

describe("Table", () => {
  it("uses the class names of the installed Mantine's Table styles", () => {
    const module = readFileSync(
      path.resolve(import.meta.dirname, "../../node_modules/@mantine/core/esm/components/Table/Table.module.css.mjs"),
      "utf8",
    );
    const classes = JSON.parse(/var classes = (\{.*\});/.exec(module)![1]) as Record<string, string>;
    for (const [key, name] of Object.entries(TABLE_CLASSES)) expect(classes[key], key).toBe(name);
  });
});
