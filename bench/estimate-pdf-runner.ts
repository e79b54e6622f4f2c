// Run by bench/estimate-pdf.mjs (bundled with esbuild): the PDF of a hail estimate (PDF_LINES lines,
// default 100, each with its repair note, and PDF_DAMAGES damages, default 60 dents on one photo; logo,
// three photos, the shop's full terms: 8 pages),
// written by the app's writer from its gathered data, timed from the first byte of layout to the last
// byte of the file. Prints one JSON line with the figures.
import { renderEstimatePdf } from "../app/services/estimate-pdf-layout.server";
import { longEstimate } from "../app/services/estimate-pdf.fixture";

const RUNS = Number(process.env.PDF_RUNS ?? 40);
const WARMUP = 5;
const data = await longEstimate({ lines: Number(process.env.PDF_LINES ?? 100), damages: Number(process.env.PDF_DAMAGES ?? 60), hail: true });
const times: number[] = [];
let pdf: Buffer = Buffer.alloc(0);
for (let n = 0; n < WARMUP + RUNS; n++) {
  const started = performance.now();
  pdf = await renderEstimatePdf(data);
  if (n >= WARMUP) times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
const at = (p: number) => times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)];
// The pictures' own bytes (logo and photos, embedded as they are), so that the rest is the document's.
const pictureBytes = data.photos.reduce((sum, p) => sum + p.bytes.length, data.account.logo?.length ?? 0);
const pages = pdf.toString("latin1").match(/\/Type \/Page\b/g)?.length ?? 0;
console.log(
  JSON.stringify({ runs: RUNS, lines: data.sheet.lines.length, damages: data.damages.length, pages, bytes: pdf.length, pictureBytes, p50: at(50), p95: at(95), max: times[times.length - 1] }),
);
