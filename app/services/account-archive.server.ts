import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { StringDecoder } from "node:string_decoder";
import { createGunzip } from "node:zlib";
import tar from "tar-stream";
import { EXPORTABLE, type ExportableCollection } from "~/models/account-data.server";
import { findPendingImport, pendingImportsOf, recordPendingImport, removePendingImport, stalePendingImports } from "~/models/pending-import.server";
import { unfinishedImportTokens } from "~/models/import-run.server";
import { isDbUnavailableError } from "~/utils/db-errors.server";
import { Invalid, isRefusal, NotFound } from "~/utils/domain-errors";
import { env } from "~/utils/env.server";
import { asError, fieldOf } from "~/utils/unknown-values";
import { storage } from "./storage/backend.server";

/**
 * Settings → System: the account's data out as a tar.gz of ndjson files (one per collection of the
 * registry in models/account-data), and back in — into the same account or another one — after a
 * dry run (account-export.server.ts, account-import.server.ts). This module holds the archive
 * itself: its format and bounds, the uploaded archive waiting for confirmation, and reading it
 * entry by entry and line by line. An archive is untrusted input like any request body: bounded,
 * parsed with the API's schemas, its ids never used as ids, its references resolved inside the
 * importer's account (docs/decisions/0012).
 */

export const ARCHIVE_FORMAT = "damageiq-export";
/** The largest archive accepted (compressed), and what it may inflate to (reading stops there: 413). */
export const MAX_ARCHIVE_BYTES = 50 * 1024 * 1024;
export const MAX_INFLATED_BYTES = 256 * 1024 * 1024;
/** The largest record (one ndjson line), all records of an archive, and its files (tar entries). */
export const MAX_LINE_BYTES = 1024 * 1024;
export const MAX_RECORDS = 200_000;
const MAX_ENTRIES = 64;
export const MAX_REPORTED_LINES = 50;
export const BATCH = 500;

export const workDir = () => path.resolve(env.DATA_DIR, "tmp", "account-data");

export const badArchive = (message: string) => new Invalid(message, { fields: { file: message } });
export const tooLarge = (message: string) => new Invalid(message, { fields: { file: message }, kind: "tooLarge" });

/**
 * Saves an uploaded archive (bounded: 413 past MAX_ARCHIVE_BYTES) in object storage, where any
 * instance finds it for the confirmation: another instance may take the next request.
 */
export async function saveUpload(body: AsyncIterable<Uint8Array> | Readable, ownerId: string) {
  const token = randomBytes(12).toString("hex");
  const key = `imports/${ownerId}/${token}.tar.gz`;
  let bytes = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes > MAX_ARCHIVE_BYTES) done(new Invalid(`The archive is larger than ${MAX_ARCHIVE_BYTES / 1024 / 1024} MB`, { kind: "tooLarge" }));
      else done(null, chunk);
    },
  });
  const source = Readable.from(body);
  source.once("error", (error) => limit.destroy(error));
  try {
    await storage().putStream(key, source.pipe(limit), "application/gzip", MAX_ARCHIVE_BYTES + 1);
  } catch (error) {
    await storage().delete(key).catch(() => {});
    if (isRefusal(error)) throw error;
    if (fieldOf(error, "name") === "StorageUnavailableError") throw error;
    throw badArchive("The upload could not be read");
  }
  if (bytes === 0) {
    await storage().delete(key);
    throw badArchive("Choose an export archive (.tar.gz) to import");
  }
  await recordPendingImport({ token, ownerId, key });
  return token;
}

/** This instance's working copy of an upload: its name carries the owner, so a token works for its owner only. */
export function archivePath(ownerId: string, token: string) {
  if (!/^[a-f0-9]{24}$/.test(token)) throw new NotFound("Import not found");
  return path.join(workDir(), `import-${ownerId}-${token}.tar.gz`);
}

