// Gzip copies of the browser build, made once at build time by Zopfli (issue 30): a gzip stream
// 3–4 % smaller than zlib's default level, which compression() would otherwise spend CPU on for
// every request of the same immutable file. server.mjs serves a file's `.gz` to a client that accepts
// gzip (express-static-gzip); bench/js-budget.mjs counts those bytes. Run by scripts/rechunk.mjs's
// command after the regrouping; a file whose copy is already newer is skipped.
import { gzipAsync } from "@gfx/zopfli";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const COMPRESSIBLE = /\.(js|css)$/;

/** Writes `<file>.gz` beside every JavaScript and CSS file under `dir` that it makes smaller; returns how many it wrote. */
export async function precompress(dir) {
  let written = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    const target = `${file}.gz`;
    let done = false;
    try {
      done = statSync(target).mtimeMs >= statSync(file).mtimeMs;
    } catch {
      // no copy yet
    }
    if (done) continue;
    const source = readFileSync(file);
    const gzipped = await gzipAsync(source, { numiterations: 15 });
    if (gzipped.length >= source.length) continue;
    writeFileSync(target, gzipped);
    written += 1;
  }
  return written;
}
