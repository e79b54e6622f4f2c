// The browser build as esbuild's metafile and Remix's manifest describe it: read by scripts/rechunk.mjs
// (to regroup it) and bench/js-budget.mjs (to measure what each screen loads).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** A build folder's metafile (path, content, outputs), client entry key, assets folder and manifest (file, content). */
export function readClientBuild(buildDir) {
  const metafilePath = path.join(buildDir, "metafile.js.json");
  const metafile = JSON.parse(readFileSync(metafilePath, "utf8"));
  const outputs = metafile.outputs;
  const entryKey = Object.keys(outputs).find((key) => /entry\.client/.test(outputs[key].entryPoint ?? ""));
  if (!entryKey) throw new Error(`no client entry in ${metafilePath}`);
  const assetsDir = path.resolve(root, path.dirname(entryKey));
  const manifestFile = readdirSync(assetsDir).find((f) => /^manifest-[A-Z0-9]+\.js$/.test(f));
  if (!manifestFile) throw new Error(`no manifest in ${assetsDir}`);
  const manifest = JSON.parse(
    readFileSync(path.join(assetsDir, manifestFile), "utf8").replace(/^window\.__remixManifest=/, "").replace(/;\s*$/, ""),
  );
  return { metafilePath, metafile, outputs, entryKey, assetsDir, manifestFile, manifest };
}

/** A page that loads no JavaScript declares it so (app/root.tsx renders no <Scripts> for it). */
const SCRIPTLESS = /export const handle\b[^;]*\bscripts: false\b/;

/** Whether this route module output's screen declares that its page loads no JavaScript. */
export function isScriptless(output) {
  const source = Object.keys(output?.inputs ?? {}).find((input) => input.startsWith("app/routes/"));
  return Boolean(source && SCRIPTLESS.test(readFileSync(path.resolve(root, source), "utf8")));
}

/** These outputs and every output they import statically, transitively (what the browser fetches before running them). */
export function staticClosure(outputs, keys) {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imp of outputs[key]?.imports ?? []) if (imp.kind === "import-statement") visit(imp.path);
  };
  keys.forEach(visit);
  return seen;
}
