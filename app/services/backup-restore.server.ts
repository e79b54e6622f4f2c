import { writeFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { createWriteStream } from "node:fs";
import { Decrypter } from "age-encryption";
import tar from "tar-stream";
import { z } from "zod";
import { collectionCounts, referencedObjects, withDatabase } from "~/models/backup-contents.server";
import { freePort, startEmbeddedDb } from "~/utils/embedded-db.server";
import { nodeStreamOf, webStreamOf } from "~/utils/web-streams.server";
import { BACKUP_FORMAT, SECRET_CHECK_LABEL, SECRET_CHECK_TEXT } from "./backup.server";
import { open } from "./secret-box.server";
import { storage } from "./storage/backend.server";

/**
 * `npm run restore` (docs/decisions/0066): an archive of backup.server.ts read into a new data
 * directory (the caller's staging directory: DATA_DIR points at it while this runs, so objects go
 * where the app will read them, or to the S3 bucket the environment names), then verified: each
 * collection's count as the backup recorded it, every object the records name present, and the
 * session secret opening what the backup sealed with it. The archive is untrusted input: entry
 * names are checked, sizes bounded, and anything unexpected refuses the whole archive.
 */

/** A restore that did not succeed, with the reason to show the operator. */
export class RestoreFailed extends Error {}

const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(1),
  createdAt: z.string(),
  database: z.object({ name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/), bytes: z.number().int().nonnegative() }),
  collections: z.record(z.string(), z.number().int().nonnegative()),
  objects: z.object({ count: z.number().int().nonnegative(), bytes: z.number().int().nonnegative(), missing: z.array(z.string()) }),
  secretCheck: z.string(),
});

/** Object keys as the app makes them: path segments of safe characters, no `..`, not absolute. */
const SAFE_KEY = /^(?!.*(?:^|\/)\.\.?(?:\/|$))[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/;
const SMALL_ENTRY_BYTES = 1 << 20;

async function readSmall(stream: AsyncIterable<unknown>) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const part of stream) {
    const chunk = Buffer.isBuffer(part) ? part : Buffer.from(String(part));
    size += chunk.length;
    if (size > SMALL_ENTRY_BYTES) throw new RestoreFailed("The archive is not a DamageIQ backup (an entry is larger than expected)");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Reads the archive into `dataDir` (empty, the caller's staging directory), then verifies it. */
export async function restoreBackup({ archive, passphrase, dataDir, log = () => {} }: { archive: Readable; passphrase: string; dataDir: string; log?: (line: string) => void }) {
  const decrypter = new Decrypter();
  decrypter.addPassphrase(passphrase);
  let plain: Readable;
  try {
    plain = nodeStreamOf(await decrypter.decrypt(webStreamOf(archive)));
  } catch (error) {
    throw new RestoreFailed(/no identity matched/i.test(String(error)) ? "The passphrase does not open this backup" : `The file is not a DamageIQ backup (${String(error)})`);
  }
  let manifestText: Buffer | undefined;
  let secret: string | undefined;
  let database = false;
  let objects = 0;
  const extract = tar.extract();
  const feeding = pipeline(plain, createGunzip(), extract).catch((error: unknown) => extract.destroy(error instanceof Error ? error : new Error(String(error))));
  try {
    for await (const entry of extract) {
      const name = entry.header.name;
      if (entry.header.type !== "file") throw new RestoreFailed(`The archive is not a DamageIQ backup (unexpected entry ${name})`);
      if (name === "database/damageiq.mv.db") {
        await mkdir(path.join(dataDir, "db"), { recursive: true });
        await pipeline(entry, createWriteStream(path.join(dataDir, "db", "damageiq.mv.db"), { mode: 0o600 }));
        database = true;
        log("database restored");
      } else if (name === "secrets/session-secret") {
        secret = (await readSmall(entry)).toString("utf8");
      } else if (name === "manifest.json") {
        manifestText = await readSmall(entry);
      } else if (name.startsWith("objects/") && SAFE_KEY.test(name.slice("objects/".length))) {
        await storage().putStream(name.slice("objects/".length), Readable.from(entry), "application/octet-stream", Number.MAX_SAFE_INTEGER);
        objects += 1;
        if (objects % 500 === 0) log(`objects: ${objects}`);
      } else {
        throw new RestoreFailed(`The archive is not a DamageIQ backup (unexpected entry ${name})`);
      }
    }
  } catch (error) {
    if (error instanceof RestoreFailed) throw error;
    throw new RestoreFailed(`The archive is damaged or incomplete (${error instanceof Error ? error.message : String(error)})`);
  } finally {
    await feeding;
  }
  if (!manifestText || !database || !secret) throw new RestoreFailed("The archive is incomplete: it lacks its manifest, database or secret");
  const parsed = manifestSchema.safeParse(JSON.parse(manifestText.toString("utf8")));
  if (!parsed.success) throw new RestoreFailed("The archive's manifest is not one of a DamageIQ backup");
  const manifest = parsed.data;
  await writeFile(path.join(dataDir, "session-secret"), secret, { mode: 0o600 });
  log(`${objects} objects restored; verifying`);
  return verify(dataDir, manifest, secret);
}

/** The checks a restore must pass before it says it succeeded; throws RestoreFailed naming the first that failed. */
async function verify(dataDir: string, manifest: z.infer<typeof manifestSchema>, secret: string) {
  if (open(SECRET_CHECK_LABEL, manifest.secretCheck, secret) !== SECRET_CHECK_TEXT) {
    throw new RestoreFailed("The archive's session secret does not open its sealed data");
  }
  const known = new Set(manifest.objects.missing);
  const engine = await startEmbeddedDb({ dataDir, port: await freePort(), heap: "256m", supervise: false });
  try {
    return await withDatabase(engine.uri, manifest.database.name, async (db) => {
      const counts = await collectionCounts(db);
      for (const [collection, count] of Object.entries(manifest.collections)) {
        if ((counts[collection] ?? 0) !== count) {
          throw new RestoreFailed(`The restored ${collection} holds ${counts[collection] ?? 0} documents; the backup recorded ${count}`);
        }
      }
      let present = 0;
      for await (const key of referencedObjects(db)) {
        if (known.has(key)) continue;
        if (!(await storage().head(key))) throw new RestoreFailed(`The object ${key} named by the restored records is missing`);
        present += 1;
      }
      const documents = Object.values(counts).reduce((a, b) => a + b, 0);
      return { createdAt: manifest.createdAt, documents, collections: Object.keys(counts).length, objects: present, alreadyMissing: known.size };
    });
  } finally {
    await engine.stop();
  }
}
