import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The embedded engine's supervisor (docs/decisions/0029): an engine that keeps crashing is started
// again later and later instead of every second, and one that is not supervised says why it stopped
// instead of a timeout.

const dir = mkdtempSync(path.join(os.tmpdir(), "supervisor-"));
let embedded: typeof import("./embedded-db.server");

beforeAll(async () => {
  // A launcher that fails at once, as one with a broken data directory would.
  const source = path.join(dir, "src", "Crash.java");
  mkdirSync(path.dirname(source), { recursive: true });
  writeFileSync(source, `public class Crash { public static void main(String[] a) { System.err.println("cannot open"); System.exit(3); } }\n`);
  execFileSync("javac", ["-d", path.join(dir, "classes"), source]);
  const jar = path.join(dir, "crash.jar");
  execFileSync("jar", ["--create", "--file", jar, "--main-class", "Crash", "-C", path.join(dir, "classes"), "."]);
  process.env.EMBEDDED_DB_JAR = jar;
  vi.resetModules();
  embedded = await import("./embedded-db.server");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the embedded engine's supervisor", () => {
  it("restarts an engine that keeps crashing after 1, 2, 4 s…, and hands out its URI before it listens", async () => {
    const lines: string[] = [];
    const server = await embedded.startEmbeddedDb({ dataDir: path.join(dir, "data"), wait: false, log: (line) => lines.push(line) });
    try {
      expect(server.uri).toBe(`mongodb://127.0.0.1:${server.port}/`);
      const delays = () => lines.flatMap((line) => /restarting in (\d+) s/.exec(line)?.[1] ?? []).map(Number);
      await vi.waitFor(() => expect(delays().length).toBeGreaterThanOrEqual(3), { timeout: 30_000, interval: 100 });
      expect(delays().slice(0, 3)).toEqual([1, 2, 4]);
      expect(lines.join("")).toContain("cannot open");
      expect(server.progress()).toBeUndefined();
    } finally {
      await server.stop();
    }
  }, 40_000);

  it("without supervision, an engine that exits before it listens is reported as such at once", async () => {
    const started = Date.now();
    await expect(embedded.startEmbeddedDb({ dataDir: path.join(dir, "data"), supervise: false })).rejects.toThrow(
      /embedded database exited \(3\) before it listened/,
    );
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("supervised but waited for, an engine that cannot start at all is an error naming the launcher and its words, not an endless wait", async () => {
    // What a test run's global set-up does: before, a stale or broken jar left its promise pending
    // and the run ended with exit code 0 and no output.
    await expect(embedded.startEmbeddedDb({ dataDir: path.join(dir, "data") })).rejects.toThrow(
      /embedded database exited \(3\) before it listened on port \d+ \(launcher .*crash\.jar\): cannot open/,
    );
  }, 15_000);
});
