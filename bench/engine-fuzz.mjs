// The embedded engine's planner against its own scan, longer than the suite's run (docs/decisions/0005):
// FUZZ_COMPARISONS (default 100,000), FUZZ_SEED (default: a new one, printed, to replay with),
// FUZZ_TIME_LIMIT_S (default 900), FUZZ_PHASES (restarts + 1, default 8), FUZZ_MAX_MISMATCHES (stop
// after that many, default 3). Any mismatch fails the bench with its minimised repro.
import { runBundled, verdict } from "./lib.mjs";

const seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const env = {
  FUZZ_SEED: String(seed),
  FUZZ_COMPARISONS: process.env.FUZZ_COMPARISONS ?? "100000",
  FUZZ_TIME_LIMIT_S: process.env.FUZZ_TIME_LIMIT_S ?? "900",
  FUZZ_PHASES: process.env.FUZZ_PHASES ?? "8",
};
try {
  const result = await runBundled("bench/engine-fuzz-runner.ts", env, { timeoutMs: (Number(env.FUZZ_TIME_LIMIT_S) + 300) * 1000 });
  const rate = result.comparisons / result.seconds;
  console.log(
    `engine-fuzz: seed ${seed}: ${result.comparisons} comparisons (planner against scan) in ${result.seconds.toFixed(1)} s ` +
      `(${rate.toFixed(0)}/s), ${result.restarts} restarts; ${JSON.stringify(result.byKind)}`,
  );
  console.log(`engine-fuzz: ${result.mismatches.length} mismatches ${verdict(result.mismatches.length === 0)}`);
  for (const repro of result.mismatches) console.log(`\n${repro}`);
  if (result.mismatches.length) process.exitCode = 1;
} catch (error) {
  console.error(`engine-fuzz: ${error.stack ?? error.message}`);
  process.exitCode = 1;
}
