import {
  findAssessment,
  transitionAssessment,
  type AssessmentRecord,
} from "~/models/assessment.server";
import { readSheet, sheetTotals } from "~/utils/estimate-sheet";
import { estimateSettingsOf } from "./estimate-settings.server";
import { scopeFor, type OwnerScope } from "~/models/owner-scope.server";
import { SEVERITIES, type Severity } from "~/schemas/damage";
import { MAX_DAMAGES } from "~/schemas/estimate-limits";
import { NOT_ANALYSED_NOTE } from "~/schemas/assessment-wizard";
import { MAX_VIDEO_FRAMES, toAnalysisPhotos } from "./analysis/media.server";
import { analysisProvider } from "./analysis/provider.server";
import { ANALYSIS_JOB, type AnalysisPhoto, type AnalysisResult } from "./analysis/types";
import { assessmentNotFound, getAssessment } from "./assessments.server";
import { auditActor, type Actor } from "./actor";
import { notifyAssessmentCompleted } from "./outbox.server";
import { assessmentEventData, emitEvent, estimateOrderKey } from "./webhooks.server";
import { enqueueJob, getJob, PermanentJobError, registerJobHandler, waitForJob, type JobRecord } from "./jobs.server";
import { readMedia } from "./storage/uploads.server";
import { reusedPhotos } from "./reused-photos.server";
import { discardFrames, keepFrames, nameFrames } from "./video-frames.server";
import { quoteForVendor } from "./vendors.server";
import { env } from "~/utils/env.server";
import { NotFound } from "~/utils/domain-errors";
import { authorize } from "./permissions.server";

/**
 * An assessment's analysis, as a durable job (docs/decisions/0008): uploaded → processing when it
 * is asked for, analyzing while a worker runs the provider, completed with the result and its
 * price; after the last failed attempt back to uploaded with the reason kept. Every move is one
 * conditional write with its audit entry, so a worker that lost its job, a second request or a
 * person's Reject cannot make it finish twice.
 */

/** How long `POST /api/assessments/{id}/analyze` waits for the result before answering the assessment as it stands. */
export const ANALYZE_WAIT_MS = 5_000;
/** Pictures sent to the provider for one assessment (20 photos, or fewer photos and some video frames). */
export const MAX_PICTURES = 24;
const EVERY_OWNER: OwnerScope = { allOwners: true };

/**
 * Queues the analysis of an uploaded assessment (uploaded → processing). Asked again while it runs,
 * it finds the same job; an assessment already analysed is left as it is. Answers the job's id, or
 * null when nothing runs.
 */
export async function requestAnalysis(actor: Actor, id: string) {
  authorize(actor, "assessments.create");
  const scope = scopeFor(actor);
  const record =
    (await transitionAssessment({ scope, id, from: ["uploaded"], to: "processing", by: auditActor(actor), action: "analysis requested", unset: ["analysisError"] })) ??
    (await findAssessment({ scope, id }));
  if (!record) throw assessmentNotFound();
  if (record.status !== "processing" && record.status !== "analyzing") return null;
  // Also queues it when the request that moved it to processing died before queueing: an active job is found as it is.
  const job = await enqueueJob({
    type: ANALYSIS_JOB,
    key: id,
    payload: { assessmentId: id },
    ownerId: String(record.ownerId),
    maxAttempts: env.ANALYSIS_ATTEMPTS,
  });
  return job._id.toHexString();
}

/**
 * `POST /api/assessments/{id}/analyze`: queues the analysis, waits at most `waitMs` (a few seconds:
 * the analysis runs on whichever instance claims it, and a caller must not depend on this one
 * staying up meanwhile), answers the assessment as it then stands and whether it is still under way.
 */
export async function analyzeAssessment(actor: Actor, id: string, waitMs = ANALYZE_WAIT_MS) {
  authorize(actor, "assessments.create");
  const jobId = await requestAnalysis(actor, id);
  const job = jobId ? (waitMs > 0 ? await waitForJob(jobId, waitMs) : await getJob(jobId)) : null;
  const underWay = job !== null && (job.state === "queued" || job.state === "running");
  return { assessment: await getAssessment(actor, id), underWay };
}

/**
 * The assessment's media as the provider looks at them, read one file at a time (a video may be
 * 100 MB). At most MAX_PICTURES go to the provider: a video gets fewer frames when the files after it
 * would otherwise not fit, and every file keeps at least one picture.
 */
async function photosOf(record: AssessmentRecord, signal: AbortSignal) {
  const photos: AnalysisPhoto[] = [];
  const names = new Map<string, string>();
  for (const [i, mediaUrl] of record.mediaUrls.entries()) {
    const media = await readMedia(mediaUrl, { ownerId: String(record.ownerId) });
    if (!media) throw new PermanentJobError(`The file ${mediaUrl} is no longer stored`);
    names.set(mediaUrl, media.name);
    const filesAfter = record.mediaUrls.length - i - 1;
    const framesPerVideo = Math.max(1, Math.min(MAX_VIDEO_FRAMES, MAX_PICTURES - photos.length - filesAfter));
    photos.push(...(await toAnalysisPhotos([{ mediaUrl, contentType: media.contentType, bytes: media.bytes }], { signal, framesPerVideo })));
  }
  return { photos: nameFrames(photos), names };
}

const worst = (severities: Severity[]) =>
  severities.reduce<Severity | undefined>((w, s) => (w === undefined || SEVERITIES.indexOf(s) > SEVERITIES.indexOf(w) ? s : w), undefined);

