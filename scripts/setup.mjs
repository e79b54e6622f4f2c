// Shared set-up for `npm start` and `npm test`: uses only Node built-ins so it
// can run on a fresh clone before dependencies are installed.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const LAUNCHER_DIR = path.join(root, "tools/mongo-launcher");
export const LAUNCHER_JAR = path.join(LAUNCHER_DIR, "target/mongo-launcher.jar");
const VERAPDF_DIR = path.join(root, "tools/verapdf");
/** veraPDF's classpath (the PDF/A validator the suite runs on the estimate PDF; decision 0026). */
export const VERAPDF_LIB = path.join(VERAPDF_DIR, "target/lib");

const log = (msg) => console.log(`[setup] ${msg}`);

function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { cwd: root, stdio: "inherit", ...opts });
  if (res.status !== 0) {
    throw new Error(`${cmd} ${args.join(" ")} failed (exit ${res.status ?? res.signal})`);
  }
}

function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function newest(dir, filter = () => true) {
  let latest = 0;
  if (!existsSync(dir)) return 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(full, filter));
    else if (filter(full)) latest = Math.max(latest, mtime(full));
  }
  return latest;
}

export function loadDotEnv() {
  const file = path.join(root, ".env");
  if (existsSync(file)) process.loadEnvFile(file);
}

export function ensureDependencies() {
  const installed = path.join(root, "node_modules/.package-lock.json");
  if (mtime(installed) >= mtime(path.join(root, "package-lock.json")) && mtime(installed) > 0) return;
  log("installing dependencies (npm ci)");
  run("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"]);
}

