import { access, mkdir } from "node:fs/promises";
import { constants } from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";
import { env } from "~/utils/env.server";
import { pingDb } from "~/utils/db.server";
import { storage } from "./storage.server";

/**
 * Settings → System's status list: each service actually probed, with its latency. A probe is a
 * registry entry, so another module can swap its own in by name (the mailer's connection test
 * replaces "Email Service" at merge).
 */
export interface ProbeResult {
  ok: boolean;
  detail: string;
}
export interface StatusProbe {
  name: string;
  probe(signal: AbortSignal): Promise<ProbeResult>;
}
export interface ServiceStatus extends ProbeResult {
  name: string;
  latencyMs: number;
}

const PROBE_TIMEOUT_MS = 3000;
const probes = new Map<string, StatusProbe>();

export function registerStatusProbe(probe: StatusProbe) {
  probes.set(probe.name, probe);
}

/** Every probe at once, each bounded by PROBE_TIMEOUT_MS; a probe that throws is down with its reason. */
export async function probeServices(timeoutMs = PROBE_TIMEOUT_MS): Promise<ServiceStatus[]> {
  return Promise.all(
    [...probes.values()].map(async ({ name, probe }) => {
      const controller = new AbortController();
      const started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<ProbeResult>((resolve) => {
        timer = setTimeout(() => {
          controller.abort();
          resolve({ ok: false, detail: `No answer within ${timeoutMs} ms` });
        }, timeoutMs);
      });
      const result = await Promise.race([
        probe(controller.signal).catch((error: unknown) => ({ ok: false, detail: error instanceof Error ? error.message : String(error) })),
        timeout,
      ]);
      clearTimeout(timer);
      return { name, ...result, latencyMs: Math.round(performance.now() - started) };
    }),
  );
}

registerStatusProbe({
  name: "AI Service",
  async probe(signal) {
    if (!env.OPENAI_API_KEY) return { ok: true, detail: "Embedded analysis (no OpenAI key configured)" };
    const base = (env.OPENAI_BASE_URL ?? "https://api.openai.com/v1").replace(/\/$/, "");
    const res = await fetch(`${base}/models`, { headers: { Authorization: `Bearer ${env.OPENAI_API_KEY}` }, signal });
    await res.body?.cancel();
    if (res.status === 401 || res.status === 403) return { ok: false, detail: `The API key was refused (${res.status})` };
    if (res.status >= 500) return { ok: false, detail: `The AI service answered ${res.status}` };
    return { ok: true, detail: `${new URL(base).host}, model ${env.OPENAI_MODEL}` };
  },
});

registerStatusProbe({
  name: "Email Service",
  async probe() {
    if (!env.SMTP_HOST) {
      // No SMTP server: messages go to the local mail drop, which must be writable.
      const drop = path.resolve(env.DATA_DIR, "outbox");
      await mkdir(drop, { recursive: true });
      await access(drop, constants.W_OK);
      return { ok: true, detail: "Local mail drop (DATA_DIR/outbox)" };
    }
    const transport = nodemailer.createTransport({
      host: env.SMTP_HOST,
      port: env.SMTP_PORT,
      secure: env.SMTP_SECURE,
      auth: env.SMTP_USER ? { user: env.SMTP_USER, pass: env.SMTP_PASS ?? "" } : undefined,
      connectionTimeout: PROBE_TIMEOUT_MS,
      greetingTimeout: PROBE_TIMEOUT_MS,
    });
    try {
      await transport.verify();
      return { ok: true, detail: `SMTP ${env.SMTP_HOST}:${env.SMTP_PORT}` };
    } finally {
      transport.close();
    }
  },
});

registerStatusProbe({
  name: "Object Storage",
  async probe() {
    const backend = storage();
    // A key that never exists: the store must answer "not there" (a reachable, authorised store).
    await backend.head("status-probe/none");
    return { ok: true, detail: backend.kind === "s3" ? `S3 bucket ${env.S3_BUCKET}` : "Local disk (DATA_DIR)" };
  },
});

registerStatusProbe({
  name: "Database",
  async probe() {
    const ok = await pingDb(PROBE_TIMEOUT_MS);
    return ok ? { ok: true, detail: "MongoDB answered ping" } : { ok: false, detail: "MongoDB did not answer" };
  },
});
