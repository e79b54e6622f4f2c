// Copies of a patched package with and without its patch (patches/runtime), for the check that each
// patch still does its work (tests/runtime-patches.test.ts) and for measuring what it gains
// (bench/runtime-patches.mjs).
import { spawnSync } from "node:child_process";
import { cpSync, readFileSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { root } from "./setup.mjs";

export const patchDir = path.join(root, "patches/runtime");

/** The runtime patches' file names. */
export const runtimePatches = () => readdirSync(patchDir).filter((name) => name.endsWith(".patch"));

/** The package a patch file is named for (`@scope+name+1.2.3.patch` → `@scope/name`) and its version. */
export function patchTarget(patch) {
  const name = patch.replace(/\+[^+]+\.patch$/, "").replace("+", "/");
  return { name, version: patch.slice(name.length + 1, -".patch".length) };
}

/** Where the installed package lives. */
export const installed = (name) => path.join(root, "node_modules", name);

// Folders of a package's other builds (CommonJS, types, styles), copied only when a patch touches them
// (all of @mantine/core is 24 MB).
const OTHER_BUILDS = new Set(["cjs", "lib", "styles"]);

/**
 * Two copies of the patch's package under .tmp/patch-copies/<patch>: `intact` (as installed, patched)
 * and `reversed` (the patch taken out). Each is a folder of its own, so a module loaded from one is not
 * reloaded from the other; modules the package imports resolve to the installed ones. Returns, for
 * each, the function from a package name to the folder to load it from, and `remove`.
 */
export function patchCopies(patch) {
  const { name } = patchTarget(patch);
  const base = path.join(root, ".tmp/patch-copies", patch.replace(/\.patch$/, ""));
  rmSync(base, { recursive: true, force: true });
  const text = readFileSync(path.join(patchDir, patch), "utf8");
  const touched = new Set([...text.matchAll(/^diff --git a\/node_modules\/(\S+)/gm)].map((m) => m[1].slice(name.length + 1).split("/")[0]));
  const copyTo = (folder) => {
    for (const entry of readdirSync(installed(name))) {
      if (OTHER_BUILDS.has(entry) && !touched.has(entry)) continue;
      cpSync(path.join(installed(name), entry), path.join(base, folder, "node_modules", name, entry), { recursive: true });
    }
    return (pkg) => (pkg === name ? path.join(base, folder, "node_modules", pkg) : installed(pkg));
  };
  const intact = copyTo("intact");
  const reversed = copyTo("reversed");
  const undo = spawnSync("patch", ["-R", "-p1", "-s", "-f", "-d", path.join(base, "reversed"), "-i", path.join(patchDir, patch)], {
    encoding: "utf8",
  });
  if (undo.status !== 0) throw new Error(`reversing ${patch} failed: ${undo.stdout}${undo.stderr}`);
  return { intact, reversed, remove: () => rmSync(base, { recursive: true, force: true }) };
}
