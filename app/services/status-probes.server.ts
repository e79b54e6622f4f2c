import { env } from "~/utils/env.server";
import { DISK_RESERVE_MB, diskSpace, isFull, megabytes } from "~/utils/disk.server";
import { pingDb } from "~/utils/db.server";
import { isAdmin, type Actor } from "./actor";
import { verifiedExamplesVersion } from "~/models/training-item.server";
import { recentBackups } from "~/models/backup-run.server";
import { activeProviderConfig, OPENAI_BASE_URL } from "./ai-provider.server";
import { testConnection } from "./mail-config.server";
import { storage } from "./storage/backend.server";

/**
 * Settings → System's status list: each service actually probed, with its latency, for the account
 * asking (its own mail server, if it set one). A probe is a registry entry, replaceable by name.
 */
export interface ProbeResult {
  ok: boolean;
  detail: string;
  /** Not down, but not set up either: nothing to reach (shown as "Not configured", not "Operational"). */
  notConfigured?: boolean;
  /** Working, but the admin should act before it stops (shown as "Warning"). */
  warning?: boolean;
}
export interface StatusProbe {
  name: string;
  /** About the installation, not the account: listed for admins only. */
  adminOnly?: boolean;
  probe(signal: AbortSignal, actor: Actor): Promise<ProbeResult>;
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
export async function probeServices(actor: Actor, timeoutMs = PROBE_TIMEOUT_MS): Promise<ServiceStatus[]> {
  return Promise.all(
    [...probes.values()].filter((p) => !p.adminOnly || isAdmin(actor)).map(async ({ name, probe }) => {
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
        probe(controller.signal, actor).catch((error: unknown) => ({ ok: false, detail: error instanceof Error ? error.message : String(error) })),
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
    const config = await activeProviderConfig();
    if (!config) {
      const [verified] = (await verifiedExamplesVersion()).split(":");
      if (Number(verified) > 0) return { ok: true, detail: `Embedded matcher: ${verified} verified training image(s); no AI provider set up` };
      return {
        ok: false,
        notConfigured: true,
        detail: "Not configured: no AI provider (Admin Settings → AI Provider) and no verified training images (AI Training), so photos are not analysed",
      };
    }
    const base = (config.baseURL ?? OPENAI_BASE_URL).replace(/\/$/, "");
    const res = await fetch(`${base}/models`, { headers: { Authorization: `Bearer ${config.apiKey}` }, signal });
    await res.body?.cancel();
    if (res.status === 401 || res.status === 403) return { ok: false, detail: `The API key was refused (${res.status})` };
    if (res.status >= 500) return { ok: false, detail: `The AI service answered ${res.status}` };
    const where = config.source === "settings" ? "Admin Settings" : "OPENAI_* environment";
    return { ok: true, detail: `${new URL(base).host}, model ${config.model} (${where})` };
  },
});

// The Email Center's connection test (transporter.verify() on the account's route), asked afresh.
registerStatusProbe({
  name: "Email Service",
  async probe(_signal, actor) {
    const status = await testConnection(actor, { fresh: true });
    // As the Email Center says: the drop keeps messages, it delivers nothing.
    if (status.via === "drop") return { ok: false, notConfigured: true, detail: "Not configured: no mail server (Settings → Email or SMTP_HOST); messages are only saved to the local mail drop" };
    const where = status.via === "account" ? "the account's mail server" : "the SMTP_* server";
    return { ok: status.connected, detail: status.connected ? `Connected to ${where}` : (status.reason ?? `Could not reach ${where}`) };
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

// DATA_DIR's disk (the embedded database, local objects): a warning under DISK_WARN_PERCENT free,
// before writes stop at the reserve (docs/decisions/0038).
registerStatusProbe({
  name: "Disk Space",
  adminOnly: true,
  async probe() {
    const space = await diskSpace(env.DATA_DIR);
    if (!space) return { ok: true, detail: "DATA_DIR's free space cannot be read on this system" };
    const percent = Math.floor((space.freeBytes / space.totalBytes) * 100);
    const free = `${megabytes(space.freeBytes)} free of ${megabytes(space.totalBytes)} (${percent} %) on DATA_DIR`;
    if (isFull(space)) return { ok: false, detail: `Disk full: ${free}; writes are refused until space is freed (reads go on)` };
    if (percent < env.DISK_WARN_PERCENT) {
      return { ok: true, warning: true, detail: `Low disk space: ${free}; writes stop below ${DISK_RESERVE_MB} MB free` };
    }
    return { ok: true, detail: free };
  },
});

// The installation's backups (docs/decisions/0066): the last one's time, size and result.
registerStatusProbe({
  name: "Backups",
  adminOnly: true,
  async probe() {
    if (env.MONGODB_URI) return { ok: true, notConfigured: true, detail: "MongoDB (MONGODB_URI): back it up with MongoDB's tools and the objects with S3 versioning (docs/deploy.md, Backups)" };
    const [last] = await recentBackups(1);
    // Whole sentences, one per case: each is a key of the locale files (values inside are numbers and times).
    const hours = env.BACKUP_INTERVAL_HOURS;
    const schedule = hours > 0 ? `backups run every ${hours} h` : "backups run by hand (npm run backup)";
    if (!last) return { ok: false, notConfigured: true, detail: `No backup yet; ${schedule} (docs/deploy.md, Backups)` };
    const when = last.startedAt.toISOString().replace("T", " ").slice(0, 16) + " UTC";
    if (last.state === "running") return { ok: true, detail: `A backup is running since ${when}` };
    if (last.state === "failed") return { ok: false, detail: `The last backup failed (${when}): ${last.error ?? "no reason recorded"}` };
    const size = ((last.bytes ?? 0) / 1048576).toFixed(1);
    const detail = `Last backup ${when}: ${size} MB, ${last.documents ?? 0} documents, ${last.objects ?? 0} objects; ${schedule}`;
    const stale = hours > 0 && Date.now() - last.startedAt.getTime() > 2 * hours * 3600_000;
    return stale ? { ok: true, warning: true, detail: `${detail}. None succeeded for two intervals` } : { ok: true, detail };
  },
});
