import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeMismatch, fuzz } from "../../tests/engine-fuzzer";
import { startEmbeddedDb, type EmbeddedDb } from "./embedded-db.server";

const { MongoClient } = mongoose.mongo;

// The planner against the engine's own scan, on documents shaped like the app's and adversarial ones,
// with the models' indexes in random orders and restarts between phases (tests/engine-fuzzer.ts).
// FUZZ_SEED and FUZZ_COMPARISONS replay or widen a run; `npm run bench engine-fuzz` runs a longer one.
const SEED = Number(process.env.FUZZ_SEED ?? 24);
const COMPARISONS = Number(process.env.FUZZ_COMPARISONS ?? 10_000);

describe("embedded database planner, differential fuzzing", () => {
  let dataDir: string;
  let server: EmbeddedDb;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "engine-fuzz-"));
    server = await startEmbeddedDb({ dataDir, supervise: false });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`answers every operation as a scan does (seed ${SEED})`, { timeout: 120_000 }, async () => {
    const result = await fuzz({
      seed: SEED,
      comparisons: COMPARISONS,
      // Bounded in time as well, for a busy machine; the figures say how far it got.
      timeLimitMs: 40_000,
      phases: 3,
      // Values as stored (an int is not a double), so a sum or a sort that changes a type shows.
      connect: () => new MongoClient(server.uri, { serverSelectionTimeoutMS: 5000, promoteValues: false }).connect(),
      restart: async () => {
        await server.stop();
        server = await startEmbeddedDb({ dataDir, port: server.port, supervise: false });
      },
    });
    console.log(
      `engine fuzz: ${result.comparisons} comparisons in ${result.seconds.toFixed(1)} s, ${result.restarts} restarts, ` +
        `${result.mismatches.length} mismatches ${JSON.stringify(result.byKind)}`,
    );
    expect(result.mismatches.map(describeMismatch)).toEqual([]);
    expect(result.restarts).toBe(2);
    // A floor that shows it compared something (961 in 40 s at a load of 12 on two cores).
    expect(result.comparisons).toBeGreaterThan(500);
  });
});
