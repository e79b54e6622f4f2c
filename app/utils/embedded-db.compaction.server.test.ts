import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import { afterAll, describe, expect, it } from "vitest";
import { compactedBytes, lostWrites, writeMix } from "../../tests/engine-write-mix.mjs";
import { freePort, LAUNCHER_JAR, stopProcess } from "./embedded-db.server";

const { MongoClient } = mongoose.mongo;

// The engine's file stays proportional to its data (issue 41 item 3, issue 38 item 4;
// docs/decisions/0047). "The data it holds" is what a full offline compaction of the same file
// writes (H2's MVStoreTool, compressed as the engine writes): every live page once — documents,
// their index entries and the store's own maps — nothing dead, no holes. The file is read while the
// engine runs, 10 s after the last write is acknowledged (what the writes leave on a dealer's disk;
// the bench also reports it at the last write, while compaction is behind the writes).
// ENGINE_COMPACTION_WRITES changes the count: 100,000 take about 5 minutes on the shared 2-core
// machine (bench/embedded-db-compaction.mjs measures them), so the suite writes fewer.
const WRITES = Number(process.env.ENGINE_COMPACTION_WRITES ?? 30_000);
const SEED = Math.round(WRITES / 5);

const dir = mkdtempSync(path.join(os.tmpdir(), "engine-compaction-"));
const dbDir = path.join(dir, "db");
let child: ChildProcess | undefined;
let client: InstanceType<typeof MongoClient> | undefined;
afterAll(async () => {
  await client?.close().catch(() => {});
  if (child && child.exitCode === null && child.signalCode === null) await stopProcess(child);
  rmSync(dir, { recursive: true, force: true });
});

async function launch() {
  const port = await freePort();
  const proc = spawn("nice", ["-n19", "java", "-Xmx512m", "-XX:+UseSerialGC", "-jar", LAUNCHER_JAR, "--port", String(port), "--dir", dbDir, "--cache-mb", "64", "--watch-stdin"], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  proc.stderr!.resume();
  await new Promise<void>((resolve, reject) => {
    proc.on("exit", (code) => reject(new Error(`the engine exited (${code}) before listening`)));
    let out = "";
    proc.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("embedded database listening on ")) resolve();
    });
  });
  child = proc;
  client = await new MongoClient(`mongodb://127.0.0.1:${port}/`, { serverSelectionTimeoutMS: 10_000 }).connect();
  return client.db("damage_assess").collection("assessments");
}

/** A clean stop: SIGTERM, the store closed, the process gone. */
async function stop() {
  await client!.close();
  const proc = child!;
  await new Promise<void>((resolve) => {
    proc.once("exit", () => resolve());
    proc.kill("SIGTERM");
  });
}

describe("embedded database: its file against its data", () => {
  it(`stays within twice the data through ${WRITES.toLocaleString("en")} inserts, growing and shrinking updates and deletes, and keeps every acknowledged write across a restart`, { timeout: 15 * 60_000 }, async () => {
    const collection = await launch();
    const { expected } = await writeMix(collection, { writes: WRITES, seed: SEED });
    const busyBytes = statSync(path.join(dbDir, "damageiq.mv.db")).size;
    // What the writes leave: the file 10 s after the last one (the engine compacts harder at rest).
    await new Promise((r) => setTimeout(r, 10_000));
    const fileBytes = statSync(path.join(dbDir, "damageiq.mv.db")).size;
    await stop();
    const dataBytes = await compactedBytes(LAUNCHER_JAR, dbDir);
    const MiB = 1024 * 1024;
    const figures = `file ${(fileBytes / MiB).toFixed(1)} MiB (${(busyBytes / MiB).toFixed(1)} MiB at the last write), data ${(dataBytes / MiB).toFixed(1)} MiB (${(fileBytes / dataBytes).toFixed(2)}×)`;
    console.log(`embedded-db compaction: ${figures}`);
    expect(fileBytes, figures).toBeLessThanOrEqual(2 * dataBytes);

    const after = await launch();
    const { lost, extra, live } = await lostWrites(after, expected);
    expect(lost).toEqual([]);
    expect(extra).toEqual([]);
    expect(live).toBe(expected.size);
  });
});
