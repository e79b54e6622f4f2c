// The throttled walkthrough (issue 15): runs e2e/throttled.walk.ts (Playwright, JavaScript on and
// off, 1.6 Mbit/s down / 750 kbit/s up / 150 ms RTT, CPU 4× slower) and prints each step's largest
// contentful paint, load time, bytes and duration, then a cold pass (issue 30: every screen with the
// cache disabled: requests before the first paint and before interactive, LCP, hydration done).
// `--write` puts the table into docs/performance.md
// (between its markers). Slow (a few minutes), so it is a bench, not part of `npm test`.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PROJECTS = ["js", "no-js"];
const results = (project) => path.join(root, ".tmp", `throttled-walk-${project}.json`);
const DOC = path.join(root, "docs/performance.md");
const BEGIN = "<!-- throttled-walk:begin -->";
const END = "<!-- throttled-walk:end -->";

for (const project of PROJECTS) rmSync(results(project), { force: true });
const run = spawnSync(
  process.execPath,
  [path.join(root, "node_modules/@playwright/test/cli.js"), "test", "-c", "playwright.throttled.config.ts"],
  { cwd: root, stdio: "inherit" },
);

const walks = Object.fromEntries(
  PROJECTS.filter((p) => existsSync(results(p))).map((p) => [p, JSON.parse(readFileSync(results(p), "utf8"))]),
);
if (Object.keys(walks).length === 0) {
  console.error("no walk finished");
  process.exit(1);
}
const ms = (v) => (v === null || v === undefined ? "—" : String(Math.round(v)));
const stepsOf = (p) => walks[p]?.steps ?? [];
const names = [...new Set(PROJECTS.flatMap((p) => stepsOf(p).map((s) => s.step)))];
const header = ["Step", ...PROJECTS.flatMap((p) => [`LCP ms (${p})`, `load ms (${p})`, `KB (${p})`, `took ms (${p})`])];
const lines = [`| ${header.join(" | ")} |`, `|${header.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`];
for (const name of names) {
  const cells = PROJECTS.flatMap((p) => {
    const s = stepsOf(p).find((x) => x.step === name);
    return s ? [ms(s.lcpMs), ms(s.loadMs), s.kb.toFixed(1), ms(s.ms)] : ["—", "—", "—", "—"];
  });
  lines.push(`| ${name} | ${cells.join(" | ")} |`);
}
const table = lines.join("\n");
console.log(`\n${table}\n`);

// The cold pass (issue 30): every screen with the cache disabled.
const coldOf = (p) => walks[p]?.cold ?? [];
const coldHeader = ["Screen (cold)", ...PROJECTS.flatMap((p) => [`requests before paint (${p})`, `before interactive (${p})`, `requests (${p})`, `LCP ms (${p})`, `hydrated ms (${p})`, `KB (${p})`])];
const coldLines = [`| ${coldHeader.join(" | ")} |`, `|${coldHeader.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`];
for (const screen of [...new Set(PROJECTS.flatMap((p) => coldOf(p).map((v) => v.screen)))]) {
  const cells = PROJECTS.flatMap((p) => {
    const v = coldOf(p).find((x) => x.screen === screen);
    return v ? [String(v.beforePaint), v.beforeInteractive ?? "—", String(v.requests), ms(v.lcpMs), ms(v.hydratedMs), v.kb.toFixed(1)] : ["—", "—", "—", "—", "—", "—"];
  });
  coldLines.push(`| ${screen} | ${cells.join(" | ")} |`);
}
const coldTable = coldLines.join("\n");
console.log(`${coldTable}\n`);

if (process.argv.includes("--write")) {
  const doc = readFileSync(DOC, "utf8");
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${DOC} has no ${BEGIN} … ${END} section`);
  const when = new Date().toISOString().slice(0, 10);
  const load = os.loadavg().map((l) => l.toFixed(1)).join(", ");
  const section = `${BEGIN}\nMeasured ${when} (\`node bench/throttled-walk.mjs --write\`, load average ${load}).\n\n${table}\n\nCold cache (every screen again with the cache disabled):\n\n${coldTable}\n${END}`;
  writeFileSync(DOC, doc.slice(0, start) + section + doc.slice(end + END.length));
  console.log(`wrote ${path.relative(root, DOC)}`);
}
process.exit(run.status ?? 1);
