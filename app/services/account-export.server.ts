import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import tar from "tar-stream";
import { EXPORTABLE, ownerDocuments } from "~/models/account-data.server";
import { ARCHIVE_FORMAT, workDir } from "./account-archive.server";
import type { Actor } from "./actor";
import { ESTIMATE_SETTINGS_ENTRY, exportedEstimateSettings } from "./account-settings-archive.server";
import { asError } from "~/utils/unknown-values";
import { authorize } from "./permissions.server";

/**
 * The account's data out (docs/decisions/0012): export walks cursors into temporary files (a tar
 * entry needs its size first); nothing holds a collection in memory. The format is described in
 * docs/archive-format.schema.json (docs/decisions/0064).
 */

export interface Manifest {
  format: string;
  version: number;
  exportedAt: string;
  account: { id: string; username: string; role: string };
  collections: Record<string, number>;
}

/** `GET /api/account/export`: the archive as a stream; the caller pipes it to the response. */
export function exportArchive(actor: Actor) {
  // The whole account's data, tokens' and webhooks' settings included: its owner's (docs/decisions/0067).
  authorize(actor, "integrations.manage");
  const out = new PassThrough();
  const pack = tar.pack();
  const gzip = createGzip();
  pipeline(pack, gzip, out).catch((error: unknown) => out.destroy(asError(error)));
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
            for await (const doc of ownerDocuments(entry, actor.id)) {
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
    const settings = await exportedEstimateSettings(actor.id);
    if (settings) {
      pack.entry({ name: ESTIMATE_SETTINGS_ENTRY }, JSON.stringify(settings));
      counts.estimateSettings = 1;
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
  })().catch((error: unknown) => pack.destroy(asError(error)));
  return { stream: out, filename: `damageiq-${actor.user.username}-${new Date().toISOString().slice(0, 10)}.tar.gz` };
}
