// Analyses at scale: 100 analyses queued at once, run by the durable job queue with concurrency 4
// through the OpenAI-compatible provider, against the local test server taking 2 s per answer, on the
// embedded database. The ideal is 100 / 4 × 2 s = 50 s; target ≤ 1.2 × that. The runner is TypeScript
// (the app's queue and provider), bundled here with esbuild. Loopback only, every loop bounded.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { freePort, root, startEngine, stopProcess, verdict } from "./lib.mjs";

const TARGET = 1.2;
const dir = mkdtempSync(path.join(os.tmpdir(), "bench-analysis-"));
// Inside the project so that the bundle's bare imports resolve from node_modules.
const outDir = path.join(root, ".tmp", `bench-analysis-${process.pid}`);
mkdirSync(outDir, { recursive: true });
const outfile = path.join(outDir, "runner.mjs");
const enginePort = await freePort();
const engine = await startEngine({ dir: path.join(dir, "db"), port: enginePort });

try {
  await build({
    entryPoints: [path.join(root, "bench/analysis-runner.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    tsconfig: path.join(root, "tsconfig.json"),
    // Packages load from node_modules; the app's "~/" imports are bundled (tsconfig paths).
    plugins: [{ name: "packages-external", setup: (b) => b.onResolve({ filter: /^[^./~]/ }, (args) => ({ path: args.path, external: true })) }],
    logLevel: "warning",
  });
  const env = { ...process.env, NODE_ENV: "production", MONGODB_URI: `mongodb://127.0.0.1:${enginePort}/bench`, DATA_DIR: path.join(dir, "app") };
  const output = await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [outfile], { env, stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    child.stdout.on("data", (d) => (stdout += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 15 * 60_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`bench runner exited (${code}):\n${stdout}`));
    });
  });
  const r = JSON.parse(output.trim().split("\n").pop());
  const ratio = r.wallMs / r.idealMs;
  console.log(`${r.jobs} analyses, concurrency ${r.concurrency}, provider ${r.providerMs / 1000} s each (enqueued in ${r.enqueueMs} ms)`);
  console.log(`  done ${r.done}/${r.jobs}, ${r.requests} provider requests, at most ${r.maxInFlight} at once`);
  console.log(`  wall ${(r.wallMs / 1000).toFixed(1)} s vs ideal ${(r.idealMs / 1000).toFixed(1)} s = ${ratio.toFixed(3)}× (target ≤ ${TARGET}×) ${verdict(ratio <= TARGET && r.done === r.jobs && r.maxInFlight <= r.concurrency)}`);
  if (ratio > TARGET || r.done !== r.jobs) process.exitCode = 1;
} finally {
  await stopProcess(engine);
  rmSync(dir, { recursive: true, force: true });
  rmSync(outDir, { recursive: true, force: true });
}
