// Webhooks under load: 1,000 events fan out to 3 endpoints (local HTTP receivers that answer at
// once), delivered by the webhook worker against the embedded database. Prints the p95 delay from
// an event's time to its arrival (target ≤ 2 s), every delivery arriving once, and the order kept
// within each estimate. Runner: bench/webhooks-runner.ts. EVENTS (1000); EVENT_RATE events a second
// (default 0: a burst, as fast as 8 emitters go); WARMUP_EVENTS (0) delivered first, unmeasured;
// DRAIN=1 starts the worker once all are written (the delays then count from its start).
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, runBundled, startEngine, stopProcess, verdict } from "./lib.mjs";

const TARGET_P95_MS = 2_000;
const dir = mkdtempSync(path.join(os.tmpdir(), "bench-webhooks-"));
const enginePort = await freePort();
const engine = await startEngine({ dir: path.join(dir, "db"), port: enginePort });

try {
  const r = await runBundled("bench/webhooks-runner.ts", { MONGODB_URI: `mongodb://127.0.0.1:${enginePort}/bench`, DATA_DIR: path.join(dir, "app"), EVENT_RATE: process.env.EVENT_RATE ?? "0", WARMUP_EVENTS: process.env.WARMUP_EVENTS ?? "0", DRAIN: process.env.DRAIN ?? "0", ENGINE_PID: String(engine.pid) });
  const complete = r.delivered === r.events * r.endpoints && r.repeats === 0 && r.outOfOrder === 0;
  console.log(`webhooks: ${r.events} events × ${r.endpoints} endpoints, emitted in ${(r.emitMs / 1000).toFixed(1)} s by 8 emitters${r.rate ? ` paced at ${r.rate}/s` : " (a burst)"}${r.warmup ? ` after ${r.warmup} unmeasured` : ""} (${Math.round(r.events / (r.emitMs / 1000))} events/s), all delivered ${(r.doneMs / 1000).toFixed(1)} s after the first`);
  console.log(`webhooks: ${r.delivered}/${r.events * r.endpoints} delivered, ${r.repeats} repeated, ${r.outOfOrder} estimates out of order ${verdict(complete)}`);
  const { engineCpuS: engineCpu, jitS: jit } = r;
  // CPU per event tells the cost apart from the machine's load (a shared machine stretches the delays).
  console.log(`webhooks: CPU ${(r.appCpuMs / 1000).toFixed(1)} s in the app's process (emitting and delivering), ${engineCpu.toFixed(1)} s in the embedded database (${jit.toFixed(1)} s of it the JIT compiling): ${((r.appCpuMs / 1000 + engineCpu) / r.events * 1000).toFixed(1)} ms per event (${r.endpoints} deliveries); load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`);
  if (r.drain) {
    console.log(`webhooks: the worker, started once all were written, drained ${r.events * r.endpoints} deliveries in ${(r.drainMs / 1000).toFixed(1)} s (${Math.round(r.events / (r.drainMs / 1000))} events/s); the delays below count from its start`);
    const perEvent = (appMs, engineS) => `${((appMs / 1000 + engineS) / r.events * 1000).toFixed(1)} ms (app ${(appMs / r.events).toFixed(1)}, engine ${(engineS / r.events * 1000).toFixed(1)})`;
    console.log(`webhooks: CPU per event writing it ${perEvent(r.emitCpu.appMs, r.emitCpu.engineS)}, delivering it ${perEvent(r.appCpuMs - r.emitCpu.appMs, engineCpu - r.emitCpu.engineS)}`);
  }
  const commandCount = Object.values(r.commands).reduce((sum, n) => sum + n, 0);
  console.log(`webhooks: ${(commandCount / r.events).toFixed(1)} database commands per event: ${Object.entries(r.commands).map(([name, n]) => `${name} ${(n / r.events).toFixed(2)}`).join(", ")}`);
  console.log(`webhooks: delivery delay p50 ${r.p50} ms, p95 ${r.p95} ms, max ${r.max} ms (target p95 ≤ ${TARGET_P95_MS} ms) ${verdict(r.p95 <= TARGET_P95_MS)}`);
  if (!complete || !(r.p95 <= TARGET_P95_MS)) process.exitCode = 1;
} finally {
  await stopProcess(engine);
  rmSync(dir, { recursive: true, force: true });
}
