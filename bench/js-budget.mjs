// First-load JavaScript per screen, from the build alone (no server): what a page's HTML loads or
// preloads is the client entry, and for each route from the root down to the screen its module and
// the chunks it imports (Remix's <Scripts>); the browser then follows their static imports too.
// Every route module with a component is a screen and is checked against
// its budget, so screens added later are covered without listing them here. `files` is how many
// JavaScript files that is (scripts/rechunk.mjs groups them, decision 0020). The bytes are what the
// server sends: a file's gzip copy made at build time (scripts/precompress.mjs), or for a file
// without one zlib's default level, as compression() would send it; KB = 1000 bytes.
//
// `node bench/js-budget.mjs` prints the table and exits 1 when a screen is over its budget;
// `--json` prints the rows instead. tests/js-budget.test.ts runs the same check.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { isScriptless, readClientBuild, root, staticClosure } from "../scripts/client-build.mjs";

/**
 * Budgets in KB gzip (issue 15, lowered by issue 30's regrouping, decision 0020, and its byte work,
 * docs/performance.md): every screen within issue 30's 120 KB; the sign-in screens are plain forms;
 * /upload has Uppy on top. /upload's page was held at 119 until the send buttons lost their
 * idempotency field to the confirm step (decision 0039): the chunks regrouped, and the modules every
 * screen shares put it at 119.8, within the 120 of every screen.
 */
export const BUDGETS = {
  login: 110,
  // With Uppy's Link tab (@uppy/url and Companion's client, decision 0068): about 201 → 207.5 KB.
  upload: { page: 120, withUploader: 208 },
  other: 120,
};

/** Routes whose screen is a sign-in form: the tighter budget applies. */
const LOGIN_ROUTES = new Set(["routes/login", "routes/admin.login"]);
/** The upload screen's uploader (Uppy), loaded after the page (dynamic import) and budgeted apart. */
const UPLOAD_ROUTE = "routes/_app.upload";
const UPLOADER = /app\/components\/upload\/vendor\/uppy\.js$/;

const budgetOf = (id) => (LOGIN_ROUTES.has(id) ? BUDGETS.login : id === UPLOAD_ROUTE ? BUDGETS.upload.page : BUDGETS.other);

/**
 * The build's client outputs with the figures both the table and tests need: `kb(urls)` is the gzip
 * KB the browser fetches for these /build/ URLs (they, and their static imports, transitively).
 */
export function loadBuild(buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build")) {
  const { outputs, assetsDir, manifest } = readClientBuild(buildDir);
  // "/build/x.js" (a URL in the manifest) ↔ the metafile's key for that output.
  const publicPath = "/build/";
  const keyOf = (url) => path.relative(root, path.join(assetsDir, url.slice(publicPath.length)));
  const gzipCache = new Map();
  const gzipBytes = (key) => {
    if (!gzipCache.has(key)) {
      const file = path.resolve(root, key);
      gzipCache.set(key, existsSync(`${file}.gz`) ? statSync(`${file}.gz`).size : gzipSync(readFileSync(file)).length);
    }
    return gzipCache.get(key);
  };
  const closure = (keys) => staticClosure(outputs, keys);
  const kbOfKeys = (keys) => [...keys].reduce((sum, key) => sum + gzipBytes(key), 0) / 1000;
  return { outputs, manifest, keyOf, closure, kbOfKeys, kb: (urls) => kbOfKeys(closure(urls.map(keyOf))) };
}

/**
 * The table: one row per screen with the gzip KB its HTML makes the browser load, its budget and
 * whether it fits. `buildDir` defaults to BUILD_DIR or ./build (where remix.config.js writes).
 */
export function measureJsBudgets(buildDir) {
  const { outputs, manifest, keyOf, closure, kbOfKeys: kb } = loadBuild(buildDir);
  const dynamicImports = (keys) =>
    [...keys].flatMap((key) => (outputs[key]?.imports ?? []).filter((i) => i.kind === "dynamic-import").map((i) => i.path));

  const chain = (id) => {
    const ids = [];
    for (let route = manifest.routes[id]; route; route = manifest.routes[route.parentId]) ids.unshift(route.id);
    return ids;
  };
  const rows = [];
  for (const route of Object.values(manifest.routes)) {
    // A resource route's client module is an empty stub: nothing of its source file is in it.
    const inputs = Object.keys(outputs[keyOf(route.module)]?.inputs ?? {});
    if (!inputs.some((input) => !input.startsWith("browser-route-module:"))) continue;
    // Layouts (the root, the signed-in shell) are measured as part of the screens below them.
    if (Object.values(manifest.routes).some((r) => r.parentId === route.id)) continue;
    if (isScriptless(outputs[keyOf(route.module)])) {
      rows.push({ route: route.id, path: pathOf(manifest, route), kb: 0, budget: budgetOf(route.id), files: 0, scriptless: true, ok: true });
      continue;
    }
    const urls = [manifest.entry.module, ...manifest.entry.imports];
    for (const id of chain(route.id)) urls.push(...(manifest.routes[id].imports ?? []), manifest.routes[id].module);
    const files = closure(urls.map(keyOf));
    const row = {
      route: route.id,
      path: pathOf(manifest, route),
      kb: kb(files),
      budget: budgetOf(route.id),
      files: files.size,
    };
    if (route.id === UPLOAD_ROUTE) {
      const uploader = dynamicImports(files).filter((key) => Object.keys(outputs[key].inputs).some((i) => UPLOADER.test(i)));
      const later = closure(uploader);
      row.withUploader = kb(new Set([...files, ...later]));
      row.uploaderBudget = BUDGETS.upload.withUploader;
    }
    row.ok = row.kb <= row.budget && (row.withUploader === undefined || row.withUploader <= row.uploaderBudget);
    rows.push(row);
  }
  return rows.sort((a, b) => a.path.localeCompare(b.path));
}

function pathOf(manifest, route) {
  const parts = [];
  for (let r = route; r; r = manifest.routes[r.parentId]) if (r.path) parts.unshift(r.path);
  return `/${parts.join("/")}`;
}

/** The rows as a fixed-width table (the same in the bench output and in a failing test). */
export function formatJsBudgets(rows) {
  const lines = [["screen", "route", "JS gzip KB", "budget KB", "files", ""]];
  for (const row of rows) {
    const verdict = row.scriptless ? "ok (no JS)" : row.kb <= row.budget ? "ok" : "OVER";
    lines.push([row.path, row.route, row.kb.toFixed(1), String(row.budget), String(row.files), verdict]);
    if (row.withUploader !== undefined) {
      lines.push(["  + uploader", "", row.withUploader.toFixed(1), String(row.uploaderBudget), "", row.withUploader <= row.uploaderBudget ? "ok" : "OVER"]);
    }
  }
  const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  return lines.map((l) => l.map((cell, i) => (i >= 2 && i <= 4 ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join("  ").trimEnd()).join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = measureJsBudgets();
  if (process.argv.includes("--json")) console.log(JSON.stringify(rows, null, 2));
  else console.log(formatJsBudgets(rows));
  const over = rows.filter((r) => !r.ok);
  if (over.length > 0) {
    console.error(`\nOver budget: ${over.map((r) => r.path).join(", ")}`);
    process.exit(1);
  }
}
