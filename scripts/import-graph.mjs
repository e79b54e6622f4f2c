// The import graph of app/ (madge) and the figures docs/decisions/0024 records: modules in cycles,
// the largest module and upward arrows. `node scripts/import-graph.mjs [dir]` prints them;
// app/utils/layering.test.ts holds the app to them.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import madge from "madge";

/**
 * Layers from the bottom: a module may import its own layer and those below, never one above.
 * Screens and components sit together (a component takes its loader's type from its screen), as do
 * routes and the root.
 */
const LAYERS = { schemas: 0, locales: 0, utils: 1, models: 2, services: 3, openapi: 3, screens: 4, components: 4, routes: 5, "": 5 };

const layerOf = (file) => {
  const top = file.includes("/") ? file.split("/")[0] : "";
  return top in LAYERS ? LAYERS[top] : undefined;
};

/** Strongly connected components of more than one module (Tarjan): every module that lies on some cycle. */
function tangles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph[v] ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of Object.keys(graph)) if (!index.has(v)) visit(v);
  return found;
}

const isTest = (file) => /\.test\.tsx?$|\.fixture\.ts$|__fixtures__\//.test(file);

export async function importGraph(appDir) {
  const root = path.resolve(appDir, "..");
  const result = await madge(appDir, {
    fileExtensions: ["ts", "tsx"],
    tsConfig: path.join(root, "tsconfig.json"),
    baseDir: appDir,
    excludeRegExp: [/\.test\.tsx?$/],
  });
  const graph = result.obj();
  const cycles = result.circular();
  const upward = Object.entries(graph).flatMap(([from, deps]) =>
    isTest(from)
      ? []
      : deps
          .filter((to) => !to.startsWith("..") && layerOf(from) !== undefined && layerOf(to) !== undefined && layerOf(to) > layerOf(from))
          .map((to) => `${from} → ${to}`),
  );
  const sizes = Object.keys(graph)
    .filter((file) => !isTest(file) && !file.startsWith("..") && /\.tsx?$/.test(file))
    .map((file) => ({ file, lines: readFileSync(path.join(appDir, file), "utf8").split("\n").length - 1 }))
    .sort((a, b) => b.lines - a.lines);
  const components = tangles(graph);
  return { graph, cycles, components, modulesInCycles: components.flat().length, upward, sizes };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = path.resolve(process.argv[2] ?? "app");
  const { graph, cycles, components, modulesInCycles, upward, sizes } = await importGraph(dir);
  const services = sizes.filter((s) => s.file.startsWith("services/"));
  console.log(`modules: ${Object.keys(graph).length}`);
  console.log(`cycles: ${cycles.length}, modules in cycles: ${modulesInCycles}`);
  for (const cycle of cycles) console.log(`  ${cycle.join(" → ")}`);
  for (const component of components) console.log(`  tangle of ${component.length}: ${component.join(", ")}`);
  console.log(`upward arrows: ${upward.length}`);
  for (const arrow of upward) console.log(`  ${arrow}`);
  console.log(`largest module: ${sizes[0].file} (${sizes[0].lines} lines)`);
  console.log(`largest service module: ${services[0].file} (${services[0].lines} lines); over 400 lines: ${services.filter((s) => s.lines > 400).length}`);
}
