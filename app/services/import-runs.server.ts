import { removeImportedByRun } from "~/models/account-data.server";
import { abandonImportRun, claimImportRun, createImportRun, discardImportRun, finishImportRun, importRunOfToken, latestImportRun, releaseImportRun, renewImportRun, unfinishedImportRun, type ImportRunDoc } from "~/models/import-run.server";
import { dbNow, dbNowMs } from "~/utils/db-clock.server";
import { errorCode } from "~/utils/db-errors.server";
import { Conflict, NotFound } from "~/utils/domain-errors";
import { env } from "~/utils/env.server";
import { log } from "~/utils/log.server";
import { discardUpload } from "./account-archive.server";
import { applyArchive, type ImportHold, type ImportReport } from "./account-import.server";
import type { Actor } from "./actor";
import { newWorkerId } from "./lease-queue.server";
import { authorize } from "./permissions.server";

/**
 * Account imports that survive their process (docs/decisions/0059): each import is recorded in
 * `imports` with its progress and a lease on the database's clock; one whose process died reads as
 * interrupted, and Resume applies the archive again, skipping what it stored (its import keys are
 * written before its records). No multi-document transactions: the embedded engine has none.
 */

/** An import as Settings → System and `GET /api/account/import` show it (decision 0059). */
export interface ImportView {
  id: string;
  /** `interrupted`: running, but its process is gone (its lease ran out): Resume finishes it. */
  status: "running" | "interrupted" | "done" | "abandoned" | "discarded";
  /** Records in the archive, and records the current (or last) attempt went through. */
  records: number;
  applied: number;
  attempts: number;
  startedAt: string;
  finishedAt: string | null;
  /** The finished import's report. */
  report: ImportReport | null;
  /** A discarded import: who discarded it and the records removed per collection (its audit). */
  discarded: { by: string; removed: Record<string, number> } | null;
}

function viewOf(run: ImportRunDoc): ImportView {
  const interrupted = run.status === "running" && run.leaseUntil.getTime() <= dbNowMs();
  return {
    id: String(run._id),
    status: interrupted ? "interrupted" : run.status,
    records: run.records,
    applied: run.applied,
    attempts: run.attempts,
    startedAt: run.createdAt.toISOString(),
    finishedAt: run.finishedAt ? run.finishedAt.toISOString() : null,
    report: isReport(run.report) ? run.report : null,
    discarded: run.status === "discarded" && run.discardedBy ? { by: String(run.discardedBy), removed: countsOf(run.removed) } : null,
  };
}

const countsOf = (value: unknown): Record<string, number> =>
  typeof value === "object" && value !== null ? Object.fromEntries(Object.entries(value).filter((e): e is [string, number] => typeof e[1] === "number")) : {};

const isReport = (value: unknown): value is ImportReport => typeof value === "object" && value !== null && "collections" in value;

/** The caller's newest import (`GET /api/account/import`); 404 when it never imported. */
export async function latestImport(actor: Actor): Promise<ImportView> {
  const run = await latestImportRun({ ownerId: actor.id });
  if (!run) throw new NotFound("No import found");
  return viewOf(run);
}

/** The caller's import still running or interrupted (Settings → System's notice), if any. */
export async function unfinishedImport(actor: Actor): Promise<ImportView | null> {
  const run = await unfinishedImportRun({ ownerId: actor.id });
  return run ? viewOf(run) : null;
}

/**
 * The lease of a running import, renewed every third of it on the database's clock with the
 * progress (like the lease queue's heartbeat, docs/decisions/0049); lost once a renewal finds the
 * import taken over, or once it ran out before a renewal got through.
 */
type Held = ImportHold & { stop: () => void; applied: () => number };