/** The chosen vendor's price for what was found; TBD (with the reason) rather than an invented figure. */
async function priceOf(record: AssessmentRecord, result: AnalysisResult) {
  if (result.provider === "none") return { costNote: NOT_ANALYSED_NOTE, lineItems: [] };
  if (result.damages.length === 0) return { costNote: "No damage identified: needs manual review", lineItems: [] };
  if (!record.vendorId) return { costNote: "No vendor chosen", lineItems: [] };
  let quoted: Awaited<ReturnType<typeof quoteForVendor>>;
  try {
    quoted = await quoteForVendor(String(record.vendorId), {
      damages: result.damages.map(({ damageType, severity, location }) => ({ damageType, severity, location })),
      vehicleMake: record.vehicleMake,
      date: new Date(),
    });
  } catch (error) {
    if (error instanceof NotFound) return { costNote: "The chosen vendor no longer exists", lineItems: [] };
    throw error;
  }
  // Plain copies: the assessment keeps its lines as open records (Mixed).
  const lineItems: Record<string, unknown>[] = quoted.lines.map((line) => ({ ...line }));
  if (!quoted.complete) {
    const reasons = quoted.lines.flatMap((line) => (line.priced ? [] : [line.reason]));
    return { costNote: [...new Set(reasons)].join("; "), lineItems };
  }
  // The account's tax rates now: kept with the estimate (a later change of the rates moves no sent figure).
  const { taxRates } = await estimateSettingsOf(String(record.ownerId));
  if (taxRates.parts === 0 && taxRates.labour === 0 && taxRates.materials === 0) {
    return { estimatedCost: quoted.total, aiEstimatedCost: quoted.total, lineItems };
  }
  const estimateSheet = { ...readSheet({ lineItems, damages: result.damages }), taxRates };
  const total = sheetTotals(estimateSheet).totalCents / 100;
  return { estimatedCost: total, aiEstimatedCost: total, lineItems, estimateSheet };
}

/**
 * What the estimate keeps of the provider's answer: its first MAX_DAMAGES damages (the most an
 * estimate holds, so the product can always edit, print and re-import what it stored), and when it
 * found more, the audit note that says so.
 */
function keptDamages(result: AnalysisResult) {
  const found = result.damages.length;
  if (found <= MAX_DAMAGES) return { result, note: undefined };
  const note = `The analysis found ${found} damages; the estimate keeps the first ${MAX_DAMAGES} (the most one estimate holds)`;
  return { result: { ...result, damages: result.damages.slice(0, MAX_DAMAGES) }, note };
}

/** The job: processing → analyzing → provider → price → completed. A failed attempt is retried by the queue. */
async function runAnalysis(job: JobRecord, { signal }: { signal: AbortSignal }) {
  const id = String(job.payload.assessmentId ?? "");
  const record =
    (await transitionAssessment({ scope: EVERY_OWNER, id, from: ["processing"], to: "analyzing", by: null, action: "analysis started" })) ??
    (await findAssessment({ scope: EVERY_OWNER, id }));
  if (!record) throw new PermanentJobError("The assessment was deleted");
  // Someone moved it on meanwhile, or an earlier run already finished it: nothing to do.
  if (record.status !== "analyzing") return { skipped: record.status };

  const { photos, names } = await photosOf(record, signal);
  const { result, note } = keptDamages(await (await analysisProvider()).analyze(photos, { signal }));
  const [price, reuse] = await Promise.all([priceOf(record, result), reusedPhotos(record, photos, names)]);
  signal.throwIfAborted();
  const owner = { ownerId: String(record.ownerId), assessmentId: id };
  const videoFrames = await keepFrames(owner, photos);
  const severity = worst(result.damages.map((d) => d.severity));
  const unset = ["analysisError", "estimatedCost", "aiEstimatedCost", "costNote", "severity", "estimateSheet"].filter(
    (field) => !(field in price) && !(field === "severity" && severity),
  );
  // A failed write keeps none of this run's frames (the queue runs it again).
  const completed = await transitionAssessment({
    scope: EVERY_OWNER,
    id,
    from: ["analyzing"],
    to: "completed",
    by: null,
    action: "analysis completed",
    ...(note ? { note } : {}),
    set: {
      ...price,
      ...(severity ? { severity } : {}),
      damages: result.damages,
      damageCategories: [...new Set(result.damages.map((d) => d.damageType))],
      aiAnalysis: { confidence: result.confidence, description: result.summary, provider: result.provider, model: result.model },
      videoFrames,
      ...reuse,
    },
    unset,
  }).catch(async (error: unknown) => {
    await discardFrames(owner, videoFrames).catch(() => {});
    throw error;
  });
  // The frames no longer shown: this run's when someone moved the assessment on meanwhile, else an earlier analysis's.
  await discardFrames(owner, completed ? (record.videoFrames ?? []) : videoFrames);
  // Notifications → "assessment completed" (queued in the outbox; the account may have turned it off).
  if (completed) {
    await emitEvent({ ownerId: completed.ownerId, type: "assessment.completed", data: assessmentEventData(completed), orderKey: estimateOrderKey(completed) });
    await notifyAssessmentCompleted(completed);
  }
  return { damages: result.damages.length };
}

/** After the last attempt: back to uploaded with the reason, so the wizard offers to try again. */
async function analysisFailed(job: JobRecord, error: string) {
  const failed = await transitionAssessment({
    scope: EVERY_OWNER,
    id: String(job.payload.assessmentId ?? ""),
    from: ["processing", "analyzing"],
    to: "uploaded",
    by: null,
    action: "analysis failed",
    note: error,
    set: { analysisError: error },
  });
  if (failed) await emitEvent({ ownerId: failed.ownerId, type: "assessment.failed", data: assessmentEventData(failed), orderKey: estimateOrderKey(failed) });
}

/** Declares the analysis job to this process's queue (called at start-up, before the queue starts). */
export function registerAnalysisJobs() {
  registerJobHandler(ANALYSIS_JOB, runAnalysis, { onFailed: analysisFailed });
}
