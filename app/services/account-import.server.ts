import { Types } from "mongoose";
import type { ZodError } from "zod";
import { Conflict, NotFound } from "~/utils/domain-errors";
import { EXPORTABLE, type ExportableCollection, findImportKeys, insertImported, ownedIds, saveImportKeys } from "~/models/account-data.server";
import { linkSupplements } from "~/models/estimate.server";
import { ownedCompleteUploadIds } from "~/models/upload.server";
import { findVendors } from "~/models/user.server";
import { IMPORT_SCHEMAS, type ImportableName } from "~/schemas/account-import";
import { mediaIdOf } from "~/schemas/media-url";
import { abandonImportRun, claimImportRun, createImportRun, finishImportRun, importRunOfToken, latestImportRun, releaseImportRun, renewImportRun, unfinishedImportRun, type ImportRunDoc } from "~/models/import-run.server";
import { dbNow, dbNowMs } from "~/utils/db-clock.server";
import { errorCode } from "~/utils/db-errors.server";
import { env } from "~/utils/env.server";
import { ARCHIVE_FORMAT, badArchive, BATCH, discardUpload, lines, loadUpload, MAX_RECORDS, MAX_REPORTED_LINES, tooLarge, walkArchive } from "./account-archive.server";
import { newWorkerId } from "./lease-queue.server";
import type { Manifest } from "./account-export.server";
import type { Actor } from "./actor";
import { printBands } from "./photo-prints.server";

/**
 * The account's data back in (docs/decisions/0012): import streams the archive line by line, twice
 * (ids, then documents), keeping only ids between the passes; every reference resolves inside the
 * importer's account or is dropped and reported.
 */

export interface ImportLine {
  collection: string;
  line: number;
  message: string;
}
export interface CollectionReport {
  name: string;
  /** Lines in the archive. */
  records: number;
  valid: number;
  invalid: number;
  /** In this account already (its own, or stored by an earlier import of the same records): skipped, never stored twice. */
  existing: number;
  /** Not for this kind of account (a vendor's pricing rules into a dealer account). */
  notForAccount: number;
  /** References (ids, media) of valid records that name nothing of this account: dropped from the record. */
  droppedReferences: number;
  /** Stored (the import itself; 0 in a dry run). */
  imported: number;
}
export interface ImportReport {
  /** What the archive's manifest says it is (its own claim: it decides nothing). */
  source: { accountId: string; username: string; exportedAt: string } | null;
  collections: CollectionReport[];
  /** Records refused (first MAX_REPORTED_LINES, with collection and line). */
  errors: ImportLine[];
  totalErrors: number;
  /** References dropped from stored records (first MAX_REPORTED_LINES). */
  dropped: ImportLine[];
  totalDropped: number;
  dryRun: boolean;
}

const hexId = (value: unknown): string | null => {
  const id = typeof value === "string" ? value : value && typeof value === "object" && "$oid" in value ? String((value as { $oid: unknown }).$oid) : null;
  return id && /^[a-f0-9]{24}$/i.test(id) ? id.toLowerCase() : null;
};

/** How an archive's ids become this account's: each record's target id, and which are here already. */
interface IdPlan {
  /** Source id → the id the record has (or gets) in the importer's account. */
  target: Map<string, string>;
  /** Source ids whose record is in the account already (its own id, or an earlier import's copy). */
  existing: Set<string>;
  /** Source ids this import stored already, before it was interrupted (decision 0059). */
  applied: Set<string>;
}

/**
 * Ids from an archive are never used as ids (decision 0012): a record gets a fresh id, unless the
 * importer has it already — the archive is its own export (same id, in the importer's own
 * documents) or an earlier import stored it (the import key names where). Only the importer's own
 * documents are looked at, so nothing says whether an id exists in another account. A resumed
 * import (`runId`) keeps the ids it planned before it was interrupted: its keys are written before
 * its records, so a record it stored is found, and one it did not gets the same id (decision 0059).
 */
