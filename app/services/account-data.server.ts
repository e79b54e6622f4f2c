import { createHash, randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { PassThrough, Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import { Types } from "mongoose";
import tar from "tar-stream";
import { EXPORTABLE, existingIds, insertImported, ownerCursor, type ExportableCollection } from "~/models/account-data.server";
import { env } from "~/utils/env.server";
import { jsonError } from "~/utils/http.server";
import type { Actor } from "./auth.server";

/**
 * Settings → System: the account's data out as a tar.gz of ndjson files (one per collection of the
 * registry in models/account-data), and back in — into the same account or another one — after a
 * dry run. Nothing here holds a collection in memory: export walks cursors into temporary files
 * (a tar entry needs its size first), import streams the archive line by line, twice (ids, then
 * documents), keeping only ids between the passes.
 */

export const ARCHIVE_FORMAT = "damageiq-export";
/** The largest archive accepted (compressed), and what it may inflate to. */
export const MAX_ARCHIVE_BYTES = 50 * 1024 * 1024;
const MAX_INFLATED_BYTES = 1024 * 1024 * 1024;
const MAX_LINE_BYTES = 4 * 1024 * 1024;
const MAX_REPORTED_ERRORS = 50;
const BATCH = 500;

const workDir = () => path.resolve(env.DATA_DIR, "tmp", "account-data");

interface Manifest {
  format: string;
  version: number;
  exportedAt: string;
  account: { id: string; username: string; role: string };
  collections: Record<string, number>;
}

/** `GET /api/account/export`: the archive as a stream; the caller pipes it to the response. */
export function exportArchive(actor: Actor) {
  const out = new PassThrough();
  const pack = tar.pack();
  const gzip = createGzip();
  pipeline(pack, gzip, out).catch((error: unknown) => out.destroy(error as Error));
  void (async () => {
    const dir = workDir();
    await mkdir(dir, { recursive: true });
    const counts: Record<string, number> = {};
    for (const entry of EXPORTABLE) {
      const file = path.join(dir, `export-${randomBytes(8).toString("hex")}.ndjson`);
      try {
        let count = 0;
        const lines = Readable.from(
          (async function* () {
            for await (const doc of ownerCursor(entry, actor.id)) {
              count += 1;
              yield `${JSON.stringify(doc)}\n`;
            }
          })(),
        );
        await pipeline(lines, createWriteStream(file));
        counts[entry.name] = count;
        const { size } = await stat(file);
        await pipeline(createReadStream(file), pack.entry({ name: `${entry.name}.ndjson`, size, mtime: new Date() }));
      } finally {
        await rm(file, { force: true });
      }
    }
    const manifest: Manifest = {
      format: ARCHIVE_FORMAT,
      version: 1,
      exportedAt: new Date().toISOString(),
      account: { id: actor.id, username: actor.user.username, role: actor.realRole },
      collections: counts,
    };
    pack.entry({ name: "manifest.json" }, JSON.stringify(manifest, null, 2));
    pack.finalize();
  })().catch((error: unknown) => pack.destroy(error as Error));
  return { stream: out, filename: `damageiq-${actor.user.username}-${new Date().toISOString().slice(0, 10)}.tar.gz` };
}

export interface ImportError {
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
  /** Already in the database (imported before): skipped, never stored twice. */
  existing: number;
  /** Not for this kind of account (a vendor's pricing rules into a dealer account). */
  notForAccount: number;
  /** Stored (the import itself; 0 in a dry run). */
  imported: number;
}
export interface ImportReport {
  source: { accountId: string; username: string; exportedAt: string } | null;
  sameAccount: boolean;
  collections: CollectionReport[];
  errors: ImportError[];
  totalErrors: number;
  dryRun: boolean;
}

const badArchive = (message: string) => jsonError(400, message, { file: message });

/** Saves an uploaded archive to a private temporary file (bounded: 413 past MAX_ARCHIVE_BYTES). */
export async function saveUpload(body: AsyncIterable<Uint8Array> | Readable, ownerId: string) {
  const dir = workDir();
  await mkdir(dir, { recursive: true });
  const token = randomBytes(12).toString("hex");
  const file = archivePath(ownerId, token);
  let bytes = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes > MAX_ARCHIVE_BYTES) done(jsonError(413, `The archive is larger than ${MAX_ARCHIVE_BYTES / 1024 / 1024} MB`) as unknown as Error);
      else done(null, chunk);
    },
  });
  try {
    await pipeline(Readable.from(body), limit, createWriteStream(file, { mode: 0o600 }));
  } catch (error) {
    await rm(file, { force: true });
    if (error instanceof Response) throw error;
    throw badArchive("The upload could not be read");
  }
  if (bytes === 0) {
    await rm(file, { force: true });
    throw badArchive("Choose an export archive (.tar.gz) to import");
  }
  return token;
}

