import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The folder tree is the architecture: services, models and infrastructure never reach into the UI
// (app/components), and infrastructure (app/utils) never into the services; the glue between a
// screen's route and its services lives in app/screens.
const root = path.resolve(__dirname, "..");

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(rel);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [rel] : [];
  });
}

const importsOf = (file: string) =>
  [...readFileSync(path.join(root, file), "utf8").matchAll(/from\s+"([^"]+)"/g)].map((m) => m[1]);

describe("layering", () => {
  it.each([
    ["services", /(^~\/components\/|\/components\/)/],
    ["models", /(^~\/components\/|\/components\/|^~\/services\/)/],
    ["utils", /(^~\/components\/|\/components\/|^~\/services\/)/],
  ])("app/%s imports nothing it must not", (dir, forbidden) => {
    const offending = sources(dir).flatMap((file) => importsOf(file).filter((i) => forbidden.test(i)).map((i) => `${file} → ${i}`));
    expect(offending).toEqual([]);
  });
});