async function planIds(entry: ExportableCollection, ownerId: string, sourceIds: string[], runId: string | null): Promise<IdPlan> {
  const plan: IdPlan = { target: new Map(), existing: new Set(), applied: new Set() };
  for (let i = 0; i < sourceIds.length; i += BATCH) {
    const slice = sourceIds.slice(i, i + BATCH);
    const [own, keys] = await Promise.all([ownedIds(entry, ownerId, slice), findImportKeys(ownerId, entry.name, slice)]);
    const copies = await ownedIds(entry, ownerId, [...keys.values()].map((k) => k.targetId));
    for (const id of slice) {
      const key = keys.get(id);
      const ours = runId !== null && key?.runId === runId;
      if (own.has(id)) {
        plan.target.set(id, id);
        plan.existing.add(id);
      } else if (key && copies.has(key.targetId)) {
        plan.target.set(id, key.targetId);
        (ours ? plan.applied : plan.existing).add(id);
      } else if (key && ours) {
        plan.target.set(id, key.targetId);
      } else {
        plan.target.set(id, new Types.ObjectId().toHexString());
      }
    }
  }
  return plan;
}

/** A parsed record waiting for its references to be resolved (a batch at a time). */
interface Pending {
  line: number;
  sourceId: string;
  doc: Record<string, unknown>;
}

const mediaIds = (urls: unknown[]) => urls.flatMap((u) => (typeof u === "string" && mediaIdOf(u) ? [mediaIdOf(u)!] : []));

/** The import's hold on its record while it applies the archive (decision 0059). */
export interface ImportHold {
  runId: string;
  /**
   * Before each batch is stored: throws (409) once the import was taken over; a lease that ran out
   * on the database's clock (the renewals slow, not failed) is renewed first, and only if still ours.
   */
  check: () => Promise<void>;
  /** Records gone through so far (written with the lease's renewals: the progress shown). */
  progress: (records: number) => void;
}

/**
 * Dry run (`dryRun`) of a saved archive: the report of what an import would store, nothing stored.
 * The import itself is runImport (below), which records its progress and can be resumed.
 */
export function importArchive(actor: Actor, token: string, { dryRun }: { dryRun: true }): Promise<ImportReport> {
  return applyArchive(actor, token, { dryRun });
}

/**
 * Dry run or import of a saved archive into the caller's account. The archive is read
 * twice, streaming: first its shape (limits, duplicate ids: refused before anything is stored),
 * then each record parsed with its collection's import schema (the API's create schema), its
 * references resolved inside the caller's account, and — unless a dry run — stored in batches.
 * An import takes its hold (`begin`, given the archive's record count) once the archive passed
 * its first reading: a refused archive leaves no import behind.
 */
