import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { errorCode } from "~/utils/db-errors.server";
import { DISK_RESERVE_BYTES, diskFullError, diskSpace, isDiskFullError } from "~/utils/disk.server";
import { signUrl } from "./signing";
import { MIN_PART_SIZE, StorageError, type StorageBackend, type StoredPart } from "./types";

const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,1023}$/;
const UPLOAD_ID_PATTERN = /^[0-9a-f]{32}$/;
const MANIFEST = "manifest.json";

/** A completed multipart object: its parts, in order, kept as the object's segments. */
interface Manifest {
  size: number;
  segments: { name: string; size: number }[];
}

/** Counts bytes and fails once more than `maxBytes` went through. */
class Meter extends Transform {
  bytes = 0;
  constructor(
    private readonly maxBytes: number,
    private readonly tooLarge: () => Error,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: (error?: Error | null, data?: Buffer) => void) {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) return done(this.tooLarge());
    done(null, chunk);
  }
}

/**
 * Objects as files under DATA_DIR/objects. Upload URLs point at the app's own signed route
 * (`/api/objects/signed`), which writes through this backend; multipart parts live in
 * `.multipart/<uploadId>/<partNumber>.<etag>` until completed or aborted. Completing moves that
 * directory to the object's path with a manifest (no copy); reads stream across its segments.
 */
export class LocalBackend implements StorageBackend {
  readonly kind = "local" as const;
  constructor(readonly root: string) {}

  pathFor(key: string) {
    if (!KEY_PATTERN.test(key) || key.split("/").some((s) => s === ".." || s === "." || s === "")) {
      throw new StorageError(400, "Invalid object key");
    }
    const full = path.resolve(this.root, key);
    if (!full.startsWith(path.resolve(this.root) + path.sep)) throw new StorageError(400, "Invalid object key");
    return full;
  }

  private partsDir(uploadId: string) {
    if (!UPLOAD_ID_PATTERN.test(uploadId)) throw new StorageError(404, "Upload not found");
    return path.join(this.root, ".multipart", uploadId);
  }

  private async tmpFile() {
    const dir = path.join(this.root, ".tmp");
    await fsp.mkdir(dir, { recursive: true });
    return path.join(dir, randomBytes(12).toString("hex"));
  }

  /**
   * Streams a body into a temporary file, within `maxBytes` and within the space above the disk's
   * reserve (docs/decisions/0038): a full disk refuses it, and nothing half-written stays.
   */
  private async receive(body: Readable, maxBytes: number, tooLarge: string) {
    const tmp = await this.tmpFile();
    const space = await diskSpace(path.dirname(tmp));
    const room = space ? space.freeBytes - DISK_RESERVE_BYTES : Infinity;
    const meter: Meter = new Meter(Math.max(0, Math.min(maxBytes, room)), () =>
      meter.bytes > maxBytes ? new StorageError(413, tooLarge) : diskFullError(),
    );
    try {
      await pipeline(body, meter, createWriteStream(tmp));
    } catch (error) {
      await fsp.rm(tmp, { force: true });
      throw isDiskFullError(error) ? diskFullError() : error;
    }
    return { tmp, bytes: meter.bytes };
  }

  async presignPut(key: string, _contentType: string, expiresIn: number) {
    this.pathFor(key);
    return signUrl({ op: "put", key }, expiresIn);
  }

  async createMultipart(key: string) {
    this.pathFor(key);
    const uploadId = randomBytes(16).toString("hex");
    const dir = this.partsDir(uploadId);
    await fsp.mkdir(dir, { recursive: true });
    await fsp.writeFile(path.join(dir, "key"), key);
    return uploadId;
  }

  private async checkUpload(key: string, uploadId: string) {
    const dir = this.partsDir(uploadId);
    const owner = await fsp.readFile(path.join(dir, "key"), "utf8").catch(() => null);
    if (owner !== key) throw new StorageError(404, "Upload not found");
    return dir;
  }

  async presignPart(
    key: string,
    uploadId: string,
    partNumber: number,
    expiresIn: number,
    limit = { maxBytes: MIN_PART_SIZE, name: "file" },
  ) {
    // Ownership and state were checked against the upload record; the PUT checks the directory.
    this.partsDir(uploadId);
    const params = { op: "part", key, uploadId, partNumber: String(partNumber), max: String(limit.maxBytes), name: limit.name };
    return signUrl(params, expiresIn);
  }

  /** Stores one part from a request body; answers its ETag (quoted, 32 hex digits like S3's). */
  async writePart(key: string, uploadId: string, partNumber: number, body: Readable, maxBytes: number) {
    const dir = await this.checkUpload(key, uploadId);
    const { tmp } = await this.receive(body, maxBytes, "Part too large");
    // The ETag names this stored copy of the part (opaque to clients, as S3 documents it); a random
    // id instead of S3's MD5 saves hashing every byte.
    const md5 = randomBytes(16).toString("hex");
    // A part sent again replaces the earlier copy.
    for (const name of await fsp.readdir(dir)) {
      if (name.startsWith(`${partNumber}.`)) await fsp.rm(path.join(dir, name), { force: true });
    }
    await fsp.rename(tmp, path.join(dir, `${partNumber}.${md5}`));
    return `"${md5}"`;
  }