function holdImport(runId: string, holder: string, until: number): Held {
  const leaseMs = env.IMPORT_LEASE_MS;
  let leaseEnd = until;
  let gone = false;
  let records = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const beat = async () => {
    const next = dbNowMs() + leaseMs;
    const kept = await renewImportRun({ id: runId, holder, leaseUntil: new Date(next), applied: records }).catch(() => null);
    if (kept === false) gone = true;
    else if (kept) leaseEnd = next;
    if (!stopped && !gone) timer = setTimeout(() => void beat(), Math.max(100, Math.floor(leaseMs / 3)));
  };
  timer = setTimeout(() => void beat(), Math.max(100, Math.floor(leaseMs / 3)));
  return {
    runId,
    check: async () => {
      if (!gone && dbNowMs() >= leaseEnd) {
        const next = dbNowMs() + leaseMs;
        if (await renewImportRun({ id: runId, holder, leaseUntil: new Date(next), applied: records })) leaseEnd = next;
        else gone = true;
      }
      if (gone) throw new Conflict(TAKEN_OVER);
    },
    progress: (n) => (records = n),
    applied: () => records,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/**
 * Applies an archive under a hold: done (the report kept, the archive discarded) once, by the
 * holder; on a failure the hold is given back, so the import reads as interrupted at once and
 * Resume can finish it (a killed process's lease just runs out).
 */
async function applyHeld(actor: Actor, token: string, takeHold: (records: number) => Promise<Held>, holder: string) {
  const state: { hold: Held | null } = { hold: null };
  try {
    const report = await applyArchive(actor, token, {
      dryRun: false,
      begin: async (records) => (state.hold = await takeHold(records)),
    });
    const held = state.hold;
    if (held && !(await finishImportRun({ id: held.runId, holder, report, applied: held.applied(), finishedAt: dbNow() }))) {
      throw new Conflict(TAKEN_OVER);
    }
    await discardUpload(actor.id, token);
    return report;
  } catch (error) {
    const held = state.hold;
    if (held) await releaseImportRun({ id: held.runId, holder, applied: held.applied() }).catch(() => undefined);
    throw error;
  } finally {
    state.hold?.stop();
  }
}

/**
 * Imports a saved (dry-run) archive into the caller's account, recorded in `imports` (decision
 * 0059): one import at a time per account (409 while another is running or interrupted); a
 * refused archive stores nothing and is discarded; one interrupted half-way stays, with its
 * archive, for Resume.
 */
export async function runImport(actor: Actor, token: string): Promise<ImportReport> {
  authorize(actor, "integrations.manage");
  if (await unfinishedImportRun({ ownerId: actor.id })) throw new Conflict(UNFINISHED);
  const holder = newWorkerId();
  try {
    return await applyHeld(
      actor,
      token,
      async (records) => {
        const until = dbNowMs() + env.IMPORT_LEASE_MS;
        const runId = await createImportRun({ ownerId: actor.id, token, holder, leaseUntil: new Date(until), records }).catch((error: unknown) => {
          if (errorCode(error) === 11000) throw new Conflict("This archive is being imported already");
          throw error;
        });
        return holdImport(runId, holder, until);
      },
      holder,
    );
  } catch (error) {
    // Nothing was stored without an import record: the archive goes (unless an import holds it).
    if (!(await importRunOfToken({ ownerId: actor.id, token }).catch(() => true))) await discardUpload(actor.id, token).catch(() => undefined);
    throw error;
  }
}

const TAKEN_OVER = "The import was taken over by another attempt: see Settings → System";
const UNFINISHED = "An earlier import has not finished: resume it in Settings → System first";

/**
 * Resumes the caller's interrupted import (Settings → System's Resume, `POST
 * /api/account/import/resume`): claimed atomically once its lease ran out, so two resumes never
 * both run; the archive is applied again and what the import stored before is recognised by its
 * keys, never stored twice. 404 without an interrupted import (another account's is never seen),
 * 409 while it runs or once it finished.
 */
export async function resumeImport(actor: Actor): Promise<{ import: ImportView; report: ImportReport }> {
  authorize(actor, "integrations.manage");
  const run = await unfinishedImportRun({ ownerId: actor.id });
  if (!run) {
    const latest = await latestImportRun({ ownerId: actor.id });
    if (latest?.status === "done") throw new Conflict("The import has finished already: there is nothing to resume");
    throw new NotFound("No interrupted import");
  }
  const holder = newWorkerId();
  const until = dbNowMs() + env.IMPORT_LEASE_MS;
  const runId = String(run._id);
  const claimed = await claimImportRun({ ownerId: actor.id, id: runId, holder, leaseUntil: new Date(until), now: dbNow() });
  if (!claimed) throw new Conflict("The import is running: wait for it to finish");
  const hold = holdImport(runId, holder, until);
  let report: ImportReport;
  try {
    report = await applyHeld(actor, claimed.token, async () => hold, holder);
  } catch (error) {
    if (error instanceof NotFound) {
      // The archive is gone (deleted from storage): the import can never finish.
      await abandonImportRun({ ownerId: actor.id, id: runId, finishedAt: dbNow() });
      throw new NotFound("The interrupted import's archive is gone: import the archive again");
    }
    throw error;
  } finally {
    hold.stop();
  }
  const done = await latestImportRun({ ownerId: actor.id });
  return { import: done ? viewOf(done) : viewOf(claimed), report };
}

/**
 * Discards the caller's interrupted import (Settings → System's Discard, `POST
 * /api/account/import/discard`): claimed as Resume claims it (so neither can run beside the other),
 * the records it stored and their import keys removed, its archive deleted, and the run kept as
 * `discarded` with who discarded it and what was removed (the audit; logged too). 404 without an
 * interrupted import (another account's is never seen), 409 while it runs or once it finished.
 */
export async function discardImport(actor: Actor): Promise<ImportView> {
  authorize(actor, "integrations.manage");
  const run = await unfinishedImportRun({ ownerId: actor.id });
  if (!run) {
    const latest = await latestImportRun({ ownerId: actor.id });
    if (latest?.status === "done") throw new Conflict("The import has finished already: there is nothing to discard");
    throw new NotFound("No interrupted import");
  }
  const holder = newWorkerId();
  const runId = String(run._id);
  const claimed = await claimImportRun({ ownerId: actor.id, id: runId, holder, leaseUntil: new Date(dbNowMs() + env.IMPORT_LEASE_MS), now: dbNow() });
  if (!claimed) throw new Conflict("The import is running: wait for it to finish");
  const removed = await removeImportedByRun({ ownerId: actor.id, runId });
  if (!(await discardImportRun({ id: runId, holder, by: actor.id, removed, finishedAt: dbNow() }))) throw new Conflict(TAKEN_OVER);
  await discardUpload(actor.id, claimed.token).catch(() => undefined);
  log.info({ event: "import.discarded", ownerId: actor.id, by: actor.id, importId: runId, removed }, "interrupted import discarded");
  const done = await latestImportRun({ ownerId: actor.id });
  return viewOf(done ?? claimed);
}
