// Analyses at scale: 100 analyses queued at once, run by the durable job queue with concurrency 4
// through the OpenAI-compatible provider, against the local test server taking 2 s per answer, on the
// embedded database. The ideal is 100 / 4 × 2 s = 50 s; target ≤ 1.2 × that. The runner is TypeScript
// (the app's queue and provider), bundled here with esbuild. Loopback only, every loop bounded.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, runBundled, startEngine, stopProcess, verdict } from "./lib.mjs";

const TARGET = 1.2;
const dir = mkdtempSync(path.join(os.tmpdir(), "bench-analysis-"));
const enginePort = await freePort();
const engine = await startEngine({ dir: path.join(dir, "db"), port: enginePort });

try {
  const r = await runBundled("bench/analysis-runner.ts", { MONGODB_URI: `mongodb://127.0.0.1:${enginePort}/bench`, DATA_DIR: path.join(dir, "app") });
  const ratio = r.wallMs / r.idealMs;
  console.log(`${r.jobs} analyses, concurrency ${r.concurrency}, provider ${r.providerMs / 1000} s each (enqueued in ${r.enqueueMs} ms)`);
  console.log(`  done ${r.done}/${r.jobs}, ${r.requests} provider requests, at most ${r.maxInFlight} at once`);
  console.log(`  wall ${(r.wallMs / 1000).toFixed(1)} s vs ideal ${(r.idealMs / 1000).toFixed(1)} s = ${ratio.toFixed(3)}× (target ≤ ${TARGET}×) ${verdict(ratio <= TARGET && r.done === r.jobs && r.maxInFlight <= r.concurrency)}`);
  if (ratio > TARGET || r.done !== r.jobs) process.exitCode = 1;
} finally {
  await stopProcess(engine);
  rmSync(dir, { recursive: true, force: true });
}