async function applyArchive(actor: Actor, token: string, { dryRun, begin }: { dryRun: boolean; begin?: (records: number) => Promise<ImportHold> }): Promise<ImportReport> {
  const file = await loadUpload(actor.id, token);

  // Pass 1: the manifest, each collection's ids; limits and duplicates refuse the whole archive.
  let manifest: Manifest | null = null;
  const ids = new Map<string, string[]>(EXPORTABLE.map((c) => [c.name, []]));
  const seenEntries = new Set<string>();
  // Every id of the archive, across collections: one named twice refuses the archive.
  const seen = new Set<string>();
  let total = 0;
  await walkArchive(file, async ({ name, collection, stream }) => {
    if (seenEntries.has(name) && (name === "manifest.json" || collection)) throw badArchive(`The archive holds ${name} twice`);
    seenEntries.add(name);
    if (name === "manifest.json") {
      let text = "";
      for await (const chunk of stream) {
        text += chunk.toString("utf8");
        if (text.length > 64 * 1024) throw badArchive("The archive's manifest is too large");
      }
      try {
        manifest = JSON.parse(text) as Manifest;
      } catch {
        throw badArchive("The archive's manifest is not valid JSON");
      }
      return;
    }
    if (!collection) return;
    const list = ids.get(collection.name)!;
    const { maxRecords } = IMPORT_SCHEMAS[collection.name as ImportableName];
    let count = 0;
    for await (const [, line] of lines(stream)) {
      count += 1;
      total += 1;
      if (count > maxRecords) throw tooLarge(`The archive holds more than ${maxRecords.toLocaleString("en-US")} ${collection.name}`);
      if (total > MAX_RECORDS) throw tooLarge(`The archive holds more than ${MAX_RECORDS.toLocaleString("en-US")} records`);
      let id: string | null = null;
      try {
        id = hexId((JSON.parse(line) as { _id?: unknown } | null)?._id);
      } catch {
        // Reported in pass 2.
      }
      if (!id) continue;
      if (seen.has(id)) throw badArchive(`The archive holds the id ${id} twice (${collection.name}): nothing was imported`);
      seen.add(id);
      list.push(id);
    }
  });
  const found = manifest as Manifest | null;
  if (!found || typeof found !== "object" || found.format !== ARCHIVE_FORMAT) throw badArchive("The file is not a DamageIQ export archive");

  const hold = dryRun || !begin ? null : await begin(total);
  const plans = new Map<string, IdPlan>();
  for (const entry of EXPORTABLE) {
    if (entry.roles.includes(actor.realRole)) plans.set(entry.name, await planIds(entry, actor.id, ids.get(entry.name)!, hold?.runId ?? null));
  }
  let gone = 0;
  const source = typeof found.account === "object" && found.account !== null ? found.account : null;
  const report: ImportReport = {
    source: { accountId: String(source?.id ?? "").slice(0, 100), username: String(source?.username ?? "").slice(0, 100), exportedAt: String(found.exportedAt ?? "").slice(0, 40) },
    collections: EXPORTABLE.map((c) => ({ name: c.name, records: 0, valid: 0, invalid: 0, existing: 0, notForAccount: 0, droppedReferences: 0, imported: 0 })),
    errors: [],
    totalErrors: 0,
    dropped: [],
    totalDropped: 0,
    dryRun,
  };
  const fail = (collection: string, line: number, message: string) => {
    report.totalErrors += 1;
    if (report.errors.length < MAX_REPORTED_LINES) report.errors.push({ collection, line, message });
  };

  const resolver = referenceResolver(actor, plans);

  // Pass 2: each record parsed, re-keyed, its references resolved; stored a batch at a time.
  await walkArchive(file, async ({ collection, stream }) => {
    if (!collection) return;
    const counts = report.collections.find((c) => c.name === collection.name)!;
    const plan = plans.get(collection.name);
    const { schema } = IMPORT_SCHEMAS[collection.name as ImportableName];
    let batch: Pending[] = [];
    const flush = async () => {
      const docs = await resolver.resolve(collection.name, batch, (line, message) => {
        counts.droppedReferences += 1;
        report.totalDropped += 1;
        if (report.dropped.length < MAX_REPORTED_LINES) report.dropped.push({ collection: collection.name, line, message });
      });
      const stored: Record<string, unknown>[] = [];
      const keys: { sourceId: string; targetId: string }[] = [];
      for (const [i, doc] of docs.entries()) {
        // The model's own rules last (a schema and the model could drift apart).
        // validate(), not the deprecated validateSync(): mongoose 9 warns in the server log on each call.
        const error = await new collection.model(doc).validate().then(
          () => null,
          (invalid: unknown) => invalid as { errors?: Record<string, unknown>; message: string },
        );
        if (error) {
          counts.invalid += 1;
          fail(collection.name, batch[i].line, Object.values(error.errors ?? {}).map((e) => (e as Error).message).join("; ") || error.message);
          continue;
        }
        counts.valid += 1;
        stored.push(doc);
        keys.push({ sourceId: batch[i].sourceId, targetId: String(doc._id) });
      }
      if (!dryRun && stored.length > 0) {
        // Keys first, then the records: an import interrupted in between finds its ids again.
        await hold?.check();
        await saveImportKeys(actor.id, collection.name, keys, hold?.runId ?? "");
        counts.imported += await insertImported(collection, stored);
      }
      batch = [];
    };
    for await (const [lineNo, line] of lines(stream)) {
      counts.records += 1;
      gone += 1;
      hold?.progress(gone);
      if (!plan) {
        counts.notForAccount += 1;
        continue;
      }
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch {
        raw = null;
      }
      if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
        counts.invalid += 1;
        fail(collection.name, lineNo, "Not a JSON object");
        continue;
      }
      const sourceId = hexId((raw as { _id?: unknown })._id);
      if (!sourceId) {
        counts.invalid += 1;
        fail(collection.name, lineNo, "Missing or malformed _id");
        continue;
      }
      const parsed = schema.safeParse(raw);
      if (!parsed.success) {
        counts.invalid += 1;
        fail(collection.name, lineNo, issuesText(parsed.error));
        continue;
      }
      if (plan.existing.has(sourceId)) {
        counts.existing += 1;
        continue;
      }
      if (plan.applied.has(sourceId)) {
        // Stored by this import before it was interrupted: reported as imported, not stored again.
        counts.valid += 1;
        counts.imported += 1;
        continue;
      }
      const now = new Date();
      const doc: Record<string, unknown> = { createdAt: now, ...(parsed.data as Record<string, unknown>) };
      doc.updatedAt ??= doc.createdAt;
      doc._id = new Types.ObjectId(plan.target.get(sourceId));
      doc[collection.ownerField] = new Types.ObjectId(actor.id);
      batch.push({ line: lineNo, sourceId, doc });
      if (batch.length >= BATCH) await flush();
    }
    if (batch.length) await flush();
  });
  // The archive's versions of an estimate arrive without `supersededBy` (ours, never the archive's):
  // the importer's supplements mark the versions they replaced, so lists count each estimate once.
  if (!dryRun) await linkSupplements({ ownerId: actor.id });
  return report;
}

