import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { envSchema } from "~/utils/env.server";

// An operator configures the app from the README's table or .env.example: both list every variable the
// app reads (its environment schema), and nothing it does not.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

// Set by the app for itself (NODE_ENV by the scripts, BUILD_DIR by the suite and benches, the rest by
// server.mjs for its processes).
const INTERNAL = new Set(["NODE_ENV", "BUILD_DIR", "DAMAGEIQ_ROLE", "DAMAGEIQ_HOUSEKEEPING"]);
// Read by the platform, not by the schema: the process's time zone.
const PLATFORM = new Set(["TZ"]);

// The environment schema's variables, and those server.mjs reads before the app is loaded.
const serverKeys = [...read("server.mjs").matchAll(/process\.env\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]);
const schemaKeys = [...new Set([...Object.keys(envSchema.innerType().shape), ...serverKeys])].filter((key) => !INTERNAL.has(key));
const exampleKeys = [...read(".env.example").matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]);
const readmeTable = read("README.md").split("| Variable | Default | Meaning |")[1].split("\n\n")[0];
const readmeKeys = [...readmeTable.matchAll(/^\| ([^|]+)\|/gm)].flatMap((m) => [...m[1].matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((k) => k[1]));

describe("the configuration's documentation", () => {
  it(".env.example lists every variable the app reads, and only those", () => {
    expect(schemaKeys.filter((key) => !exampleKeys.includes(key))).toEqual([]);
    expect(exampleKeys.filter((key) => !schemaKeys.includes(key) && !PLATFORM.has(key))).toEqual([]);
  });

  it("the README's table lists every variable the app reads, and only those", () => {
    expect(schemaKeys.filter((key) => !readmeKeys.includes(key))).toEqual([]);
    expect(readmeKeys.filter((key) => !schemaKeys.includes(key) && !PLATFORM.has(key))).toEqual([]);
  });
});
