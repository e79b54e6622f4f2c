// `npm run bench [name…]`: runs every bench/<name>.mjs (or the named ones) and prints their figures.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const dir = path.dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const benches = readdirSync(dir)
  .filter((f) => f.endsWith(".mjs") && f !== "run.mjs" && f !== "lib.mjs")
  .map((f) => f.replace(/\.mjs$/, ""))
  .filter((name) => wanted.length === 0 || wanted.includes(name));

const setup = spawnSync(process.execPath, [path.join(dir, "../scripts/prepare.mjs")], { stdio: "inherit" });
if (setup.status !== 0) process.exit(1);
let failed = false;
for (const name of benches) {
  console.log(`\n--- bench/${name} ---`);
  const res = spawnSync(process.execPath, [path.join(dir, `${name}.mjs`)], { stdio: "inherit" });
  if (res.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
