import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";
import { DEFAULT_HEAP } from "./embedded-db.server";
import { NO_OUTBOUND_EXCEPTIONS, parseOutboundAllow } from "./outbound.server";

const bool = z
  .enum(["true", "false", "1", "0", "yes", "no"], {
    errorMap: () => ({ message: "must be true or false" }),
  })
  .transform((v) => v === "true" || v === "1" || v === "yes");

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== "" ? v.trim() : undefined));

const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);
const isAddressOrSubnet = (part: string) => {
  const [address, bits, extra] = part.split("/");
  if (extra !== undefined || !isIP(address)) return PROXY_NAMES.has(part);
  return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (isIP(address) === 4 ? 32 : 128));
};

/**
 * Which proxies in front of the app to believe about the client's address (Express "trust proxy"):
 * a hop count ("1"), true/false, or addresses and subnets ("loopback, 10.0.0.0/8"). Express reads
 * the string "1" as an address and "true" as a crash, so the value is parsed here.
 */
const trustProxy = optionalString.pipe(
  z
    .string()
    .optional()
    .transform((value, ctx): boolean | number | string[] | undefined => {
      if (value === undefined) return undefined;
      if (value === "true" || value === "false") return value === "true";
      if (/^\d+$/.test(value)) return Number(value);
      const parts = value.split(",").map((p) => p.trim()).filter(Boolean);
      if (parts.length === 0 || !parts.every(isAddressOrSubnet)) {
        ctx.addIssue({ code: "custom", message: "must be a hop count, true or false, or addresses and subnets (e.g. loopback, 10.0.0.0/8)" });
        return z.NEVER;
      }
      return parts;
    }),
);

/**
 * Waits before the 2nd, 3rd, … delivery attempt of an email: durations like "1m,5m,30m" (ms, s, m or
 * h; a bare number is milliseconds, which tests use). One more attempt than delays; at least one delay.
 */
const retryDelays = z
  .string()
  .transform((value, ctx) => {
    const unit: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, "": 1 };
    const delays = value.split(",").map((part) => {
      const match = /^\s*(\d+)\s*(ms|s|m|h)?\s*$/.exec(part);
      return match ? Number(match[1]) * unit[match[2] ?? ""] : NaN;
    });
    if (delays.length === 0 || delays.length > 10 || delays.some((d) => !Number.isFinite(d) || d > 86_400_000)) {
      ctx.addIssue({ code: "custom", message: "must be 1 to 10 comma-separated durations up to 24h, like 1m,5m,30m" });
      return z.NEVER;
    }
    return delays;
  });

/**
 * Private or local destinations the app may connect to on an account's behalf (its mail server):
 * range names, addresses, subnets and host names, e.g. "loopback, 10.0.0.0/8, mail.internal".
 */
const outboundAllow = optionalString.transform((value, ctx) => {
  if (value === undefined) return NO_OUTBOUND_EXCEPTIONS;
  const parsed = parseOutboundAllow(value);
  if (!parsed.ok) {
    ctx.addIssue({
      code: "custom",
      message: `"${parsed.bad}" is not loopback, private, linklocal, uniquelocal, cgnat, an address, a subnet or a host name`,
    });
    return z.NEVER;
  }
  return parsed.allow;
});

const port = (fallback: number) => z.coerce.number().int().min(1).max(65535).default(fallback);

