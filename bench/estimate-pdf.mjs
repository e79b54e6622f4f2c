// The PDF a shop signs (issues 27 and 37): a 100-line estimate with 60 hail dents, a logo and photos
// (8 pages), rendered PDF_RUNS times (default 40) after a warm-up, in process. Targets: p95 ≤ 400 ms
// for the whole document, and at most 300 KB besides the pictures' own bytes (fonts embedded).
import { ms, runBundled, verdict } from "./lib.mjs";

try {
  const r = await runBundled("bench/estimate-pdf-runner.ts", {});
  const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
  const own = r.bytes - r.pictureBytes;
  const ok = r.p95 <= 400 && own <= 300 * 1024;
  console.log(
    `estimate-pdf: ${r.lines} lines, ${r.damages} damages, ${r.pages} pages, ${kb(r.bytes)} (${kb(r.pictureBytes)} of pictures, ${kb(own)} besides; target ≤ 300 KB), ` +
      `${r.runs} runs: p50 ${ms(r.p50)}, p95 ${ms(r.p95)}, max ${ms(r.max)} (target p95 ≤ 400 ms) ${verdict(ok)}`,
  );
  if (!ok) process.exitCode = 1;
} catch (error) {
  console.error(`estimate-pdf: ${error.stack ?? error.message}`);
  process.exitCode = 1;
}
