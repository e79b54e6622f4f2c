// Cold start: from a set-up tree (dependencies, launcher and app built) to the first 200 on /healthz,
// with the embedded database starting from an empty data directory. Target ≤ 5 s.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const runs = Number(process.env.RUNS ?? 3);

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

async function once() {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-startup-"));
  const env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, NODE_ENV: "production" };
  delete env.MONGODB_URI;
  const t0 = performance.now();
  const child = spawn(process.execPath, ["server.mjs"], {
    cwd: root,
    env,
    stdio: "ignore",
  });
  let elapsed;
  while (performance.now() - t0 < 30_000) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (res.status === 200) {
        elapsed = performance.now() - t0;
        break;
      }
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
  rmSync(dataDir, { recursive: true, force: true });
  return elapsed;
}

const times = [];
for (let i = 0; i < runs; i++) times.push(await once());
const fmt = (ms) => (ms === undefined ? "timeout" : `${(ms / 1000).toFixed(2)} s`);
console.log(`startup: cold start to first 200 /healthz over ${runs} runs: ${times.map(fmt).join(", ")}`);
const worst = Math.max(...times.map((t) => t ?? Infinity));
console.log(`startup: worst ${fmt(worst)} (target ≤ 5 s) ${worst <= 5000 ? "PASS" : "FAIL"}`);
