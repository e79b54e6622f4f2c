#!/usr/bin/env node
// The dashboard's counters (docs/decisions/0031) against a full recount of the assessments:
//   node scripts/dashboard-aggregates.mjs --verify    prints every difference; exits 1 if there is one
//   node scripts/dashboard-aggregates.mjs --rebuild   rebuilds every account's counters, then verifies
// It uses the app's database (MONGODB_URI, or the embedded one in DATA_DIR: the running app's engine
// when it answers on its port, else it starts the engine itself).
import { build } from "esbuild";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { loadDotEnv, root } from "./setup.mjs";

const mode = process.argv[2];
if (mode !== "--verify" && mode !== "--rebuild") {
  console.error("usage: node scripts/dashboard-aggregates.mjs --verify|--rebuild");
  process.exit(2);
}
loadDotEnv();

const answers = (port) =>
  new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port }, () => (socket.end(), resolve(true)));
    socket.on("error", () => resolve(false));
  });

// A running app's embedded engine holds the data directory: talk to it rather than start another.
if (!process.env.MONGODB_URI) {
  const portFile = path.resolve(process.env.DATA_DIR ?? "./data", "db", "port");
  const port = existsSync(portFile) ? Number(readFileSync(portFile, "utf8").trim()) : 0;
  if (port && (await answers(port))) process.env.MONGODB_URI = `mongodb://127.0.0.1:${port}/`;
}

const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const outdir = path.join(root, ".tmp");
mkdirSync(outdir, { recursive: true });
const outfile = path.join(outdir, "dashboard-aggregates.bundle.mjs");
await build({
  stdin: {
    contents: `export { db, closeDb } from "~/utils/db.server"; export { checkDashboardFigures } from "~/models/dashboard-figures-check.server";`,
    resolveDir: root,
    loader: "ts",
  },
  bundle: true,
  platform: "node",
  format: "esm",
  // The app's dependencies stay imports (from node_modules); its own modules (`~/…`) are bundled.
  external: Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).flatMap((name) => [name, `${name}/*`]),
  tsconfig: path.join(root, "tsconfig.json"),
  outfile,
  logLevel: "error",
});
const { db, closeDb, checkDashboardFigures } = await import(pathToFileURL(outfile).href);
await db().ready;
let differences;
try {
  differences = await checkDashboardFigures({ rebuild: mode === "--rebuild" });
} finally {
  await closeDb();
}
process.exit(differences.length === 0 ? 0 : 1);
