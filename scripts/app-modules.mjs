// The app's own modules for an operator's script: bundled once into .tmp (the app's dependencies stay
// imports from node_modules), on the app's database (MONGODB_URI, or the embedded one in DATA_DIR: the
// running app's engine when it answers on its port, else the script starts the engine itself).
import { build } from "esbuild";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { loadDotEnv, root } from "./setup.mjs";

const answers = (port) =>
  new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port }, () => (socket.end(), resolve(true)));
    socket.on("error", () => resolve(false));
  });

/** Imports `contents` (export statements of `~/…` modules) bundled as `name`, after pointing at the app's database. */
export async function appModules(name, contents) {
  loadDotEnv();
  // A running app's embedded engine holds the data directory: talk to it rather than start another.
  if (!process.env.MONGODB_URI) {
    const portFile = path.resolve(process.env.DATA_DIR ?? "./data", "db", "port");
    const port = existsSync(portFile) ? Number(readFileSync(portFile, "utf8").trim()) : 0;
    if (port && (await answers(port))) process.env.MONGODB_URI = `mongodb://127.0.0.1:${port}/`;
  }
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  const outdir = path.join(root, ".tmp");
  mkdirSync(outdir, { recursive: true });
  const outfile = path.join(outdir, `${name}.bundle.mjs`);
  await build({
    stdin: { contents, resolveDir: root, loader: "ts" },
    bundle: true,
    platform: "node",
    format: "esm",
    external: Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).flatMap((dep) => [dep, `${dep}/*`]),
    tsconfig: path.join(root, "tsconfig.json"),
    outfile,
    logLevel: "error",
  });
  return import(pathToFileURL(outfile).href);
}
