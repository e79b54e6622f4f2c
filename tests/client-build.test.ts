import path from "node:path";
import { describe, expect, it } from "vitest";
import { readClientBuild, root } from "../scripts/client-build.mjs";

// The browser build as scripts/rechunk.mjs groups it (decision 0020), read from the build the suite
// runs against. A cycle of static imports between chunks runs one chunk's modules before those of a
// chunk they need: on 2026-11-29 a family merged into the root chunk made the root import a shared
// chunk that calls the root's lazyComponent at load, before its registry existed, and every screen
// with JavaScript threw.

type Outputs = Record<string, { imports: { path: string; kind: string }[] }>;
const build = (): { metafile: { rechunked?: boolean }; outputs: Outputs; manifest: { routes: Record<string, { module: string }> } } =>
  readClientBuild(path.join(root, process.env.BUILD_DIR ?? "build"));

/** Each cycle of static imports among the outputs, as the chain of files that closes it. */
function staticCycles(outputs: Outputs) {
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (key: string) => {
    state.set(key, "open");
    stack.push(key);
    for (const { path: next, kind } of outputs[key]?.imports ?? []) {
      if (kind !== "import-statement" || next === key || !(next in outputs)) continue;
      if (state.get(next) === "open") cycles.push(stack.slice(stack.indexOf(next)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(key, "done");
  };
  for (const key of Object.keys(outputs)) if (!state.has(key)) visit(key);
  return cycles;
}

describe("the browser build's chunks", () => {
  it("import each other without a cycle", () => {
    const { metafile, outputs } = build();
    expect(metafile.rechunked).toBeTruthy();
    expect(staticCycles(outputs).map((cycle) => cycle.map((key) => path.basename(key)).join(" → "))).toEqual([]);
  });

  it("the root chunk, which every screen runs first, imports only the framework's", () => {
    const { outputs, manifest } = build();
    const rootKey = Object.keys(outputs).find((key) => key.endsWith(manifest.routes.root.module.split("/").pop()!));
    expect(rootKey).toBeDefined();
    const imported = outputs[rootKey!].imports.filter((i) => i.kind === "import-statement" && i.path !== rootKey).map((i) => path.basename(i.path));
    expect(imported.every((name) => name.startsWith("framework-")), imported.join(", ")).toBe(true);
  });
});
