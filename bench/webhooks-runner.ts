// Run by bench/webhooks.mjs (bundled with esbuild): EVENTS events (1,000) emitted through emitEvent
// by 8 emitters at once, fanned out to 3 endpoints (local HTTP receivers, loopback only) and
// delivered by the app's webhook worker. The delay of a delivery is from the event's time (the
// payload's timestamp, on the database's clock) to its arrival at the receiver. Four events per
// estimate (orderKey), so the per-estimate order is kept under load too. WARMUP_EVENTS (0) are
// emitted and delivered first, unmeasured: an engine that has run a while has compiled its hot code,
// a fresh one spends seconds of CPU in its JIT. DRAIN=1: the worker starts only once every event is
// written, and the delays count from its start (how fast it drains a full queue). Prints one JSON line.
import http from "node:http";
import type { AddressInfo } from "node:net";
import mongoose from "mongoose";
import { User } from "../app/models/user.server";
import { insertEndpoint } from "../app/models/webhook.server";
import { WEBHOOK_EXAMPLE_DATA } from "../app/schemas/webhook-events";
import { seal } from "../app/services/secret-box.server";
import { WebhookWorker } from "../app/services/webhook-delivery.server";
import { emitEvent } from "../app/services/webhooks.server";
import { closeDb, db } from "../app/utils/db.server";
import { parseOutboundAllow } from "../app/utils/outbound.server";
import { cpuSeconds, threadCpuSeconds } from "./lib.mjs";

const EVENTS = Number(process.env.EVENTS ?? 1000);
const EMITTERS = 8;
const PER_ESTIMATE = 4;
/** Events a second over all emitters (EVENT_RATE); 0: as fast as they go (a burst). */
const RATE = Number(process.env.EVENT_RATE ?? 0);
const WARMUP = Number(process.env.WARMUP_EVENTS ?? 0);
const DRAIN = process.env.DRAIN === "1";
/** The embedded database's process (its CPU and its JIT's are read from /proc). */
const ENGINE_PID = Number(process.env.ENGINE_PID);
const jitSeconds = () => threadCpuSeconds(ENGINE_PID, "C1 CompilerThre") + threadCpuSeconds(ENGINE_PID, "C2 CompilerThre");

await db().ready;

/** Database commands by collection and method (mongoose's debug hook sees every one the app sends). */
const commands = new Map<string, number>();
mongoose.set("debug", (collection: string, method: string) => {
  const name = `${collection}.${method}`;
  commands.set(name, (commands.get(name) ?? 0) + 1);
});

/** Per receiver: arrivals by webhook-id (how many, and the delay of the first), and each estimate's sequence. */
const receivers = await Promise.all(
  [0, 1, 2].map(async () => {
    const arrivals = new Map<string, { count: number; delayMs: number; at: number }>();
    const sequences = new Map<string, number[]>();
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const now = Date.now();
        const raw = JSON.parse(Buffer.concat(chunks).toString()) as { timestamp: string; data: { title: string } };
        const body = { timestamp: raw.timestamp, data: JSON.parse(raw.data.title) as { estimate: string; n: number } };
        const id = String(req.headers["webhook-id"]);
        const seen = arrivals.get(id);
        if (seen) seen.count += 1;
        else arrivals.set(id, { count: 1, delayMs: now - Date.parse(body.timestamp), at: now });
        sequences.set(body.data.estimate, [...(sequences.get(body.data.estimate) ?? []), body.data.n]);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return { server, arrivals, sequences, port: (server.address() as AddressInfo).port };
  }),
);

const owner = await User.create({ username: `bench-hooks-${Date.now()}`, usernameKey: `bench-hooks-${Date.now()}`, passwordHash: "x", email: "hooks@example.com", firstName: "Bench", lastName: "Hooks", role: "dealer" });
for (const r of receivers) {
  await insertEndpoint({ ownerId: String(owner._id), url: `http://127.0.0.1:${r.port}/hook`, events: ["estimate.updated"], secretSealed: seal("webhook-secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw") });
}
const startWorker = () => new WebhookWorker({ allow: (parseOutboundAllow("loopback") as { ok: true; allow: never }).allow }).start();
let worker = startWorker();

