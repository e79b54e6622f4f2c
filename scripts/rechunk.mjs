// Regroups the browser build into a few chunks by how the screens share them (decision 0020).
// The classic Remix compiler's esbuild splits code per set of entry points that reach it, so with
// ~90 entries and per-component Mantine imports a screen fetched 38–63 files. This step runs after
// `remix build` (npm run build, scripts/setup.mjs, the Dockerfile): Rollup reads esbuild's output
// files as modules and writes them again, grouped:
//   - framework: the packages every screen loads (React, react-dom, Remix, Mantine's core);
//   - root / shell: the app code every screen / every signed-in screen loads, in the root route's
//     and the signed-in layout's files;
//   - shared-N: what several screens, but not all, load at first, merged until a screen loads at
//     most MAX_SHARED of them;
//   - a screen's own modules join its route module; code only reached by a dynamic import (dialogs,
//     tabs, Uppy) stays split as Rollup finds it.
// Then it writes Remix's manifest (file and the copy in the server build) and a metafile in
// esbuild's shape for bench/js-budget.mjs. File names stay content-hashed ([name]-[hash].js),
// so `/build/` keeps its immutable caching. Running it twice does nothing the second time.
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, renameSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { rollup } from "rollup";
import { minify } from "terser";
import { isScriptless, readClientBuild, root, staticClosure as staticClosureOf } from "./client-build.mjs";
import { precompress } from "./precompress.mjs";
import { appSourcesHash, stampAppBuild } from "./setup.mjs";

/** At most this many shared chunks per screen besides the framework, root and shell (requests vs bytes). */
const MAX_SHARED = 2;

