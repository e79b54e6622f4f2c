// The customer's estimate page (/e/{token}, issue 27): runs e2e/public-estimate.walk.ts (Playwright,
// a 360 px phone, JavaScript on and off, 1.6 Mbit/s down / 750 kbit/s up / 150 ms RTT, CPU 4×
// slower, nothing cached) and prints each project's largest contentful paint over 5 first loads,
// the load time and the bytes. Budget: LCP ≤ 1000 ms (exit 1 over it).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PROJECTS = ["phone", "phone-no-js"];
const results = (project) => path.join(root, ".tmp", `public-estimate-${project}.json`);
const BUDGET_MS = 1000;

for (const project of PROJECTS) rmSync(results(project), { force: true });
const run = spawnSync(
  process.execPath,
  [path.join(root, "node_modules/@playwright/test/cli.js"), "test", "-c", "playwright.public-estimate.config.ts"],
  { cwd: root, stdio: "inherit" },
);
const ms = (v) => (v === null || v === undefined || !Number.isFinite(v) ? "—" : String(Math.round(v)));
const lines = ["| Project | LCP ms median | LCP ms max | load ms median | KB | LCP element |", "|---|---:|---:|---:|---:|---|"];
let over = false;
for (const project of PROJECTS) {
  if (!existsSync(results(project))) continue;
  const r = JSON.parse(readFileSync(results(project), "utf8"));
  const loads = r.samples.map((s) => s.loadMs ?? Infinity).sort((a, b) => a - b);
  const kb = Math.max(...r.samples.map((s) => s.kb));
  lines.push(`| ${project} | ${ms(r.medianLcpMs)} | ${ms(r.maxLcpMs)} | ${ms(loads[Math.floor(loads.length / 2)])} | ${kb.toFixed(1)} | ${[...new Set(r.samples.map((s) => s.lcpElement))].join(", ")} |`);
  if (!(r.maxLcpMs <= BUDGET_MS)) over = true;
}
console.log(`\nCustomer estimate page, first load (budget LCP ≤ ${BUDGET_MS} ms):\n\n${lines.join("\n")}\n`);
process.exit(run.status === 0 && !over ? 0 : 1);
