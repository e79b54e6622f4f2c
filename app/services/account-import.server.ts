import { Types } from "mongoose";
import type { ZodError } from "zod";
import { EXPORTABLE, type ExportableCollection, findImportKeys, insertImported, ownedIds, saveImportKeys } from "~/models/account-data.server";
import { linkSupplements } from "~/models/estimate.server";
import { putDecisionsOnEstimates } from "~/models/account-decisions.server";
import { IMPORT_SCHEMAS, type ImportableName } from "~/schemas/account-import";
import { fieldOf, isRecord, stringField } from "~/utils/unknown-values";
import { referenceResolver, type IdPlan, type Pending } from "./account-import-references.server";
import { ARCHIVE_FORMAT, badArchive, BATCH, lines, loadUpload, MAX_RECORDS, MAX_REPORTED_LINES, tooLarge, walkArchive } from "./account-archive.server";
import type { Actor } from "./actor";
import { ESTIMATE_SETTINGS_ENTRY, importEstimateSettings, smallJson } from "./account-settings-archive.server";

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

/** A collection the archive may carry (each has its import schema). */
const isImportable = (name: string): name is ImportableName => Object.hasOwn(IMPORT_SCHEMAS, name);
function importSchema(name: string) {
  if (!isImportable(name)) throw new Error(`No import schema for ${name}`);
  return IMPORT_SCHEMAS[name];
}

/** A model's validation error as one line: each field's message, or the error's own. */
function validationMessage(error: unknown) {
  const errors = fieldOf(error, "errors");
  const each = isRecord(errors) ? Object.values(errors).map((e) => stringField(e, "message") ?? "") : [];
  return each.join("; ") || (stringField(error, "message") ?? "");
}

const hexId = (value: unknown): string | null => {
  const id = typeof value === "string" ? value : isRecord(value) && "$oid" in value ? String(value.$oid) : null;
  return id && /^[a-f0-9]{24}$/i.test(id) ? id.toLowerCase() : null;
};


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
 * The import itself is runImport (import-runs.server.ts), which records its progress and can be resumed.
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
export async function applyArchive(actor: Actor, token: string, { dryRun, begin }: { dryRun: boolean; begin?: (records: number) => Promise<ImportHold> }): Promise<ImportReport> {
  const file = await loadUpload(actor.id, token);

  // Pass 1: the manifest, each collection's ids; limits and duplicates refuse the whole archive.
  // The archive's own claim, checked below before anything is read from it.
  let manifest: unknown = null;
  let settings: unknown = undefined;
  const ids = new Map<string, string[]>(EXPORTABLE.map((c) => [c.name, []]));
  const seenEntries = new Set<string>();
  // Every id of the archive, across collections: one named twice refuses the archive.
  const seen = new Set<string>();
  let total = 0;
  await walkArchive(file, async ({ name, collection, stream }) => {
    if (seenEntries.has(name) && (name === "manifest.json" || collection)) throw badArchive(`The archive holds ${name} twice`);
    seenEntries.add(name);
    if (name === ESTIMATE_SETTINGS_ENTRY) {
      settings = await smallJson(stream, name);
      return;
    }
    if (name === "manifest.json") {
      let text = "";
      for await (const chunk of stream) {
        text += chunk.toString("utf8");
        if (text.length > 64 * 1024) throw badArchive("The archive's manifest is too large");
      }
      try {
        manifest = JSON.parse(text);
      } catch {
        throw badArchive("The archive's manifest is not valid JSON");
      }
      return;
    }
    if (!collection) return;
    const list = ids.get(collection.name)!;
    const { maxRecords } = importSchema(collection.name);
    let count = 0;
    for await (const [, line] of lines(stream)) {
      count += 1;
      total += 1;
      if (count > maxRecords) throw tooLarge(`The archive holds more than ${maxRecords.toLocaleString("en-US")} ${collection.name}`);
      if (total > MAX_RECORDS) throw tooLarge(`The archive holds more than ${MAX_RECORDS.toLocaleString("en-US")} records`);
      let id: string | null = null;
      try {
        id = hexId(fieldOf(JSON.parse(line), "_id"));
      } catch {
        // Reported in pass 2.
      }
      if (!id) continue;
      if (seen.has(id)) throw badArchive(`The archive holds the id ${id} twice (${collection.name}): nothing was imported`);
      seen.add(id);
      list.push(id);
    }
  });
  const found = manifest;
  if (!isRecord(found) || found.format !== ARCHIVE_FORMAT) throw badArchive("The file is not a DamageIQ export archive");

  const hold = dryRun || !begin ? null : await begin(total);
  const plans = new Map<string, IdPlan>();
  for (const entry of EXPORTABLE) {
    if (entry.roles.includes(actor.realRole)) plans.set(entry.name, await planIds(entry, actor.id, ids.get(entry.name)!, hold?.runId ?? null));
  }
  let gone = 0;
  const source = isRecord(found.account) ? found.account : null;
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
    const { schema } = importSchema(collection.name);
    let batch: Pending[] = [];
    const flush = async () => {
      const docs = await resolver.resolve(
        collection.name,
        batch,
        (line, message) => {
          counts.droppedReferences += 1;
          report.totalDropped += 1;
          if (report.dropped.length < MAX_REPORTED_LINES) report.dropped.push({ collection: collection.name, line, message });
        },
        (line, message) => {
          counts.invalid += 1;
          fail(collection.name, line, message);
        },
      );
      const stored: Record<string, unknown>[] = [];
      const keys: { sourceId: string; targetId: string }[] = [];
      for (const [i, doc] of docs.entries()) {
        if (!doc) continue;
        // The model's own rules last (a schema and the model could drift apart).
        // validate(), not the deprecated validateSync(): mongoose 9 warns in the server log on each call.
        const error = await new collection.model(doc).validate().then(
          () => null,
          (invalid: unknown) => invalid,
        );
        if (error) {
          counts.invalid += 1;
          fail(collection.name, batch[i].line, validationMessage(error));
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
      const sourceId = hexId(fieldOf(raw, "_id"));
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
      const doc: Record<string, unknown> = { ...parsed.data };
      // Timestamps for the collections that keep them (a decision or question has its own time).
      if (collection.model.schema.path("updatedAt")) {
        doc.createdAt ??= new Date();
        doc.updatedAt ??= doc.createdAt;
      }
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
  // The decisions put back on the versions they decided (the estimate's copy, beside its status):
  // the dashboard's revenue counts an approved estimate as it did in the account it came from.
  if (!dryRun) await putDecisionsOnEstimates({ ownerId: actor.id });
  if (settings) report.collections.push(await importEstimateSettings(actor, settings, dryRun, fail));
  return report;
}

const issuesText = (error: ZodError) =>
  error.issues
    .slice(0, 3)
    .map((issue) => (issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message))
    .join("; ");