/** The owner's pending archive as a local working copy (read twice by an import); 404 "Import not found". */
export async function loadUpload(ownerId: string, token: string) {
  const file = archivePath(ownerId, token);
  const pending = await findPendingImport({ ownerId, token });
  if (!pending) throw new NotFound("Import not found");
  if (await stat(file).then(() => true, () => false)) return file;
  await mkdir(workDir(), { recursive: true });
  const temp = `${file}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await pipeline(await storage().read(pending.key), createWriteStream(temp, { mode: 0o600 }));
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    if (fieldOf(error, "name") === "StorageUnavailableError") throw error;
    throw new NotFound("Import not found");
  }
  return file;
}

export async function discardUpload(ownerId: string, token: string) {
  const file = archivePath(ownerId, token);
  const pending = await findPendingImport({ ownerId, token });
  if (pending) {
    await storage().delete(pending.key);
    await removePendingImport({ token });
  }
  await rm(file, { force: true });
}

/**
 * Settings → System → Clear Cache (`keepUnfinished`: an interrupted import's archive stays, its
 * Resume needs it) and the account's deletion: the account's archives waiting; how many went.
 */
export async function discardUploadsOf(ownerId: string, { keepUnfinished = false } = {}) {
  const keep = keepUnfinished ? await unfinishedImportTokens() : new Set<string>();
  const pending = (await pendingImportsOf({ ownerId })).filter(({ _id }) => !keep.has(_id));
  for (const { _id } of pending) await discardUpload(ownerId, _id);
  return pending.length;
}

/**
 * The non-blank lines of a stream with their numbers, each at most MAX_LINE_BYTES (a multi-byte
 * character split between chunks stays whole). One scan per chunk: a million empty lines cost no
 * more than one long one.
 */
export async function* lines(stream: AsyncIterable<Buffer>): AsyncGenerator<[number, string]> {
  const decoder = new StringDecoder("utf8");
  const tooLong = () => tooLarge(`A record in the archive is larger than ${MAX_LINE_BYTES / 1024} KB`);
  let rest = "";
  let number = 0;
  for await (const chunk of stream) {
    const text = rest + decoder.write(chunk);
    let start = 0;
    let at: number;
    while ((at = text.indexOf("\n", start)) >= 0) {
      number += 1;
      if (at - start > MAX_LINE_BYTES) throw tooLong();
      if (at - start > 0) {
        const line = text.slice(start, at);
        if (line.trim() !== "") yield [number, line];
      }
      start = at + 1;
    }
    rest = text.slice(start);
    if (rest.length > MAX_LINE_BYTES) throw tooLong();
  }
  rest += decoder.end();
  if (rest.trim() !== "") yield [number + 1, rest];
}

type Entry = { name: string; collection?: ExportableCollection; stream: AsyncIterable<Buffer> };

/**
 * Walks the archive's entries (gunzip, then tar), stopping as soon as it inflates past
 * MAX_INFLATED_BYTES or holds more than MAX_ENTRIES files. Entries are only read, never written to
 * disk: a name with `..` or a leading `/` is just a name that matches no collection.
 */
export async function walkArchive(file: string, onEntry: (entry: Entry) => Promise<void>) {
  let inflated = 0;
  let entries = 0;
  const gunzip = createGunzip();
  const guard = new Transform({
    transform(chunk: Buffer, _enc, done) {
      inflated += chunk.length;
      if (inflated > MAX_INFLATED_BYTES) done(tooLarge(`The archive inflates to more than ${MAX_INFLATED_BYTES / 1024 / 1024} MB`));
      else done(null, chunk);
    },
  });
  const extract = tar.extract();
  const feeding = pipeline(createReadStream(file), gunzip, guard, extract).catch((error: unknown) => {
    extract.destroy(asError(error));
  });
  try {
    for await (const entry of extract) {
      entries += 1;
      if (entries > MAX_ENTRIES) throw badArchive(`The archive holds more than ${MAX_ENTRIES} files`);
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
    // The guard's refusal (413) arrives as the destroyed extractor's error; the database away
    // while an import stores is no fault of the archive (the import is interrupted, decision 0059).
    if (isRefusal(error) || isDbUnavailableError(error)) throw error;
    throw badArchive("The file is not an export archive (.tar.gz)");
  } finally {
    await feeding;
  }
}

/**
 * Housekeeping: uploaded archives never confirmed nor cancelled, and working copies and export
 * leftovers, after a day; an interrupted import's archive stays until it is resumed (decision 0059).
 */
export async function sweepStaleArchives(olderThanMs = 24 * 3600 * 1000) {
  const unfinished = await unfinishedImportTokens();
  for (const stale of await stalePendingImports({ before: new Date(Date.now() - olderThanMs) })) {
    if (unfinished.has(stale._id)) continue;
    await storage().delete(stale.key);
    await removePendingImport({ token: stale._id });
  }
  const dir = workDir();
  const names = await readdir(dir).catch((): string[] => []);
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
