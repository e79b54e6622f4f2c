// Run by bench/analysis.mjs (bundled with esbuild): 100 analyses queued at once, run through the job
// queue (concurrency 4) and the OpenAI-compatible provider against the local test server, which takes
// 2 s per answer. Prints one JSON line with the figures. Loopback only.
import sharp from "sharp";
import { startOpenAiTestServer } from "../tests/openai-server";
import { toAnalysisPhotos } from "../app/services/analysis/media.server";
import { createOpenAiProvider } from "../app/services/analysis/openai-provider.server";
import { JobQueue, enqueueJob, registerJobHandler, waitForJob } from "../app/services/jobs.server";
import { closeDb, db } from "../app/utils/db.server";

const JOBS = Number(process.env.JOBS ?? 100);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 4);
const PROVIDER_MS = Number(process.env.PROVIDER_MS ?? 2000);

await db().ready;
const server = await startOpenAiTestServer();
server.fixedDelayMs = PROVIDER_MS;
server.fallback = {
  json: { damages: [{ damageType: "dent", location: "front", severity: "moderate", description: "Dent", confidence: 0.8, photo: 1 }], summary: "A dent.", confidence: 0.8 },
};
const provider = createOpenAiProvider({ apiKey: "bench", baseURL: server.baseURL, model: "bench-vision" });
// Two photos per analysis, each downscaled in the handler as the real job does.
const photo = await sharp({ create: { width: 2000, height: 1500, channels: 3, background: { r: 120, g: 90, b: 60 } } }).jpeg().toBuffer();

const finished: number[] = [];
registerJobHandler("bench-analysis", async (job, { signal }) => {
  const photos = await toAnalysisPhotos(
    [0, 1].map((i) => ({ mediaUrl: `/media/${job.key}-${i}`, contentType: "image/jpeg", bytes: photo })),
    { signal },
  );
  const result = await provider.analyze(photos, { signal });
  finished.push(Date.now());
  return { damages: result.damages.length };
});

const queue = new JobQueue({ concurrency: CONCURRENCY });
const t0 = Date.now();
const jobs = await Promise.all(Array.from({ length: JOBS }, (_, i) => enqueueJob({ type: "bench-analysis", key: `a${i}`, maxAttempts: 1 })));
const enqueueMs = Date.now() - t0;
queue.start();
const outcomes = await Promise.all(jobs.map((job) => waitForJob(job._id.toHexString(), 10 * 60_000, { pollMs: 100 })));
const lastFinish = Math.max(...finished);
const wallMs = lastFinish - t0;
await queue.stop();
await server.close();
await closeDb();

console.log(
  JSON.stringify({
    jobs: JOBS,
    concurrency: CONCURRENCY,
    providerMs: PROVIDER_MS,
    enqueueMs,
    wallMs,
    idealMs: (JOBS / CONCURRENCY) * PROVIDER_MS,
    done: outcomes.filter((j) => j?.state === "done").length,
    requests: server.requests.length,
    maxInFlight: server.maxInFlight,
  }),
);
