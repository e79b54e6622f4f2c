import { mkdtempSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv, resolveSessionSecret } from "./env.server";

describe("parseEnv", () => {
  it("applies the documented defaults", () => {
    const result = parseEnv({});
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.env.PORT).toBe(3000);
    expect(result.env.DATA_DIR).toBe("./data");
    expect(result.env.MONGODB_URI).toBeUndefined();
    expect(result.env.STORAGE).toBe("local");
    expect(result.env.SMTP_PORT).toBe(587);
    expect(result.env.SMTP_SECURE).toBe(false);
    expect(result.env.EMBEDDED_DB_HEAP).toBe("512m");
    expect(result.env.ANALYSIS_CONCURRENCY).toBe(2);
  });

  it("refuses an analysis concurrency that is not a positive whole number", () => {
    for (const bad of ["0", "two", "1.5"]) {
      const result = parseEnv({ ANALYSIS_CONCURRENCY: bad });
      expect(result.ok ? result.env : result.message).toMatch(/ANALYSIS_CONCURRENCY/);
    }
    const result = parseEnv({ ANALYSIS_CONCURRENCY: "4" });
    expect(result.ok && result.env.ANALYSIS_CONCURRENCY).toBe(4);
  });

  it("reads EMAIL_RETRY_DELAYS as durations (1m,5m,30m by default) and refuses anything else", () => {
    const read = (value?: string) => {
      const result = parseEnv(value === undefined ? {} : { EMAIL_RETRY_DELAYS: value });
      return result.ok ? result.env.EMAIL_RETRY_DELAYS : result.message;
    };
    expect(read()).toEqual([60_000, 300_000, 1_800_000]);
    expect(read("250, 2s,1h")).toEqual([250, 2_000, 3_600_000]);
    for (const bad of ["", "soon", "1d", "5m,,1m", "25h"]) expect(read(bad)).toMatch(/EMAIL_RETRY_DELAYS/);
  });

  it("reads TRUST_PROXY as a hop count, a boolean or addresses, and refuses anything else", () => {
    const read = (value: string) => {
      const result = parseEnv({ TRUST_PROXY: value });
      return result.ok ? result.env.TRUST_PROXY : result.message;
    };
    expect(read("1")).toBe(1);
    expect(read("true")).toBe(true);
    expect(read("false")).toBe(false);
    expect(read("loopback, 10.0.0.0/8, ::1")).toEqual(["loopback", "10.0.0.0/8", "::1"]);
    expect(read("")).toBeUndefined();
    for (const bad of ["yes please", "10.0.0.0/33", "1.2.3.4/8/9", "evil.example"]) {
      expect(read(bad)).toMatch(/TRUST_PROXY: must be a hop count, true or false, or addresses and subnets/);
    }
  });

  it("reads OUTBOUND_ALLOW as range names, subnets, addresses and host names (none by default)", () => {
    const read = (value?: string) => {
      const result = parseEnv(value === undefined ? {} : { OUTBOUND_ALLOW: value });
      return result.ok ? result.env.OUTBOUND_ALLOW : result.message;
    };
    expect(read()).toMatchObject({ ranges: new Set(), subnets: [], hosts: new Set() });
    const allow = read("loopback, CGNAT, 10.0.0.0/8, mail.internal");
    expect(allow).toMatchObject({ ranges: new Set(["loopback", "carrierGradeNat"]), hosts: new Set(["mail.internal"]) });
    for (const bad of ["10.0.0.0/40", "*", "loopback;private"]) expect(read(bad)).toMatch(/OUTBOUND_ALLOW: ".+" is not loopback, private/);
  });

  it("refuses an embedded database heap that is not a size", () => {
    const result = parseEnv({ EMBEDDED_DB_HEAP: "lots" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toMatch(/EMBEDDED_DB_HEAP: must be a size like 512m or 1g/);
  });

  it("names every bad variable in its message", () => {
    const result = parseEnv({ PORT: "abc", MONGODB_URI: "postgres://x", STORAGE: "ftp" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toMatch(/PORT/);
    expect(result.message).toMatch(/MONGODB_URI: must start with mongodb:\/\//);
    expect(result.message).toMatch(/STORAGE/);
  });

  it("requires S3_BUCKET only when STORAGE=s3", () => {
    const missing = parseEnv({ STORAGE: "s3" });
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.message).toMatch(/S3_BUCKET: is required when STORAGE=s3/);
    expect(parseEnv({ STORAGE: "s3", S3_BUCKET: "media" }).ok).toBe(true);
  });

  it("rejects a short SESSION_SECRET and treats a blank one as unset", () => {
    const short = parseEnv({ SESSION_SECRET: "short" });
    expect(short.ok).toBe(false);
    if (!short.ok) expect(short.message).toMatch(/SESSION_SECRET: must be at least 32 characters/);
    const blank = parseEnv({ SESSION_SECRET: "  " });
    expect(blank.ok && blank.env.SESSION_SECRET).toBeUndefined();
  });

  it("parses booleans strictly", () => {
    const result = parseEnv({ SMTP_SECURE: "true", S3_FORCE_PATH_STYLE: "1" });
    expect(result.ok && result.env.SMTP_SECURE && result.env.S3_FORCE_PATH_STYLE).toBe(true);
    const bad = parseEnv({ SMTP_SECURE: "maybe" });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.message).toMatch(/SMTP_SECURE: must be true or false/);
  });
});

describe("resolveSessionSecret", () => {
  it("generates a secret once into DATA_DIR and reuses it", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "secret-"));
    const first = resolveSessionSecret(dir);
    expect(first).toHaveLength(64);
    expect(resolveSessionSecret(dir)).toBe(first);
    expect(readFileSync(path.join(dir, "session-secret"), "utf8")).toBe(first);
    expect(statSync(path.join(dir, "session-secret")).mode & 0o777).toBe(0o600);
  });

  it("prefers a configured secret", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "secret-"));
    expect(resolveSessionSecret(dir, "x".repeat(40))).toBe("x".repeat(40));
  });
});