export async function rechunk(buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build")) {
  const { metafilePath, metafile, outputs, entryKey, assetsDir, manifestFile, manifest } = readClientBuild(buildDir);
  if (metafile.rechunked) return { skipped: true };
  const publicPath = "/build/";
  const fileOfUrl = (url) => path.join(assetsDir, url.slice(publicPath.length));
  const keyOfFile = (file) => path.relative(root, file);
  const urlOfFile = (file) => publicPath + path.relative(assetsDir, file).split(path.sep).join("/");
  const jsKeys = Object.keys(outputs).filter((key) => key.endsWith(".js"));

  // Which screens load each old output before they are interactive (the route chain's modules,
  // the entry, and their static imports).
  const staticClosure = (keys) => staticClosureOf(outputs, keys);
  const routes = Object.values(manifest.routes);
  const isLayout = (route) => routes.some((r) => r.parentId === route.id);
  const hasComponent = (route) =>
    Object.keys(outputs[keyOfFile(fileOfUrl(route.module))]?.inputs ?? {}).some((i) => !i.startsWith("browser-route-module:"));
  // A screen whose page loads no JavaScript (the sign-in forms) is not one the groups are shaped
  // for: its modules load only on a client-side navigation there, or with a lazy form that shares
  // them, so they are grouped apart (below) and never merged into what the other screens load.
  const allScreens = routes.filter((r) => hasComponent(r) && !isLayout(r));
  const scriptless = new Set(allScreens.filter((r) => isScriptless(outputs[keyOfFile(fileOfUrl(r.module))])).map((r) => r.id));
  const screens = allScreens.filter((r) => !scriptless.has(r.id));
  const chainOf = (route) => {
    const chain = [];
    for (let r = route; r; r = manifest.routes[r.parentId]) chain.unshift(r);
    return chain;
  };
  const usedBy = new Map(jsKeys.map((key) => [key, new Set()]));
  const usedByScriptless = new Map(jsKeys.map((key) => [key, new Set()]));
  for (const screen of allScreens) {
    const start = [entryKey, ...chainOf(screen).map((r) => keyOfFile(fileOfUrl(r.module)))];
    for (const key of staticClosure(start)) (scriptless.has(screen.id) ? usedByScriptless : usedBy).get(key)?.add(screen.id);
  }
  const signedIn = screens.filter((s) => chainOf(s).some((r) => r.id === "routes/_app"));
  const entryClosure = staticClosure([entryKey]);
  const routeKeys = new Set(routes.map((r) => keyOfFile(fileOfUrl(r.module))));
  const isVendor = (key) => Object.keys(outputs[key].inputs).every((i) => i.includes("node_modules/") || i.startsWith("empty-module:"));

  // A route module gets its own chunk; so does any output something imports dynamically.
  const dynamicTargets = new Set(
    jsKeys.flatMap((key) => outputs[key].imports.filter((i) => i.kind === "dynamic-import").map((i) => i.path)),
  );
  const size = (key) => outputs[key].bytes;
  const groupOf = new Map();
  // Families of modules that the same screens load at first; each starts as one exact set of
  // screens. Two are fixed: what every screen loads goes with the root route module, what every
  // signed-in screen loads with the signed-in layout's (routes/_app).
  const families = new Map(); // set of screens → { name, screens, keys, bytes, fixed }
  const familyFor = (users) => {
    const id = [...users].sort().join("+");
    if (!families.has(id)) families.set(id, { screens: new Set(users), keys: [], bytes: 0 });
    return families.get(id);
  };
  const rootFamily = Object.assign(familyFor(screens.map((s) => s.id)), { name: "root", fixed: true });
  const shellFamily = Object.assign(familyFor(signedIn.map((s) => s.id)), { name: "shell", fixed: true });
  for (const key of jsKeys) {
    if (key === entryKey || routeKeys.has(key) || dynamicTargets.has(key)) continue;
    const users = usedBy.get(key);
    const scriptlessUsers = usedByScriptless.get(key);
    if (users.size === 0 && scriptlessUsers.size === 0) continue; // only reached after the first load: Rollup's own split
    // The sign-in forms' modules (the form library, zod): a group per set of screens using them,
    // not merged, so the lazy forms that share them do not import a sign-in route's file.
    if (users.size === 0 || (users.size === 1 && scriptlessUsers.size > 0)) {
      const id = `scriptless:${[...users, ...scriptlessUsers].sort().join("+")}`;
      if (!families.has(id)) families.set(id, { screens: new Set(users), keys: [], bytes: 0 });
      families.get(id).keys.push(key);
      families.get(id).bytes += size(key);
      continue;
    }
    if (isVendor(key) && (users.size === screens.length || entryClosure.has(key))) {
      groupOf.set(key, "framework");
    } else if (users.size === 1) {
      groupOf.set(key, `route:${[...users][0]}`);
    } else {
      const family = familyFor(users);
      family.keys.push(key);
      family.bytes += size(key);
    }
  }
  // Merge families until no screen loads more than MAX_SHARED besides the fixed two (never into them), each time the
  // pair that leaves the heaviest screen lightest (budgets are per screen), then the one that makes
  // screens load the fewest bytes they do not use.
  const ownBytes = new Map();
  for (const [key, group] of groupOf) {
    if (group.startsWith("route:")) ownBytes.set(group.slice(6), (ownBytes.get(group.slice(6)) ?? 0) + size(key));
  }
  const heaviestAfter = (a, b) => {
    let heaviest = 0;
    for (const { id } of screens) {
      let bytes = ownBytes.get(id) ?? 0;
      for (const f of families.values()) if (f.screens.has(id)) bytes += f.bytes;
      if (a.screens.has(id) !== b.screens.has(id)) bytes += a.screens.has(id) ? b.bytes : a.bytes;
      heaviest = Math.max(heaviest, bytes);
    }
    return heaviest;
  };
  const waste = (a, b) => {
    let bytes = 0;
    for (const s of b.screens) if (!a.screens.has(s)) bytes += a.bytes;
    for (const s of a.screens) if (!b.screens.has(s)) bytes += b.bytes;
    return bytes;
  };
  // Into the root or the shell only a family whose static imports are already there (or in the
  // framework, or the root for the shell): otherwise the fixed chunk would import a shared chunk or
  // the shell that imports it back, a cycle whose modules run before the fixed chunk's own (on
  // 2026-11-29 a shared chunk called the root's lazyComponent before its registry existed).
  const rootKeys = () => new Set([...rootFamily.keys, keyOfFile(fileOfUrl(manifest.routes.root.module))]);
  const mergeableInto = (family, fixed) => {
    const inside = new Set([...family.keys, ...fixed.keys, ...(fixed === shellFamily ? rootKeys() : [])]);
    if (fixed === rootFamily) inside.add(keyOfFile(fileOfUrl(manifest.routes.root.module)));
    return family.keys.every((key) =>
      outputs[key].imports.every((i) => i.kind !== "import-statement" || inside.has(i.path) || groupOf.get(i.path) === "framework"),
    );
  };
  const crowded = () =>
    screens.find((s) => [...families.values()].filter((f) => !f.fixed && f.screens.has(s.id)).length > MAX_SHARED);
  for (let over = crowded(); over; over = crowded()) {
    const onScreen = [...families.entries()].filter(([, f]) => f.screens.has(over.id));
    let best = null;
    for (const [idA, a] of onScreen) {
      for (const [idB, b] of onScreen) {
        if (idA === idB || b.fixed || (a.fixed && !mergeableInto(b, a))) continue;
        const heaviest = heaviestAfter(a, b);
        const cost = waste(a, b);
        if (!best || heaviest < best.heaviest || (heaviest === best.heaviest && cost < best.cost)) {
          best = { heaviest, cost, into: a, fromId: idB, from: b };
        }
      }
    }
    const { into, from, fromId } = best;
    from.screens.forEach((s) => into.screens.add(s));
    into.keys.push(...from.keys);
    into.bytes += from.bytes;
    families.delete(fromId);
  }
  let n = 0;
  for (const family of families.values()) {
    const name = family.name ?? `shared-${++n}`;
    for (const key of family.keys) groupOf.set(key, name);
  }
  // A screen's own modules go into its route module's chunk; the root and the signed-in layout are
  // the chunks of their families.
  const routeChunkName = (route) => route.id;
  for (const route of routes) {
    const key = keyOfFile(fileOfUrl(route.module));
    groupOf.set(key, route.id === "root" ? rootFamily.name : route.id === "routes/_app" ? shellFamily.name : `route:${route.id}`);
  }

  const input = {};
  for (const route of routes) input[routeChunkName(route)] = fileOfUrl(route.module);
  input["entry.client"] = path.resolve(root, entryKey);
  const inputByFile = new Map(Object.entries(input).map(([name, file]) => [file, name]));

  const bundle = await rollup({
    input,
    preserveEntrySignatures: "allow-extension",
    treeshake: true,
    onwarn(warning, warn) {
      if (warning.code === "CIRCULAR_DEPENDENCY" || warning.code === "EMPTY_BUNDLE") return;
      warn(warning);
    },
    plugins: [
      {
        name: "build-files",
        resolveId(source, importer) {
          if (importer && (source.startsWith("./") || source.startsWith("../"))) return path.resolve(path.dirname(importer), source);
          if (source.startsWith(publicPath)) return fileOfUrl(source);
          return null;
        },
      },
    ],
  });
  const outDir = mkdtempSync(path.join(os.tmpdir(), "rechunk-"));
  const { output } = await bundle.write({
    dir: outDir,
    format: "es",
    entryFileNames: "[name]-[hash].js",
    chunkFileNames: "_shared/[name]-[hash].js",
    hashCharacters: "base36",
    minifyInternalExports: true,
    manualChunks(id) {
      const key = keyOfFile(id);
      const group = groupOf.get(key);
      if (!group) return undefined;
      if (group.startsWith("route:")) {
        const route = manifest.routes[group.slice("route:".length)];
        return routeChunkName(route);
      }
      return group;
    },
    plugins: [
      {
        // Terser rather than esbuild's minifier: 4 % fewer gzip bytes on the framework chunk (its
        // compressor inlines and folds across the whole chunk; decision 0020).
        name: "minify",
        async renderChunk(code) {
          const result = await minify(code, { module: true, compress: { passes: 2 }, format: { comments: false } });
          return result.code;
        },
      },
    ],
  });
  await bundle.close();

  // Replace the old JavaScript with the new files.
  for (const key of jsKeys) rmSync(path.resolve(root, key), { force: true });
  rmSync(path.join(assetsDir, manifestFile), { force: true });
  const newFileOf = new Map(); // rollup fileName → absolute path
  for (const chunk of output) {
    if (chunk.type !== "chunk") continue;
    const target = path.join(assetsDir, chunk.fileName);
    mkdirSync(path.dirname(target), { recursive: true });
    renameSync(path.join(outDir, chunk.fileName), target);
    newFileOf.set(chunk.fileName, target);
  }
  rmSync(outDir, { recursive: true, force: true });

  // The metafile in esbuild's shape: each new output lists the old outputs' inputs it now contains.
  const newOutputs = {};
  const entryChunkOf = new Map(); // input name → chunk
  for (const chunk of output) {
    if (chunk.type !== "chunk") continue;
    const inputs = {};
    for (const id of Object.keys(chunk.modules)) {
      for (const [input, info] of Object.entries(outputs[keyOfFile(id)]?.inputs ?? {})) inputs[input] = info;
    }
    const key = keyOfFile(newFileOf.get(chunk.fileName));
    const entryOld = chunk.facadeModuleId && keyOfFile(chunk.facadeModuleId);
    newOutputs[key] = {
      imports: [
        ...chunk.imports.map((f) => ({ path: keyOfFile(newFileOf.get(f)), kind: "import-statement" })),
        ...chunk.dynamicImports.map((f) => ({ path: keyOfFile(newFileOf.get(f)), kind: "dynamic-import" })),
      ],
      exports: chunk.exports,
      inputs,
      bytes: Buffer.byteLength(chunk.code),
      ...(entryOld && outputs[entryOld]?.entryPoint ? { entryPoint: outputs[entryOld].entryPoint } : {}),
    };
    if (chunk.isEntry) entryChunkOf.set(inputByFile.get(chunk.facadeModuleId), chunk);
  }
  for (const [key, out] of Object.entries(outputs)) if (!key.endsWith(".js")) newOutputs[key] = out;

  const closureOf = (fileName) => {
    const seen = new Set();
    const visit = (f) => {
      for (const imp of output.find((c) => c.fileName === f)?.imports ?? []) {
        if (!seen.has(imp)) {
          seen.add(imp);
          visit(imp);
        }
      }
    };
    visit(fileName);
    return [...seen].map((f) => urlOfFile(newFileOf.get(f)));
  };
  const urlOfEntry = (name) => urlOfFile(newFileOf.get(entryChunkOf.get(name).fileName));
  const entry = { module: urlOfEntry("entry.client"), imports: closureOf(entryChunkOf.get("entry.client").fileName) };
  const newRoutes = {};
  for (const route of routes) {
    const chunk = entryChunkOf.get(routeChunkName(route));
    newRoutes[route.id] = { ...route, module: urlOfEntry(routeChunkName(route)), imports: route.imports ? closureOf(chunk.fileName) : undefined };
  }
  // As Remix does: a route does not repeat what the entry or its parents already preload.
  for (const route of Object.values(newRoutes)) {
    if (!route.imports) continue;
    const above = new Set(entry.imports);
    for (let r = newRoutes[route.parentId]; r; r = newRoutes[r.parentId]) {
      above.add(r.module);
      (r.imports ?? []).forEach((u) => above.add(u));
    }
    route.imports = route.imports.filter((u) => !above.has(u));
  }
  const version = createHash("sha256").update(JSON.stringify({ entry, routes: newRoutes })).digest("hex").slice(0, 8);
  const newManifest = { entry, routes: newRoutes, version, hmr: manifest.hmr, url: `${publicPath}manifest-${version.toUpperCase()}.js` };
  writeFileSync(path.join(assetsDir, `manifest-${version.toUpperCase()}.js`), `window.__remixManifest=${JSON.stringify(newManifest)};`);

  const serverBuild = path.join(buildDir, "index.js");
  const server = readFileSync(serverBuild, "utf8");
  const line = /^var assets_manifest_default = \{.*\};$/m;
  if (!line.test(server)) throw new Error(`no assets manifest in ${serverBuild}`);
  writeFileSync(serverBuild, server.replace(line, () => `var assets_manifest_default = ${JSON.stringify(newManifest)};`));
  writeFileSync(metafilePath, JSON.stringify({ ...metafile, outputs: newOutputs, rechunked: true }));
  return { before: jsKeys.length, after: Object.keys(newOutputs).filter((k) => k.endsWith(".js")).length };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");
  const result = await rechunk(buildDir);
  console.log(result.skipped ? "rechunk: already done" : `rechunk: ${result.before} → ${result.after} JavaScript files`);
  // What the server sends: each file gzipped once, here (scripts/precompress.mjs).
  console.log(`precompress: ${await precompress(readClientBuild(buildDir).assetsDir)} files gzipped`);
  // The build is complete: record what it was made from, so a test run can tell it is current
  // (scripts/setup.mjs appBuildIsStale). A `remix build` started by ensureAppBuild passes the
  // digest taken before it began.
  if (!result.skipped) stampAppBuild(process.env.APP_SOURCES_HASH ?? appSourcesHash());
}