/** An import as Settings → System and `GET /api/account/import` show it (decision 0059). */
export interface ImportView {
  id: string;
  /** `interrupted`: running, but its process is gone (its lease ran out): Resume finishes it. */
  status: "running" | "interrupted" | "done" | "abandoned";
  /** Records in the archive, and records the current (or last) attempt went through. */
  records: number;
  applied: number;
  attempts: number;
  startedAt: string;
  finishedAt: string | null;
  /** The finished import's report. */
  report: ImportReport | null;
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
  };
}

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

const issuesText = (error: ZodError) =>
  error.issues
    .slice(0, 3)
    .map((issue) => (issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message))
    .join("; ");

/**
 * Resolves a batch's references inside the importer's account: a reference to a record of the
 * archive takes that record's id here; one to the importer's own document stays; anything else
 * (another account's, or nothing at all: the two read the same) is dropped with a report line.
 * Media must be the importer's own complete uploads; a vendor, an existing vendor account.
 */
function referenceResolver(actor: Actor, plans: Map<string, IdPlan>) {
  const owned = new Map<string, Map<string, boolean>>();
  /** Which of `ids` (not in the archive) the importer owns in `collection`, cached. */
  const ownedIn = async (collection: string, candidates: string[]) => {
    const cache = owned.get(collection) ?? owned.set(collection, new Map()).get(collection)!;
    const unknown = [...new Set(candidates.filter((id) => !cache.has(id)))];
    const entry = EXPORTABLE.find((c) => c.name === collection)!;
    const found = await ownedIds(entry, actor.id, unknown);
    for (const id of unknown) cache.set(id, found.has(id));
    return cache;
  };
  const vendors = new Map<string, boolean>();

  return {
    async resolve(collection: string, batch: Pending[], drop: (line: number, message: string) => void) {
      const docs = batch.map((p) => p.doc);
      const refTo = async (target: string, pick: (doc: Record<string, unknown>) => unknown[]) => {
        const plan = plans.get(target);
        const outside = docs.flatMap(pick).filter((id): id is string => typeof id === "string" && !plan?.target.has(id));
        const own = await ownedIn(target, outside);
        return (id: string) => plan?.target.get(id) ?? (own.get(id) ? id : null);
      };
      if (collection === "assessments") {
        const contact = await refTo("contacts", (d) => [d.contactId]);
        const assessment = await refTo("assessments", (d) => [d.supplementOf, ...((d.photoWarnings as { otherAssessmentId: string }[]) ?? []).map((w) => w.otherAssessmentId)]);
        const vendorIds = [...new Set(docs.flatMap((d) => (typeof d.vendorId === "string" && !vendors.has(d.vendorId) ? [d.vendorId] : [])))];
        const foundVendors = new Set((await findVendors({ ids: vendorIds.map((id) => new Types.ObjectId(id)) })).map((v) => String(v._id)));
        for (const id of vendorIds) vendors.set(id, foundVendors.has(id));
        const frameUrls = (d: Record<string, unknown>) => ((d.videoFrames as { mediaUrl: string }[]) ?? []).map((f) => f.mediaUrl);
        const media = await ownedCompleteUploadIds({
          ownerId: actor.id,
          ids: [...new Set(docs.flatMap((d) => mediaIds([...(d.mediaUrls as unknown[]), ...frameUrls(d)])))],
        });
        batch.forEach(({ line, doc }) => resolveAssessment(doc, line, { contact, assessment, vendor: (id) => vendors.get(id) === true, media, actorId: actor.id, drop }));
      } else if (collection === "learningRecords") {
        const assessment = await refTo("assessments", (d) => [d.assessmentId]);
        for (const { line, doc } of batch) {
          const source = doc.assessmentId;
          if (typeof source !== "string") continue;
          const id = assessment(source);
          if (id) doc.assessmentId = new Types.ObjectId(id);
          else {
            delete doc.assessmentId;
            drop(line, `assessmentId ${source} is not one of this account's assessments: dropped`);
          }
        }
      }
      return docs;
    },
  };
}

