import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { cp, mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { Encrypter } from "age-encryption";
import tar from "tar-stream";
import { appDbName, collectionCounts, referencedObjects, takeSnapshot, withDatabase } from "~/models/backup-contents.server";
import { backupsBeyond, recordBackupEnd, recordBackupRemoved, recordBackupStart } from "~/models/backup-run.server";
import { freePort, startEmbeddedDb } from "~/utils/embedded-db.server";
import { env } from "~/utils/env.server";
import { nodeStreamOf, webStreamOf } from "~/utils/web-streams.server";
import { seal } from "./secret-box.server";
import { storage } from "./storage/backend.server";
import { LocalBackend } from "./storage/local";
import { S3Backend } from "./storage/s3";
import type { StorageBackend } from "./storage/types";

/**
 * Backups of the whole installation (docs/decisions/0066): the embedded database's point-in-time
 * snapshot (taken inside the engine while it serves), every object its records name, and the
 * session secret the sealed data needs, in one tar, gzipped, encrypted with the operator's passphrase
 * (age's format: `age -d` opens it too), written to a folder or an S3 bucket. `npm run restore`
 * (backup-restore.server.ts) reads it back.
 */

export const BACKUP_FORMAT = "damageiq-backup";
/** What the restore opens with the archive's secret to prove the secret is the data's. */
export const SECRET_CHECK_LABEL = "damageiq backup check v1";
export const SECRET_CHECK_TEXT = "the sealed data opens";

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: 1;
  createdAt: string;
  database: { name: string; bytes: number };
  collections: Record<string, number>;
  objects: { count: number; bytes: number; missing: string[] };
  secretCheck: string;
}

/** A backup that cannot be made as asked (configuration), with the reason to show the operator. */
export class BackupRefused extends Error {}

/** Where archives go: a folder, or `s3://bucket/prefix` (the bucket's region and endpoint as the app's S3_* say). */
export function backupTarget(target: string): { backend: StorageBackend; prefix: string } {
  const s3 = /^s3:\/\/([^/]+)\/?(.*)$/.exec(target);
  if (s3) {
    const prefix = s3[2] ? `${s3[2].replace(/\/+$/, "")}/` : "";
    return {
      backend: new S3Backend({ bucket: s3[1], region: env.S3_REGION, endpoint: env.S3_ENDPOINT, forcePathStyle: env.S3_FORCE_PATH_STYLE }),
      prefix,
    };
  }
  return { backend: new LocalBackend(path.resolve(target)), prefix: "" };
}

const archiveName = (at: Date) => `damageiq-backup-${at.toISOString().replace(/[:.]/g, "-")}.tar.gz.age`;

/** Adds one file to the archive, streaming it. */
async function addEntry(pack: tar.Pack, name: string, size: number, body: Readable) {
  await pipeline(body, pack.entry({ name, size, mtime: new Date() }));
}

/**
 * Makes one backup and records it (Settings → System shows it); then deletes the target's archives
 * beyond `retention`. Throws BackupRefused for a configuration it cannot serve; any other failure is
 * recorded as a failed backup and thrown.
 */
export async function createBackup({ passphrase, target, retention, log = () => {} }: { passphrase: string; target: string; retention: number; log?: (line: string) => void }) {
  if (passphrase.length < 12) throw new BackupRefused("BACKUP_PASSPHRASE must be at least 12 characters");
  const startedAt = new Date();
  const key = archiveName(startedAt);
  const { backend, prefix } = backupTarget(target);
  const runId = await recordBackupStart({ target, key: prefix + key });
  const name = `backup-${startedAt.getTime()}-${randomBytes(4).toString("hex")}`;
  const work = path.join(env.DATA_DIR, "backup-work", name);
  try {
    const snapshot = await takeSnapshot(name);
    log(`snapshot taken: ${(snapshot.bytes / 1048576).toFixed(1)} MiB, writes waited ${snapshot.pauseMs} ms`);
    const dbFile = path.join(work, "db", "damageiq.mv.db");
    await mkdir(path.dirname(dbFile), { recursive: true });
    // On the disk of the engine in DATA_DIR; the shared engine of the tests may keep its files on another.
    await rename(snapshot.path, dbFile).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== "EXDEV") throw error;
      await cp(snapshot.path, dbFile);
      await rm(snapshot.path);
    });
    const dbName = appDbName();

    const pack = tar.pack();
    const gzip = createGzip({ level: 1 });
    const packed = pipeline(pack, gzip).catch((error: unknown) => gzip.destroy(error instanceof Error ? error : new Error(String(error))));
    const encrypter = new Encrypter();
    encrypter.setPassphrase(passphrase);
    const encrypted = nodeStreamOf(await encrypter.encrypt(webStreamOf(gzip)));
    const written = backend.putStream(prefix + key, encrypted, "application/octet-stream", Number.MAX_SAFE_INTEGER);
    written.catch(() => pack.destroy());

    await addEntry(pack, "database/damageiq.mv.db", (await stat(dbFile)).size, createReadStream(dbFile));
    const missing: string[] = [];
    const objects = { count: 0, bytes: 0, missing };
    let collections: Record<string, number> = {};
    const engine = await startEmbeddedDb({ dataDir: work, port: await freePort(), heap: "256m", supervise: false });
    try {
      await withDatabase(engine.uri, dbName, async (db) => {
        collections = await collectionCounts(db);
        for await (const objectKey of referencedObjects(db)) {
          const info = await storage().head(objectKey);
          if (!info) {
            objects.missing.push(objectKey);
            continue;
          }
          await addEntry(pack, `objects/${objectKey}`, info.size, await storage().read(objectKey));
          objects.count += 1;
          objects.bytes += info.size;
          if (objects.count % 500 === 0) log(`objects: ${objects.count}`);
        }
      });
    } finally {
      await engine.stop();
    }
    const secret = Buffer.from(env.SESSION_SECRET);
    await addEntry(pack, "secrets/session-secret", secret.length, Readable.from([secret]));
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: 1,
      createdAt: startedAt.toISOString(),
      database: { name: dbName, bytes: (await stat(dbFile)).size },
      collections,
      objects,
      secretCheck: seal(SECRET_CHECK_LABEL, SECRET_CHECK_TEXT),
    };
    const manifestJson = Buffer.from(JSON.stringify(manifest, null, 2));
    await addEntry(pack, "manifest.json", manifestJson.length, Readable.from([manifestJson]));
    pack.finalize();
    await packed;
    const bytes = await written;
    const documents = Object.values(collections).reduce((a, b) => a + b, 0);
    await recordBackupEnd(runId, { state: "succeeded", bytes, pauseMs: snapshot.pauseMs, documents, objects: objects.count });
    log(`archive written: ${target.replace(/\/+$/, "")}/${key} (${(bytes / 1048576).toFixed(1)} MiB; ${documents} documents, ${objects.count} objects)`);
    if (objects.missing.length) log(`warning: ${objects.missing.length} objects named by records were already missing from storage (${objects.missing.slice(0, 3).join(", ")}…)`);
    for (const old of await backupsBeyond(target, retention)) {
      await backend.delete(old.key);
      await recordBackupRemoved(old._id);
      log(`removed by retention: ${old.key}`);
    }
    return { key: prefix + key, bytes, documents, objects: objects.count, missing: objects.missing.length, pauseMs: snapshot.pauseMs };
  } catch (error) {
    await recordBackupEnd(runId, { state: "failed", error: error instanceof Error ? error.message : String(error) }).catch(() => {});
    await backend.delete(prefix + key).catch(() => {});
    throw error;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
