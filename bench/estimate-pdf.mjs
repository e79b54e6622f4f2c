// The PDF a shop signs (issue 27): a 60-line estimate with a logo and photos, rendered PDF_RUNS times
// (default 40) after a warm-up, in process. Target: p95 ≤ 300 ms for the whole document.
import { ms, runBundled, verdict } from "./lib.mjs";

try {
  const r = await runBundled("bench/estimate-pdf-runner.ts", {});
  console.log(`estimate-pdf: 60 lines, ${(r.bytes / 1024).toFixed(0)} KB, ${r.runs} runs: p50 ${ms(r.p50)}, p95 ${ms(r.p95)}, max ${ms(r.max)} (target p95 ≤ 300 ms) ${verdict(r.p95 <= 300)}`);
  if (r.p95 > 300) process.exitCode = 1;
} catch (error) {
  console.error(`estimate-pdf: ${error.stack ?? error.message}`);
  process.exitCode = 1;
}
