// The part scheduling that patches/uppy-aws-s3-parallel-parts.patch gives Uppy's S3Uploader, run
// with a real Uppy core and a recording S3 client (the network side is covered by the e2e walks).
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import Uppy from "@uppy/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { partsInFlight } from "~/schemas/upload-limits";
import { applyPatch, esbuild } from "./build-uppy.mjs";

const PART = 5 * 1024 * 1024;

interface UploaderOptions {
  uppy: Uppy;
  s3Client: unknown;
  file: unknown;
  requestedKey: string;
  shouldUseMultipart: boolean;
  getChunkSize: () => number;
  partLimit?: unknown;
  onSuccess?: (result: unknown) => void;
  onError?: (error: Error) => void;
}
type S3UploaderClass = new (options: UploaderOptions) => { start(): Promise<void> };

let S3Uploader: S3UploaderClass;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "uppy-patch-"));
  const outfile = path.join(dir, "s3-uploader.mjs");
  await esbuild.build({
    entryPoints: [path.resolve("node_modules/@uppy/aws-s3/lib/S3Uploader.js")],
    bundle: true,
    format: "esm",
    platform: "node",
    outfile,
    logLevel: "silent",
    plugins: [applyPatch({ requireAll: false })],
  });
  S3Uploader = ((await import(pathToFileURL(outfile).href)) as { default: S3UploaderClass }).default;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An S3 client that records the parts in flight; `delayMs` per part (fast → several at once). */
function recordingClient({ delayMs = 5, failPart }: { delayMs?: number | ((n: number) => number); failPart?: number } = {}) {
  const log = { started: [] as number[], maxInFlight: 0, inFlightAtStart: [] as number[], completed: [] as unknown[] };
  const stored = new Map<number, string>();
  let inFlight = 0;
  let failed = false;
  const client = {
    createMultipartUpload: async () => ({ uploadId: "u1", key: "k1" }),
    listParts: async () => [...stored].map(([partNumber, etag]) => ({ partNumber, etag })),
    uploadPart: async ({ partNumber, data, onProgress }: { partNumber: number; data: Blob; onProgress: (n: number) => void }) => {
      log.started.push(partNumber);
      log.inFlightAtStart.push(inFlight);
      inFlight += 1;
      log.maxInFlight = Math.max(log.maxInFlight, inFlight);
      try {
        await new Promise((r) => setTimeout(r, typeof delayMs === "function" ? delayMs(partNumber) : delayMs));
        if (partNumber === failPart && !failed) {
          failed = true;
          throw Object.assign(new Error("connection reset"), { name: "NetworkError" });
        }
        onProgress(data.size);
        stored.set(partNumber, `"etag-${partNumber}"`);
        return { etag: `"etag-${partNumber}"` };
      } finally {
        inFlight -= 1;
      }
    },
    completeMultipartUpload: async ({ parts }: { parts: unknown[] }) => {
      log.completed = parts;
      return { location: "/media/1", key: "k1" };
    },
    abortMultipartUpload: async () => {},
  };
  return { client, log };
}

function run(client: unknown, partLimit: unknown, parts = 12) {
  const uppy = new Uppy();
  const id = uppy.addFile({ name: "clip.mp4", type: "video/mp4", data: new Blob([new Uint8Array(parts * PART - 1)]) });
  const file = uppy.getFile(id);
  let settle: { resolve: (v: unknown) => void; reject: (e: Error) => void } | undefined;
  const uploader = new S3Uploader({
    uppy,
    s3Client: client,
    file,
    requestedKey: "clip.mp4",
    shouldUseMultipart: true,
    getChunkSize: () => PART,
    partLimit,
    onSuccess: (result) => settle?.resolve(result),
    onError: (error) => settle?.reject(error),
  });
  const attempt = () =>
    new Promise((resolve, reject) => {
      settle = { resolve, reject };
      void uploader.start();
    });
  return { attempt };
}

describe("Uppy S3 uploader with the parallel-parts patch", () => {
  it("sends one file's parts four at a time once a part showed a fast line, and completes them in order", async () => {
    const { client, log } = recordingClient();
    await run(client, partsInFlight).attempt();
    expect(log.inFlightAtStart[0]).toBe(0);
    expect(log.inFlightAtStart[1]).toBe(0); // the first part runs alone: it measures the line
    expect(log.maxInFlight).toBe(4);
    expect([...log.started].sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(log.completed).toEqual(Array.from({ length: 12 }, (_, i) => ({ partNumber: i + 1, etag: `"etag-${i + 1}"` })));
  });

  it("keeps to one part at a time on a slow line, and without the option (Uppy's own behaviour)", async () => {
    // 5 MiB in 3 s is under 2 MiB/s.
    const slow = recordingClient({ delayMs: (n) => (n === 1 ? 2600 : 5) });
    await run(slow.client, partsInFlight, 3).attempt();
    expect(slow.log.maxInFlight).toBe(1);

    const plain = recordingClient();
    await run(plain.client, undefined, 6).attempt();
    expect(plain.log.maxInFlight).toBe(1);
  });

  it("after a failed part starts no new part, lets the others finish, and a retry sends only the missing one", async () => {
    const { client, log } = recordingClient({ failPart: 4, delayMs: (n) => (n === 4 ? 2 : 20) });
    const upload = run(client, 4, 12);
    await expect(upload.attempt()).rejects.toThrow("connection reset");
    // Parts 1–4 were in flight together; part 4 failed first, so 5.. never started, 1–3 finished.
    expect(log.started).toEqual([1, 2, 3, 4]);

    await upload.attempt();
    expect(log.started.slice(4)).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(log.completed).toHaveLength(12);
  });
});
