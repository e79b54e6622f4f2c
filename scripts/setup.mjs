// Shared set-up for `npm start` and `npm test`: uses only Node built-ins so it
// can run on a fresh clone before dependencies are installed.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const LAUNCHER_DIR = path.join(root, "tools/ferretdb");
export const LAUNCHER = path.join(LAUNCHER_DIR, "ferretdb-launcher");

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
    newest(LAUNCHER_DIR, (f) => /\.(go|mod|sum)$/.test(f)),
  );
  if (mtime(LAUNCHER) > sources) return;
  const go = spawnSync("go", ["version"], { encoding: "utf8" });
  if (go.status !== 0) {
    throw new Error(
      "Go is needed to build the embedded database (tools/ferretdb). Install Go 1.22+ or set MONGODB_URI to an existing MongoDB.",
    );
  }
  log("building the embedded database launcher (FerretDB 1.24, first time takes about a minute)");
  const started = Date.now();
  run("go", ["build", "-trimpath", "-o", LAUNCHER, "."], {
    cwd: LAUNCHER_DIR,
    env: { ...process.env, CGO_ENABLED: "0" },
  });
  log(`launcher built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

export function ensureAppBuild() {
  const built = mtime(path.join(root, process.env.BUILD_DIR ?? "build", "index.js"));
  const sources = Math.max(
    newest(path.join(root, "app")),
    newest(path.join(root, "public"), (f) => !f.includes(`${path.sep}build${path.sep}`)),
    mtime(path.join(root, "remix.config.js")),
    mtime(path.join(root, "package-lock.json")),
  );
  if (built > sources) return;
  log("building the app");
  run(process.execPath, [path.join(root, "node_modules/@remix-run/dev/dist/cli.js"), "build"], {
    env: { ...process.env, NODE_ENV: "production" },
  });
}

export function ensureChromium() {
  if (existsSync("/usr/bin/chromium")) return;
  log("installing Debian's Chromium for the browser tests");
  const sudo = process.getuid?.() === 0 ? [] : ["sudo"];
  const apt = (args) =>
    run(sudo[0] ?? "apt-get", [...(sudo.length ? ["apt-get"] : []), ...args], {
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  apt(["update", "-qq"]);
  apt(["install", "-y", "-qq", "--no-install-recommends", "chromium"]);
  execFileSync("/usr/bin/chromium", ["--version"], { stdio: "inherit" });
}
