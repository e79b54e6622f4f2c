// `npm test`: set up everything a fresh clone lacks, then lint, typecheck,
// vitest (unit + API against the running app and a real database), Playwright and Schemathesis
// (the API fuzzer over the OpenAPI description; scripts/schemathesis.mjs).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { schemathesisStep } from "./schemathesis.mjs";
import { failedTests } from "./test-failures.mjs";
import {
  ensureAppBuild,
  ensureChromium,
  ensureDependencies,
  ensureLauncher,
  ensurePoppler,
  ensurePythonClientGenerator,
  ensureSchemathesis,
  ensureVeraPdf,
  loadDotEnv,
  root,
} from "./setup.mjs";

const started = Date.now();
try {
  loadDotEnv();
  ensureDependencies();
  ensureLauncher();
  ensureAppBuild();
  ensureChromium();
  ensurePoppler();
  ensureVeraPdf();
  ensureSchemathesis();
  ensurePythonClientGenerator();
} catch (error) {
  console.error(`[setup] ${error.message}`);
  process.exit(1);
}

const tmp = path.join(root, ".tmp");
mkdirSync(tmp, { recursive: true });
const bin = (name) => path.join(root, "node_modules/.bin", name);
const env = { ...process.env, NODE_ENV: "test", FORCE_COLOR: process.env.CI ? "0" : "1" };

function step(name, cmd, args) {
  console.log(`\n=== ${name} ===`);
  const t = Date.now();
  const res = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env });
  console.log(`=== ${name}: ${res.status === 0 ? "ok" : "FAILED"} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
  return res.status === 0;
}

/**
 * A step run beside others (lint and typecheck are single-threaded: together they use both cores): its
 * output is held and printed whole when it ends, so two steps' lines do not interleave.
 */
function quietStep(name, cmd, args) {
  const t = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("close", (code) => {
      console.log(`\n=== ${name} ===\n${output.trimEnd()}`);
      console.log(`=== ${name}: ${code === 0 ? "ok" : "FAILED"} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
      resolve(code === 0);
    });
  });
}

/** A step run in this process (the Schemathesis step starts the app and Schemathesis itself). */
async function timedStep(name, run) {
  console.log(`\n=== ${name} ===`);
  const t = Date.now();
  const ok = await run().catch((error) => {
    console.error(`[${name}] ${error.message}`);
    return false;
  });
  console.log(`=== ${name}: ${ok ? "ok" : "FAILED"} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
  return ok;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

const vitestJson = path.join(tmp, "vitest-results.json");
const playwrightJson = path.join(tmp, "playwright-results.json");
rmSync(vitestJson, { force: true });
rmSync(playwrightJson, { force: true });

// Lint, then knip (files, exports and dependencies nothing uses; knip.json), beside the typecheck.
const [[lint, unused], typecheck] = await Promise.all([
  quietStep("lint", bin("eslint"), ["."]).then(async (ok) => [ok, await quietStep("unused code", bin("knip"), ["--no-progress"])]),
  quietStep("typecheck", bin("tsc"), ["--noEmit"]),
]);
const results = {
  lint,
  "unused code": unused,
  typecheck,
  vitest: step("vitest", bin("vitest"), [
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${vitestJson}`,
  ]),
  playwright: step("playwright", bin("playwright"), ["test"]),
  schemathesis: await timedStep("schemathesis", schemathesisStep),
};

let passed = 0;
let failed = 0;
let skipped = 0;
const v = readJson(vitestJson);
if (v) {
  passed += v.numPassedTests;
  failed += v.numFailedTests;
  skipped += v.numPendingTests + (v.numTodoTests ?? 0);
}
const p = readJson(playwrightJson);
if (p?.stats) {
  passed += p.stats.expected + (p.stats.flaky ?? 0);
  failed += p.stats.unexpected;
  skipped += p.stats.skipped;
}
for (const [name, ok] of Object.entries(results)) if (!ok && (name === "lint" || name === "unused code" || name === "typecheck" || name === "schemathesis")) failed += 1;
if (!existsSync(vitestJson) && !results.vitest) failed += 1;
if (!p && !results.playwright) failed += 1;

const failures = failedTests(v, p);
if (failures.length) console.log(`\nfailed:\n${failures.map((f) => `  - ${f}`).join("\n")}`);

console.log(`\nsteps: ${Object.entries(results).map(([k, ok]) => `${k} ${ok ? "ok" : "FAILED"}`).join(", ")}`);
console.log(`total time: ${((Date.now() - started) / 1000).toFixed(0)} s`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(Object.values(results).every(Boolean) ? 0 : 1);
