// `npm start`: set up whatever is missing or stale, then serve the app.
// `npm run dev`: the same set-up, then Remix's dev server with live reload.
import { spawn } from "node:child_process";
import path from "node:path";
import {
  ensureAppBuild,
  ensureDependencies,
  ensureLauncher,
  loadDotEnv,
  root,
} from "./setup.mjs";

const dev = process.argv.includes("--dev");

try {
  loadDotEnv();
  ensureDependencies();
  if (!process.env.MONGODB_URI) ensureLauncher();
  if (!dev) ensureAppBuild();
} catch (error) {
  console.error(`[setup] ${error.message}`);
  process.exit(1);
}

const args = dev
  ? [path.join(root, "node_modules/@remix-run/dev/dist/cli.js"), "dev"]
  : [path.join(root, "server.mjs")];

const child = spawn(process.execPath, args, {
  cwd: root,
  stdio: "inherit",
  env: { NODE_ENV: dev ? "development" : "production", ...process.env },
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