function resolveAssessment(
  doc: Record<string, unknown>,
  line: number,
  ctx: {
    contact: (id: string) => string | null;
    assessment: (id: string) => string | null;
    vendor: (id: string) => boolean;
    media: Set<string>;
    actorId: string;
    drop: (line: number, message: string) => void;
  },
) {
  const single = (field: string, resolve: (id: string) => string | null, what: string) => {
    const id = doc[field];
    if (typeof id !== "string") return;
    const target = resolve(id);
    if (target) doc[field] = new Types.ObjectId(target);
    else {
      delete doc[field];
      ctx.drop(line, `${field} ${id} is not ${what}: dropped`);
    }
  };
  single("contactId", ctx.contact, "one of this account's contacts");
  single("supplementOf", ctx.assessment, "one of this account's assessments");
  single("vendorId", (id) => (ctx.vendor(id) ? id : null), "a vendor account");

  const urls = doc.mediaUrls as string[];
  const kept = urls.filter((url) => ctx.media.has(mediaIdOf(url)!));
  for (const url of urls) if (!kept.includes(url)) ctx.drop(line, `${url} is not one of this account's uploads: dropped`);
  doc.mediaUrls = [...new Set(kept)];
  // A video's frame stays when it is the importer's upload and its video stayed.
  const frames = (doc.videoFrames as { mediaUrl: string; videoUrl: string; at: number }[]).filter((f) => {
    const own = ctx.media.has(mediaIdOf(f.mediaUrl)!) && kept.includes(f.videoUrl);
    if (!own) ctx.drop(line, `video frame ${f.mediaUrl} is not one of this account's uploads: dropped`);
    return own;
  });
  doc.videoFrames = frames;
  const shown = (url: unknown) => typeof url === "string" && (kept.includes(url) || frames.some((f) => f.mediaUrl === url));
  doc.damages = (doc.damages as { mediaUrl?: string }[]).map(({ mediaUrl, ...damage }) => (shown(mediaUrl) ? { ...damage, mediaUrl } : damage));
  const hashes = (doc.photoHashes as { mediaUrl: string; hash: string; print?: string; aspect?: number }[]).filter((p) => shown(p.mediaUrl));
  doc.photoHashes = hashes;
  // Prints exported before colour-aware matching have none: the start-up migration makes them.
  doc.photoBands = printBands(hashes.flatMap(({ print, aspect }) => (print && aspect ? [{ print, aspect }] : [])));
  doc.photoWarnings = (doc.photoWarnings as { mediaUrl: string; otherAssessmentId: string; otherTitle: string }[]).flatMap((w) => {
    const other = ctx.assessment(w.otherAssessmentId);
    return shown(w.mediaUrl) && other ? [{ ...w, otherAssessmentId: new Types.ObjectId(other) }] : [];
  });
  // Nobody else's id stands in the audit list; an analysis in progress has no job here: uploaded.
  doc.audit = (doc.audit as { by: string | null }[]).map((entry) => ({ ...entry, by: entry.by === ctx.actorId ? new Types.ObjectId(entry.by) : null }));
  if (doc.status === "processing" || doc.status === "analyzing") doc.status = "uploaded";
}