export const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
    PORT: port(3000),
    /** The least severe log line written (one JSON line each; human-readable in development). */
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    DATA_DIR: z.string().min(1).default("./data"),
    MONGODB_URI: optionalString.pipe(
      z
        .string()
        .regex(/^mongodb(\+srv)?:\/\//, "must start with mongodb:// or mongodb+srv://")
        .optional(),
    ),
    /** The embedded database's port on loopback; unset: the one kept in DATA_DIR/db/port (chosen free the first time). */
    EMBEDDED_DB_PORT: optionalString.pipe(z.coerce.number().int().min(1, "must be a port").max(65535, "must be a port").optional()),
    EMBEDDED_DB_HEAP: z
      .string()
      .regex(/^\d+[mMgG]$/, "must be a size like 512m or 1g")
      .default(DEFAULT_HEAP),
    /**
     * A ping the database does not answer within this long marks it stalled: requests are answered 503
     * then, within about this plus a quarter second, instead of waiting on it (docs/decisions/0045).
     */
    DB_STALL_MS: z.coerce.number().int().min(200, "must be at least 200").max(60_000, "must be at most 60000").default(1000),
    /** How long deleting an account waits for its records to go before answering 202 and finishing in the background. */
    ACCOUNT_PURGE_WAIT_MS: z.coerce.number().int().min(0, "must be at least 0").max(60_000, "must be at most 60000").default(15_000),
    /** `npm run backup` (docs/decisions/0066): the archive's passphrase, where archives go (a folder or s3://bucket/prefix), how many are kept. */
    BACKUP_PASSPHRASE: optionalString.pipe(z.string().min(12, "must be at least 12 characters").optional()),
    BACKUP_TARGET: z.string().min(1).default("./backups"),
    BACKUP_RETENTION: z.coerce.number().int().min(1, "must be at least 1").max(1000, "must be at most 1000").default(7),
    /** The app backs itself up every this many hours (0: only `npm run backup`). */
    BACKUP_INTERVAL_HOURS: z.coerce.number().min(0, "must be at least 0").max(24 * 31, "must be at most 744").default(0),
    /** Settings → System warns when DATA_DIR's disk has less than this share free (docs/decisions/0038). */
    DISK_WARN_PERCENT: z.coerce.number().int().min(1, "must be at least 1").max(90, "must be at most 90").default(10),
    SESSION_SECRET: optionalString.pipe(
      z.string().min(32, "must be at least 32 characters").optional(),
    ),
    TRUST_PROXY: trustProxy,
    PUBLIC_URL: optionalString.pipe(z.string().url("must be a URL like https://example.com").optional()),
    STORAGE: z.enum(["local", "s3"]).default("local"),
    S3_BUCKET: optionalString,
    S3_REGION: z.string().default("us-east-1"),
    S3_ENDPOINT: optionalString.pipe(z.string().url("must be a URL").optional()),
    S3_FORCE_PATH_STYLE: bool.default("false"),
    OPENAI_API_KEY: optionalString,
    OPENAI_BASE_URL: optionalString.pipe(z.string().url("must be a URL").optional()),
    OPENAI_MODEL: z.string().default("gpt-4o-mini"),
    ANALYSIS_CONCURRENCY: z.coerce.number().int().min(1, "must be at least 1").max(64, "must be at most 64").default(2),
    ANALYSIS_ATTEMPTS: z.coerce.number().int().min(1, "must be at least 1").max(10, "must be at most 10").default(3),
    SMTP_HOST: optionalString,
    SMTP_PORT: port(587),
    SMTP_SECURE: bool.default("false"),
    SMTP_USER: optionalString,
    SMTP_PASS: optionalString,
    MAIL_FROM: optionalString,
    EMAIL_RETRY_DELAYS: retryDelays.default("1m,5m,30m"),
    /**
     * How long a delivery attempt may go without its worker renewing it (every third of it) before
     * recovery, on any instance, settles it: a dead instance's emails are taken over within this
     * plus 5 s (the recovery's round).
     */
    EMAIL_LEASE_MS: z.coerce.number().int().min(200, "must be at least 200").max(3_600_000, "must be at most 3600000").default(20_000),
    /**
     * An account import's lease (docs/decisions/0059), renewed every third of it while the import
     * runs: an import whose process died shows as interrupted, with Resume, once this has passed.
     */
    IMPORT_LEASE_MS: z.coerce.number().int().min(500, "must be at least 500").max(3_600_000, "must be at most 3600000").default(15_000),
    /**
     * The analysis job's lease, renewed every third of it: a dead instance's analyses are taken over
     * within this plus 0.75 s (a queue's poll). A live worker whose renewals fail for this long
     * aborts its job, so a shorter lease trades database hiccups for faster takeover.
     */
    JOB_LEASE_MS: z.coerce.number().int().min(500, "must be at least 500").max(3_600_000, "must be at most 3600000").default(6_000),
    /**
     * The public estimate pages (/e/{token}, docs/decisions/0019): requests allowed per client address
     * and per link in each window of ESTIMATE_LINK_RATE_WINDOW_S seconds (counted in the database, so
     * the limit holds across instances); a customer's answers (approve, decline, a question) per link.
     */
    ESTIMATE_LINK_RATE_IP: z.coerce.number().int().min(1, "must be at least 1").max(100_000, "must be at most 100000").default(300),
    ESTIMATE_LINK_RATE_TOKEN: z.coerce.number().int().min(1, "must be at least 1").max(100_000, "must be at most 100000").default(200),
    ESTIMATE_LINK_RATE_POSTS: z.coerce.number().int().min(1, "must be at least 1").max(10_000, "must be at most 10000").default(20),
    ESTIMATE_LINK_RATE_WINDOW_S: z.coerce.number().int().min(1, "must be at least 1").max(86_400, "must be at most 86400").default(600),
    OUTBOUND_ALLOW: outboundAllow,
    EMAIL_CONCURRENCY: z.coerce.number().int().min(1, "must be at least 1").max(64, "must be at most 64").default(4),
    /**
     * Waits before the 2nd, 3rd, … attempt of a webhook delivery (docs/decisions/0019): the default
     * retries for about a day, after which an endpoint that has not answered 2xx since is disabled.
     */
    WEBHOOK_RETRY_DELAYS: retryDelays.default("5s,1m,5m,30m,2h,5h,8h,8h"),
    /** How long a receiver has to answer one delivery (connection, request and its status line). */
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100, "must be at least 100").max(60_000, "must be at most 60000").default(10_000),
    /**
     * Deliveries in flight at once per instance (each is one HTTP request; at most 64 to one receiver).
     * Also the most one claim takes: a burst drains in batches this large (bench/webhooks).
     */
    WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1, "must be at least 1").max(256, "must be at most 256").default(128),
    /**
     * This instance's name in the database's list of running instances (server.mjs; default the
     * host name): STORAGE=local refuses to start while an instance of another name is running.
     */
    INSTANCE_NAME: optionalString,
    /**
     * How often each process reads the cache versions (docs/decisions/0016): a change made on another
     * instance (a revoked token, a deleted account) takes effect here within three of these.
     */
    CACHE_POLL_MS: z.coerce.number().int().min(20, "must be at least 20").max(300, "must be at most 300").default(250),
    // Set by server.mjs for its processes (not configuration): a cluster's primary only runs the
    // embedded database for its workers; one worker runs the housekeeping.
    DAMAGEIQ_ROLE: z.enum(["primary", "worker"]).optional(),
    DAMAGEIQ_HOUSEKEEPING: bool.default("true"),
  })
  .superRefine((env, ctx) => {
    if (env.STORAGE === "s3" && !env.S3_BUCKET) {
      ctx.addIssue({ code: "custom", path: ["S3_BUCKET"], message: "is required when STORAGE=s3" });
    }
  });

