import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { installedVersions } from "./build-uppy.mjs";

it("the pre-bundled Uppy matches the installed @uppy packages (else run build-uppy.mjs)", () => {
  const bundle = readFileSync(path.join(import.meta.dirname, "uppy.js"), "utf8");
  const header = bundle.split("\n", 3)[1];
  expect(header).toContain(`from ${installedVersions()} `);
});