  async listParts(key: string, uploadId: string): Promise<StoredPart[]> {
    const dir = await this.checkUpload(key, uploadId);
    const parts: StoredPart[] = [];
    for (const name of await fsp.readdir(dir)) {
      const match = /^(\d+)\.([0-9a-f]{32})$/.exec(name);
      if (!match) continue;
      const { size } = await fsp.stat(path.join(dir, name));
      parts.push({ PartNumber: Number(match[1]), ETag: `"${match[2]}"`, Size: size });
    }
    return parts.sort((a, b) => a.PartNumber - b.PartNumber);
  }

  async completeMultipart(key: string, uploadId: string, parts: { PartNumber: number; ETag: string }[]) {
    const dir = await this.checkUpload(key, uploadId);
    const stored = new Map((await this.listParts(key, uploadId)).map((p) => [p.PartNumber, p]));
    if (parts.length === 0) throw new StorageError(400, "You must specify at least one part");
    const files: string[] = [];
    parts.forEach((part, i) => {
      if (i > 0 && part.PartNumber <= parts[i - 1].PartNumber) {
        throw new StorageError(400, "The list of parts was not in ascending order");
      }
      const found = stored.get(part.PartNumber);
      if (!found || found.ETag.replace(/"/g, "") !== String(part.ETag).replace(/"/g, "")) {
        throw new StorageError(400, "One or more of the specified parts could not be found");
      }
      if (i < parts.length - 1 && found.Size < MIN_PART_SIZE) {
        throw new StorageError(400, "Your proposed upload is smaller than the minimum allowed size");
      }
      files.push(path.join(dir, `${part.PartNumber}.${found.ETag.replace(/"/g, "")}`));
    });
    // The parts become the object's segments in place (one rename, no copy of the bytes): reads
    // stream across them in order. Parts not named in the list are dropped.
    const listed = new Set(files.map((f) => path.basename(f)));
    for (const name of await fsp.readdir(dir)) {
      if (!listed.has(name)) await fsp.rm(path.join(dir, name), { force: true });
    }
    const segments = parts.map((part) => {
      const found = stored.get(part.PartNumber)!;
      return { name: `${part.PartNumber}.${found.ETag.replace(/"/g, "")}`, size: found.Size };
    });
    const manifest: Manifest = { size: segments.reduce((sum, s) => sum + s.size, 0), segments };
    await fsp.writeFile(path.join(dir, MANIFEST), JSON.stringify(manifest));
    const target = this.pathFor(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.rm(target, { recursive: true, force: true });
    await fsp.rename(dir, target);
  }

  private async manifest(full: string): Promise<Manifest | null> {
    const text = await fsp.readFile(path.join(full, MANIFEST), "utf8").catch(() => null);
    return text ? (JSON.parse(text) as Manifest) : null;
  }

  async abortMultipart(key: string, uploadId: string) {
    const dir = await this.checkUpload(key, uploadId).catch(() => null);
    if (dir) await fsp.rm(dir, { recursive: true, force: true });
  }

  async putStream(key: string, body: Readable, _contentType: string, maxBytes: number) {
    const target = this.pathFor(key);
    const { tmp, bytes } = await this.receive(body, maxBytes, "Object too large");
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.rename(tmp, target);
    return bytes;
  }

  async head(key: string) {
    const full = this.pathFor(key);
    const stat = await fsp.stat(full).catch(() => null);
    if (stat?.isFile()) return { size: stat.size };
    if (stat?.isDirectory()) {
      const manifest = await this.manifest(full);
      return manifest ? { size: manifest.size } : null;
    }
    return null;
  }

  async read(key: string, range?: { start: number; end: number }) {
    const full = this.pathFor(key);
    const stat = await fsp.stat(full).catch((error: unknown) => {
      if (errorCode(error) === "ENOENT") throw new StorageError(404, "Object not found");
      throw error;
    });
    if (stat.isFile()) return createReadStream(full, range ? { start: range.start, end: range.end } : {});
    const manifest = await this.manifest(full);
    if (!manifest) throw new StorageError(404, "Object not found");
    const start = range?.start ?? 0;
    const end = range?.end ?? manifest.size - 1;
    async function* segments() {
      let offset = 0;
      for (const segment of manifest!.segments) {
        const first = offset;
        const last = offset + segment.size - 1;
        offset += segment.size;
        if (segment.size === 0 || last < start) continue;
        if (first > end) break;
        yield* createReadStream(path.join(full, segment.name), {
          start: Math.max(start, first) - first,
          end: Math.min(end, last) - first,
          highWaterMark: 1024 * 1024,
        });
      }
    }
    return Readable.from(segments(), { objectMode: false });
  }

  async delete(key: string) {
    await fsp.rm(this.pathFor(key), { recursive: true, force: true });
  }
}