export type Env = z.infer<typeof envSchema> & { SESSION_SECRET: string };

/** Parses the environment; the error names every bad variable. */
export function parseEnv(source: Record<string, string | undefined>) {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    return { ok: false as const, message: `Invalid environment configuration:\n${lines.join("\n")}` };
  }
  return { ok: true as const, env: result.data };
}

/** SESSION_SECRET unset: generate it once into DATA_DIR so sessions survive restarts. */
export function resolveSessionSecret(dataDir: string, configured?: string) {
  if (configured) return configured;
  const file = path.join(dataDir, "session-secret");
  try {
    const existing = readFileSync(file, "utf8").trim();
    if (existing.length >= 32) return existing;
  } catch {
    // first start: fall through and create it
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

function load(): Env {
  const parsed = parseEnv(process.env);
  if (!parsed.ok) {
    console.error(parsed.message);
    process.exit(1);
  }
  const dataDir = path.resolve(parsed.env.DATA_DIR);
  return {
    ...parsed.env,
    DATA_DIR: dataDir,
    SESSION_SECRET: resolveSessionSecret(dataDir, parsed.env.SESSION_SECRET),
  };
}

declare global {
  // One per process, kept across dev reloads of this module.
  var __env: Env | undefined;
}
const globalForEnv: { __env?: Env } = globalThis;
export const env: Env = (globalForEnv.__env ??= load());
