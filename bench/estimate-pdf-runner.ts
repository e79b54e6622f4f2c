// Run by bench/estimate-pdf.mjs (bundled with esbuild): the PDF of a 60-line estimate (logo, three
// photos, 3 pages), written by the app's writer from its gathered data, timed from the first byte
// of layout to the last byte of the file. Prints one JSON line with the figures.
import { renderEstimatePdf } from "../app/services/estimate-pdf-layout.server";
import { longEstimate } from "../app/services/estimate-pdf.fixture";

const RUNS = Number(process.env.PDF_RUNS ?? 40);
const WARMUP = 5;
const data = await longEstimate({ lines: 60 });
const times: number[] = [];
let bytes = 0;
for (let n = 0; n < WARMUP + RUNS; n++) {
  const started = performance.now();
  const pdf = await renderEstimatePdf(data);
  if (n >= WARMUP) times.push(performance.now() - started);
  bytes = pdf.length;
}
times.sort((a, b) => a - b);
const at = (p: number) => times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)];
console.log(JSON.stringify({ runs: RUNS, bytes, p50: at(50), p95: at(95), max: times[times.length - 1] }));