/** The temporary archive of an upload: its name carries the owner, so a token works for its owner only. */
export function archivePath(ownerId: string, token: string) {
  if (!/^[a-f0-9]{24}$/.test(token)) throw jsonError(404, "Import not found");
  return path.join(workDir(), `import-${ownerId}-${token}.tar.gz`);
}

export async function discardUpload(ownerId: string, token: string) {
  await rm(archivePath(ownerId, token), { force: true });
}

/** Lines of a stream, each at most MAX_LINE_BYTES. */
async function* lines(stream: AsyncIterable<Buffer>) {
  let rest = "";
  for await (const chunk of stream) {
    rest += chunk.toString("utf8");
    if (rest.length > MAX_LINE_BYTES && !rest.includes("\n")) throw badArchive("A record in the archive is too large");
    let at: number;
    while ((at = rest.indexOf("\n")) >= 0) {
      yield rest.slice(0, at);
      rest = rest.slice(at + 1);
    }
  }
  if (rest.trim() !== "") yield rest;
}

type Entry = { name: string; collection?: ExportableCollection; stream: AsyncIterable<Buffer> };

/** Walks the archive's entries (gunzip, inflation bounded, then tar). */
async function walkArchive(file: string, onEntry: (entry: Entry) => Promise<void>) {
  let inflated = 0;
  const gunzip = createGunzip();
  const guard = new Transform({
    transform(chunk: Buffer, _enc, done) {
      inflated += chunk.length;
      if (inflated > MAX_INFLATED_BYTES) done(badArchive("The archive inflates to more than 1 GB") as unknown as Error);
      else done(null, chunk);
    },
  });
  const extract = tar.extract();
  const feeding = pipeline(createReadStream(file), gunzip, guard, extract).catch((error: unknown) => {
    extract.destroy(error as Error);
  });
  try {
    for await (const entry of extract) {
      const name = entry.header.name.replace(/^\.\//, "");
      const collection = EXPORTABLE.find((c) => `${c.name}.ndjson` === name);
      if (entry.header.type !== "file") {
        entry.resume();
        continue;
      }
      await onEntry({ name, collection, stream: entry as AsyncIterable<Buffer> });
      entry.resume();
    }
  } catch (error) {
    if (error instanceof Response) throw error;
    throw badArchive("The file is not an export archive (.tar.gz)");
  } finally {
    await feeding;
  }
}

const hexId = (value: unknown): string | null => {
  const id = typeof value === "string" ? value : value && typeof value === "object" && "$oid" in value ? String((value as { $oid: unknown }).$oid) : null;
  return id && /^[a-f0-9]{24}$/i.test(id) ? id.toLowerCase() : null;
};

/**
 * The id a document gets in the target account: its own in the account it came from (so importing
 * an archive back restores what is missing and skips what is there), else one derived from the
 * target account and the original id — the same on every run, so importing twice stores nothing twice.
 */
function rekey(sourceId: string, targetOwner: string, same: boolean) {
  if (same) return sourceId;
  return createHash("sha256").update(`${targetOwner}:${sourceId}`).digest("hex").slice(0, 24);
}

/** Re-keys a reference at a dotted path (through arrays); one the archive does not hold is dropped in another account. */
function mapRefs(doc: Record<string, unknown>, pathParts: string[], map: (id: string) => string | null) {
  const [head, ...rest] = pathParts;
  const value = doc[head];
  if (value === undefined || value === null) return;
  if (rest.length === 0) {
    const visit = (v: unknown) => {
      const id = hexId(v);
      return id ? map(id) : null;
    };
    if (Array.isArray(value)) doc[head] = value.map(visit).filter((v) => v !== null);
    else {
      const mapped = visit(value);
      if (mapped === null) delete doc[head];
      else doc[head] = mapped;
    }
    return;
  }
  const children = Array.isArray(value) ? value : [value];
  for (const child of children) if (child && typeof child === "object") mapRefs(child as Record<string, unknown>, rest, map);
}

/**
 * Dry run (`dryRun`) or import of a saved archive into the caller's account. Every record is
 * validated by its model; the import stores the valid ones not already there, in batches.
 */
export async function importArchive(actor: Actor, token: string, { dryRun }: { dryRun: boolean }): Promise<ImportReport> {
  const file = archivePath(actor.id, token);
  await stat(file).catch(() => {
    throw jsonError(404, "Import not found");
  });

  // Pass 1: the manifest and every record's id (references are checked against them).
  let manifest: Manifest | null = null;
  const ids = new Map<string, Set<string>>(EXPORTABLE.map((c) => [c.name, new Set<string>()]));
  await walkArchive(file, async ({ name, collection, stream }) => {
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
    const set = ids.get(collection.name)!;
    for await (const line of lines(stream)) {
      try {
        const id = hexId((JSON.parse(line) as { _id?: unknown })._id);
        if (id) set.add(id);
      } catch {
        // Reported in pass 2.
      }
    }
  });
  const found = manifest as Manifest | null;
  if (!found || found.format !== ARCHIVE_FORMAT) throw badArchive("The file is not a DamageIQ export archive");
  const same = found.account?.id === actor.id;

  // Pass 2: validate (and store) each record.
  const report: ImportReport = {
    source: { accountId: String(found.account?.id ?? ""), username: String(found.account?.username ?? ""), exportedAt: String(found.exportedAt ?? "") },
    sameAccount: same,
    collections: EXPORTABLE.map((c) => ({ name: c.name, records: 0, valid: 0, invalid: 0, existing: 0, notForAccount: 0, imported: 0 })),
    errors: [],
    totalErrors: 0,
    dryRun,
  };
  const fail = (collection: string, line: number, message: string) => {
    report.totalErrors += 1;
    if (report.errors.length < MAX_REPORTED_ERRORS) report.errors.push({ collection, line, message });
  };
  const mapperFor = (target: string) => (id: string) =>
    ids.get(target)?.has(id) ? rekey(id, actor.id, same) : same ? id : null;

  await walkArchive(file, async ({ collection, stream }) => {
    if (!collection) return;
    const counts = report.collections.find((c) => c.name === collection.name)!;
    const forAccount = collection.roles.includes(actor.realRole);
    let batch: Record<string, unknown>[] = [];
    const flush = async () => {
      const existing = await existingIds(collection, batch.map((d) => d._id as Types.ObjectId));
      const fresh = batch.filter((d) => !existing.has(String(d._id)));
      counts.existing += batch.length - fresh.length;
      if (!dryRun) counts.imported += await insertImported(collection, fresh);
      batch = [];
    };
    let lineNo = 0;
    for await (const line of lines(stream)) {
      lineNo += 1;
      if (line.trim() === "") continue;
      counts.records += 1;
      if (!forAccount) {
        counts.notForAccount += 1;
        continue;
      }
      let raw: Record<string, unknown>;
      try {
        raw = JSON.parse(line) as Record<string, unknown>;
        if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new Error();
      } catch {
        counts.invalid += 1;
        fail(collection.name, lineNo, "Not a JSON object");
        continue;
      }
      const id = hexId(raw._id);
      if (!id) {
        counts.invalid += 1;
        fail(collection.name, lineNo, "Missing or malformed _id");
        continue;
      }
      const { __v: _version, ...fields } = raw;
      void _version;
      fields._id = rekey(id, actor.id, same);
      fields[collection.ownerField] = actor.id;
      for (const [refPath, target] of Object.entries(collection.refs ?? {})) mapRefs(fields, refPath.split("."), mapperFor(target));
      const doc = new collection.model(fields);
      // validate(), not the deprecated validateSync(): mongoose 9 warns in the server log on each call.
      const error = await doc.validate().then(
        () => null,
        (invalid: unknown) => invalid as { errors?: Record<string, unknown>; message: string },
      );
      if (error) {
        counts.invalid += 1;
        fail(collection.name, lineNo, Object.values(error.errors ?? {}).map((e) => (e as Error).message).join("; ") || error.message);
        continue;
      }
      counts.valid += 1;
      batch.push(doc.toObject({ depopulate: true, versionKey: false }));
      if (batch.length >= BATCH) await flush();
    }
    if (batch.length) await flush();
  });
  return report;
}

/** Housekeeping: uploaded archives never confirmed nor cancelled, and export leftovers, after a day. */
export async function sweepStaleArchives(olderThanMs = 24 * 3600 * 1000) {
  const dir = workDir();
  const names = await readdir(dir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => null);
    if (info && Date.now() - info.mtimeMs > olderThanMs) {
      await rm(file, { force: true });
      removed += 1;
    }
  }
  return removed;
}