/** Emits `count` events of estimates named `prefix-*` by 8 emitters, paced at RATE (0: at once); answers when the last is written. */
async function emitAll(count: number, prefix: string) {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: EMITTERS }, async () => {
      // An estimate's events are written one after another by one emitter (as one estimate changes).
      for (let e = next++; e < count / PER_ESTIMATE; e = next++) {
        const estimate = `${prefix}-${e}`;
        for (let n = 0; n < PER_ESTIMATE; n++) {
          const due = started + ((e * PER_ESTIMATE + n) * 1000) / (RATE || Infinity);
          if (due > performance.now()) await new Promise((r) => setTimeout(r, due - performance.now()));
          await emitEvent({ ownerId: owner._id, type: "estimate.updated", data: { ...WEBHOOK_EXAMPLE_DATA["estimate.updated"], title: JSON.stringify({ estimate, n }) }, orderKey: estimate });
        }
      }
    }),
  );
}
const total = () => receivers.reduce((sum, r) => sum + r.arrivals.size, 0);
async function allArrived(count: number) {
  const deadline = Date.now() + 5 * 60_000;
  while (total() < count * 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}

if (WARMUP > 0) {
  await emitAll(WARMUP, "warm");
  await allArrived(WARMUP);
  for (const r of receivers) {
    r.arrivals.clear();
    r.sequences.clear();
  }
}
if (DRAIN) await worker.stop();
commands.clear();
const appCpuBefore = process.cpuUsage();
const engineCpuBefore = cpuSeconds(ENGINE_PID);
const jitBefore = jitSeconds();
const started = performance.now();
await emitAll(EVENTS, "est");
const emitMs = performance.now() - started;
let drainFrom = 0;
/** With DRAIN, the CPU of writing the events (no worker running) apart from delivering them. */
let emitCpu: { appMs: number; engineS: number } | null = null;
if (DRAIN) {
  const cpu = process.cpuUsage(appCpuBefore);
  emitCpu = { appMs: Math.round((cpu.user + cpu.system) / 1000), engineS: cpuSeconds(ENGINE_PID) - engineCpuBefore };
  drainFrom = Date.now();
  worker = startWorker();
}
await allArrived(EVENTS);
const doneMs = performance.now() - started;
await worker.stop();
mongoose.set("debug", false);

const delays = receivers.flatMap((r) => [...r.arrivals.values()].map((a) => (DRAIN ? a.at - drainFrom : a.delayMs))).sort((a, b) => a - b);
const pct = (p: number) => delays[Math.min(delays.length - 1, Math.max(0, Math.ceil((p / 100) * delays.length) - 1))] ?? NaN;
const repeats = receivers.reduce((sum, r) => sum + [...r.arrivals.values()].filter((a) => a.count > 1).length, 0);
// Each estimate's events were written in ascending n: a receiver must never see a smaller n after a larger one.
const outOfOrder = receivers.reduce(
  (sum, r) => sum + [...r.sequences.values()].filter((seq) => seq.some((n, k) => k > 0 && n < seq[k - 1])).length,
  0,
);
for (const r of receivers) r.server.close();
await closeDb();
const cpu = process.cpuUsage(appCpuBefore);
const engineCpuS = cpuSeconds(ENGINE_PID) - engineCpuBefore;
const jitS = jitSeconds() - jitBefore;
console.log(JSON.stringify({ rate: RATE, warmup: WARMUP, drain: DRAIN, drainMs: DRAIN ? Math.round(doneMs - emitMs) : null, emitCpu, appCpuMs: Math.round((cpu.user + cpu.system) / 1000), engineCpuS, jitS, events: EVENTS, endpoints: 3, delivered: total(), emitMs: Math.round(emitMs), doneMs: Math.round(doneMs), p50: pct(50), p95: pct(95), max: delays[delays.length - 1], repeats, outOfOrder, commands: Object.fromEntries([...commands].sort((a, b) => b[1] - a[1])) }));
process.exit(0);