export function ensureLauncher() {
  const sources = Math.max(
    mtime(path.join(LAUNCHER_DIR, "pom.xml")),
    newest(path.join(LAUNCHER_DIR, "src"), (f) => f.endsWith(".java")),
  );
  if (mtime(LAUNCHER_JAR) > sources) return;
  for (const [tool, args] of [["java", ["-version"]], ["mvn", ["-v"]]]) {
    if (spawnSync(tool, args, { stdio: "ignore" }).status !== 0) {
      throw new Error(
        `${tool} is needed to build the embedded database (tools/mongo-launcher). Install Java 17+ and Maven, or set MONGODB_URI to an existing MongoDB.`,
      );
    }
  }
  log("building the embedded database launcher (mongo-java-server; the first time Maven fetches it)");
  const started = Date.now();
  run("mvn", ["-q", "-B", "package"], { cwd: LAUNCHER_DIR });
  log(`launcher built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

function filesUnder(dir, keep) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter(keep);
}

/**
 * A digest of everything the app's build is made from (its sources, not test files, which the
 * build ignores; the public files but not the client build written among them; the build's
 * configuration and steps). Contents, not times: a checkout, a copy or a reverted edit that keeps
 * an older time still changes it. About 800 files: tens of milliseconds. `dir`: the checkout (a
 * test's copy).
 */
export function appSourcesHash(dir = root) {
  const clientBuild = `${path.sep}public${path.sep}build${path.sep}`;
  const files = [
    ...filesUnder(path.join(dir, "app"), (f) => !/\.test\.tsx?$/.test(f)),
    ...filesUnder(path.join(dir, "public"), (f) => !f.includes(clientBuild)),
    ...["remix.config.js", "tsconfig.json", "package-lock.json", "scripts/rechunk.mjs", "scripts/client-build.mjs", "scripts/precompress.mjs"].map((f) =>
      path.join(dir, f),
    ),
  ].sort();
  const hash = createHash("sha256");
  for (const file of files) hash.update(`${path.relative(dir, file)}\0`).update(existsSync(file) ? readFileSync(file) : "").update("\0");
  return hash.digest("hex");
}

const buildDir = (dir = root) => path.join(dir, process.env.BUILD_DIR ?? "build");
/** The sources digest the build in build/ was made from (written by scripts/rechunk.mjs, the build's last step). */
export const buildStampFile = (dir = root) => path.join(buildDir(dir), "sources.sha256");

/** build/ is missing, unfinished, or made from other sources than today's (of the checkout `dir`). */
export function appBuildIsStale(dir = root) {
  let stamp = "";
  try {
    stamp = readFileSync(buildStampFile(dir), "utf8").trim();
  } catch {
    return true;
  }
  return !existsSync(path.join(buildDir(dir), "index.js")) || stamp !== appSourcesHash(dir);
}

/** Records which sources the build just finished was made from (`hash`: taken before it started). */
export function stampAppBuild(hash = appSourcesHash(), dir = root) {
  writeFileSync(buildStampFile(dir), `${hash}\n`);
}

export function ensureAppBuild() {
  let env = process.env;
  if (appBuildIsStale()) {
    log("building the app");
    // The digest before the build starts: a source edited while it runs leaves the build stale.
    env = { ...process.env, APP_SOURCES_HASH: appSourcesHash() };
    rmSync(buildStampFile(), { force: true });
    run(process.execPath, [path.join(root, "node_modules/@remix-run/dev/dist/cli.js"), "build"], {
      env: { ...env, NODE_ENV: "production" },
    });
  }
  // The browser build's chunks regrouped (decision 0020); does nothing when already done, so a
  // build made with `remix build` alone is completed here. It stamps the build it completes.
  run(process.execPath, [path.join(root, "scripts/rechunk.mjs")], { env });
}

/** Installs Debian packages with apt-get (through sudo unless root). */
function aptInstall(packages) {
  const sudo = process.getuid?.() === 0 ? [] : ["sudo"];
  const apt = (args) =>
    run(sudo[0] ?? "apt-get", [...(sudo.length ? ["apt-get"] : []), ...args], {
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  apt(["update", "-qq"]);
  apt(["install", "-y", "-qq", "--no-install-recommends", ...packages]);
}

export function ensureChromium() {
  // The browser tests drive the headless shell (playwright.config.ts): the same Chromium without the
  // full browser's compositor and GPU process, about half the CPU per walk. The benches use the browser.
  const missing = [
    ["/usr/bin/chromium", "chromium"],
    ["/usr/lib/chromium/chromium-headless-shell", "chromium-headless-shell"],
  ].filter(([file]) => !existsSync(file));
  if (missing.length === 0) return;
  log(`installing Debian's ${missing.map(([, name]) => name).join(" and ")} for the browser tests`);
  aptInstall(missing.map(([, name]) => name));
  execFileSync("/usr/bin/chromium", ["--version"], { stdio: "inherit" });
}

/** poppler-utils: the PDF tests read the estimate back with pdftotext and pdffonts, as a customer's tools would. */
export function ensurePoppler() {
  if (existsSync("/usr/bin/pdftotext") && existsSync("/usr/bin/pdffonts")) return;
  log("installing Debian's poppler-utils (pdftotext, pdffonts) for the PDF tests");
  aptInstall(["poppler-utils"]);
}

/** veraPDF's command-line apps and their classpath (tools/verapdf), fetched by Maven once. */
export function ensureVeraPdf() {
  const pom = mtime(path.join(VERAPDF_DIR, "pom.xml"));
  if (existsSync(VERAPDF_LIB) && mtime(VERAPDF_LIB) > pom && readdirSync(VERAPDF_LIB).some((f) => f.startsWith("greenfield-apps-"))) return;
  log("fetching veraPDF, the PDF/A validator (the first time Maven fetches it)");
  const started = Date.now();
  rmSync(VERAPDF_LIB, { recursive: true, force: true });
  run("mvn", ["-q", "-B", "package"], { cwd: VERAPDF_DIR });
  log(`veraPDF ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** Schemathesis (the API fuzzer `npm test` runs), pinned, in a virtual environment of the project's own. */
export const SCHEMATHESIS_VERSION = "4.32.5";
export const VENV_DIR = path.join(root, ".venv");
export const SCHEMATHESIS_BIN = path.join(VENV_DIR, "bin", "schemathesis");

export function ensureSchemathesis() {
  ensurePythonTool({ name: "Schemathesis", pkg: "schemathesis", version: SCHEMATHESIS_VERSION, venv: VENV_DIR, bin: SCHEMATHESIS_BIN });
}

/** openapi-python-client (the suite generates a Python client from the description and syncs with it), in its own environment. */
export const PY_CLIENT_GENERATOR_VERSION = "0.29.1";
export const PY_CLIENTS_VENV = path.join(root, ".venv-clients");
export const PY_CLIENT_GENERATOR_BIN = path.join(PY_CLIENTS_VENV, "bin", "openapi-python-client");

export function ensurePythonClientGenerator() {
  ensurePythonTool({ name: "openapi-python-client", pkg: "openapi-python-client", version: PY_CLIENT_GENERATOR_VERSION, venv: PY_CLIENTS_VENV, bin: PY_CLIENT_GENERATOR_BIN });
}

/** A pinned Python tool in a virtual environment of the project's own, installed once from the package index. */
function ensurePythonTool({ name, pkg, version, venv, bin }) {
  const installed = spawnSync(bin, ["--version"], { encoding: "utf8" });
  if (installed.status === 0 && installed.stdout.includes(version)) return;
  const python = ["python3", "python"].find((p) => spawnSync(p, ["--version"], { stdio: "ignore" }).status === 0);
  if (!python) throw new Error(`Python 3 (with venv) is needed for ${name}, which \`npm test\` runs.`);
  log(`installing ${name} ${version} into ${path.basename(venv)} (the package index, once)`);
  const started = Date.now();
  if (!existsSync(path.join(venv, "bin", "pip"))) run(python, ["-m", "venv", venv]);
  run(path.join(venv, "bin", "pip"), ["install", "--quiet", "--disable-pip-version-check", `${pkg}==${version}`]);
  log(`${name} installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
