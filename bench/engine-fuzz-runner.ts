// bench/engine-fuzz.mjs's long run of the planner's differential fuzzer (tests/engine-fuzzer.ts) on an
// engine of its own; prints one line of JSON with the figures and every mismatch's repro.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import { startEmbeddedDb } from "../app/utils/embedded-db.server";
import { describeMismatch, fuzz } from "../tests/engine-fuzzer";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-engine-fuzz-"));
let server = await startEmbeddedDb({ dataDir, supervise: false });
try {
  const result = await fuzz({
    seed: Number(process.env.FUZZ_SEED),
    comparisons: Number(process.env.FUZZ_COMPARISONS),
    timeLimitMs: Number(process.env.FUZZ_TIME_LIMIT_S) * 1000,
    phases: Number(process.env.FUZZ_PHASES),
    maxMismatches: Number(process.env.FUZZ_MAX_MISMATCHES ?? 3),
    connect: () => new mongoose.mongo.MongoClient(server.uri, { serverSelectionTimeoutMS: 5000, promoteValues: false }).connect(),
    restart: async () => {
      await server.stop();
      server = await startEmbeddedDb({ dataDir, port: server.port, supervise: false });
    },
  });
  const { mismatches, ...figures } = result;
  console.log(JSON.stringify({ ...figures, mismatches: mismatches.map(describeMismatch) }));
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
