// The email outbox under load: 1,000 estimate emails (EMAILS) queued through
// POST /api/assessments/{id}/send-email, delivered by the app's worker with the estimate PDF to a
// local SMTP server this script runs (the smtp-server package, loopback only). Checks every message
// arrived exactly once (by Message-ID), prints queueing and delivery throughput, and the app's
// resident memory: warm before, peak during, and after a quiet spell (growth ≤ 64 MB). EMAILS (1000).
import { SMTPServer } from "smtp-server";
import { benchDealers, call, childPids, freePort, pool, rssMiB, startStack, verdict } from "./lib.mjs";

const EMAILS = Number(process.env.EMAILS ?? 1000);
/**
 * Sends at the measured pace before the memory baseline: V8 sizes its heap to the load on the first
 * few hundred messages, and the target is about what 1,000 messages leave behind in a warm server.
 */
const WARMUP = 200;
const RSS_BUDGET_MIB = 64;
const SETTLE_MS = 15_000;

/** Message-IDs the server accepted, and how often each. */
const received = new Map();
const smtpPort = await freePort();
const smtp = new SMTPServer({
  secure: false,
  disabledCommands: ["STARTTLS", "AUTH"],
  logger: false,
  closeTimeout: 50,
  onData(stream, _session, callback) {
    const chunks = [];
    stream.on("data", (c) => chunks.push(c));
    stream.on("end", () => {
      const head = Buffer.concat(chunks).subarray(0, 4096).toString();
      const id = /^Message-ID:\s*(<[^>]+>)/im.exec(head)?.[1] ?? "missing";
      received.set(id, (received.get(id) ?? 0) + 1);
      callback(null, "Ok: queued");
    });
  },
});
await new Promise((resolve) => smtp.listen(smtpPort, "127.0.0.1", resolve));

// The app reads its mail server from the environment (one worker process: its memory is the figure).
Object.assign(process.env, { SMTP_HOST: "127.0.0.1", SMTP_PORT: String(smtpPort), MAIL_FROM: "bench@example.com", WEB_CONCURRENCY: "1" });
const stack = await startStack("email");
const { base, app, db } = stack;
const appRss = () => rssMiB(app.pid) + childPids(app.pid).reduce((sum, pid) => sum + rssMiB(pid), 0);

async function waitUntilSent(total, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const sent = await db.collection("emaillogs").countDocuments({ status: "sent" });
    const failed = await db.collection("emaillogs").countDocuments({ status: { $in: ["failed", "unknown"] } });
    if (failed > 0) throw new Error(`${failed} emails failed`);
    if (sent >= total) return;
    if (Date.now() > deadline) throw new Error(`only ${sent} of ${total} sent in ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

try {
  const { cookie, dealers } = await benchDealers(base, 1);
  const { text } = await call(base, "POST", "/api/contacts", { cookie, body: { firstName: "Jane", lastName: "Doe", email: "jane@example.com" } });
  const contactId = JSON.parse(text).id;
  const now = new Date();
  const { insertedId } = await db.collection("assessments").insertOne({
    ownerId: dealers[0], title: "Bench Camry", vehicleYear: 2019, vehicleMake: "Toyota", vehicleModel: "Camry",
    status: "reviewed", estimatedCost: 1234.5, mediaUrls: [], damages: [], damageCategories: [], lineItems: [], audit: [],
    photoHashes: [], photoBands: [], photoWarnings: [], createdAt: now, updatedAt: now,
  });
  const sendWithKey = async (key) => {
    const res = await fetch(`${base}/api/assessments/${insertedId}/send-email`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: cookie, Origin: base, "Idempotency-Key": key },
      body: JSON.stringify({ contactId }),
    });
    if (res.status !== 202) throw new Error(`send: ${res.status} ${await res.text()}`);
    return res.json();
  };

  // Warm up (code paths, PDF fonts, connections, the heap's size for this load), then the memory baseline.
  const rssCold = appRss();
  await pool(WARMUP, 16, (i) => sendWithKey(`warmup-message-${i}`));
  await waitUntilSent(WARMUP, 5 * 60_000);
  const rssBefore = appRss();

  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, appRss())), 250);
  const started = performance.now();
  await pool(EMAILS, 16, (i) => sendWithKey(`bench-message-${i}`));
  const queuedSeconds = (performance.now() - started) / 1000;
  const rssQueued = appRss();
  // A repeated key is the first send again: these add nothing.
  await pool(50, 8, (i) => sendWithKey(`bench-message-${i}`));
  await waitUntilSent(WARMUP + EMAILS, 30 * 60_000);
  const deliveredSeconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  // What the load left behind: the app gives back the heap it grew for the load once it is idle (its
  // idle collector, app/utils/idle-collector.server.ts), so the figure is read after a quiet spell;
  // the peak is printed beside it.
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const rssAfter = appRss();

  const total = WARMUP + EMAILS;
  const logs = await db.collection("emaillogs").find({}, { projection: { messageId: 1 } }).toArray();
  const missing = logs.filter((l) => received.get(l.messageId) !== 1);
  const extra = [...received.keys()].filter((id) => !logs.some((l) => l.messageId === id));
  const exactlyOnce = logs.length === total && missing.length === 0 && extra.length === 0;
  const growth = rssAfter - rssBefore;

  console.log(`email: ${EMAILS} estimate emails (PDF attached) through the outbox to a local SMTP server`);
  console.log(`email: queued in ${queuedSeconds.toFixed(1)} s (${(EMAILS / queuedSeconds).toFixed(0)} sends/s at 16 connections, 202 each)`);
  console.log(`email: delivered in ${deliveredSeconds.toFixed(1)} s from the first send (${(EMAILS / deliveredSeconds).toFixed(1)} messages/s, EMAIL_CONCURRENCY default)`);
  console.log(`email: ${logs.length} logs, ${received.size} distinct Message-IDs received, ${missing.length} missing or repeated, ${extra.length} unknown: exactly once ${verdict(exactlyOnce)}`);
  console.log(`email: app RSS ${rssCold.toFixed(0)} MiB cold, ${rssBefore.toFixed(0)} MiB after ${WARMUP} warm-up messages → ${rssQueued.toFixed(0)} MiB when all were queued, peak ${peak.toFixed(0)} MiB (+${(peak - rssBefore).toFixed(0)}) → ${rssAfter.toFixed(0)} MiB ${SETTLE_MS / 1000} s after the last delivery`);
  console.log(`email: app RSS growth retained ${growth.toFixed(1)} MiB (target ≤ ${RSS_BUDGET_MIB} MB) ${verdict(growth <= RSS_BUDGET_MIB)}`);
  if (!exactlyOnce || growth > RSS_BUDGET_MIB) process.exitCode = 1;
} catch (error) {
  console.error(`email: ${error.stack ?? error.message}`);
  process.exitCode = 1;
} finally {
  await stack.stop();
  await new Promise((resolve) => smtp.close(resolve));
}
