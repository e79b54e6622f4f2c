import { readdirSync, rmSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestUser, signIn, tokenFor } from "../../tests/accounts";
import { startApp, type RunningApp } from "../../tests/app-server";
import { jpeg, mov, mp4, png } from "../../tests/media-files";
import { vehicleSvg } from "../../tests/vehicle-pictures";
import { startS3Server, type RunningS3 } from "../../tests/s3-server";
import { useTestDb } from "../../tests/test-db";
import { Upload, createUploadRecord, markUploadComplete, newUploadId } from "../models/upload.server";
import { env } from "../utils/env.server";
import { UPLOAD_LIMITS } from "~/schemas/upload-limits";
import { LocalBackend } from "./storage/local";
import { signUrl } from "./storage/signing";

const MiB = 1024 * 1024;
const ONLY_MEDIA = "You can only upload: .jpg, .jpeg, .png, .gif, .mp4, .mov";

type Caller = ReturnType<typeof client> & { cookie: string; id: string };

async function caller(app: RunningApp, role: "dealer" | "vendor" | "admin"): Promise<Caller> {
  const user = await createTestUser({ role });
  const cookie = await signIn(app, user.username, user.password);
  return Object.assign(client(app, { cookie }), { cookie, id: user.id });
}

async function put(url: string, body: Buffer, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method: "PUT", body: new Blob([new Uint8Array(body)]), headers });
  return { status: res.status, etag: res.headers.get("etag"), text: await res.text() };
}

async function media(app: RunningApp, who: Caller, url: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${app.url}${url}`, { headers: { Cookie: who.cookie, ...headers } });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

/** Sends part of a body and then drops the connection (a cut line mid-part). */
function interruptedPut(url: string, total: number, sent: number) {
  return new Promise<void>((resolve) => {
    const req = http.request(url, { method: "PUT", headers: { "Content-Length": String(total) } });
    req.on("error", () => resolve());
    req.write(Buffer.alloc(sent, 7), () => {
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 100);
    });
  });
}

const base = "/api/uploads/s3/multipart";
const q = (key: string) => `?key=${encodeURIComponent(key)}`;

async function multipart(who: Caller, filename: string, type: string, parts: Buffer[], purpose?: string) {
  const created = await who.post(base, { filename, type, metadata: purpose ? { purpose } : {} });
  expect(created.status).toBe(200);
  const { key, uploadId } = created.json as { key: string; uploadId: string };
  const etags: { PartNumber: number; ETag: string }[] = [];
  for (const [i, data] of parts.entries()) {
    const signed = await who.get(`${base}/${uploadId}/${i + 1}${q(key)}`);
    expect(signed.status).toBe(200);
    const res = await put(signed.json.url, data);
    expect(res.status).toBe(200);
    etags.push({ PartNumber: i + 1, ETag: res.etag! });
  }
  const done = await who.post(`${base}/${uploadId}/complete${q(key)}`, { parts: etags });
  return { key, uploadId, done };
}

describe.each(["local", "s3"] as const)("uploads with the %s backend", (backend) => {
  let app: RunningApp;
  let s3: RunningS3 | undefined;
  let alice: Caller;
  let bob: Caller;
  let admin: Caller;

  beforeAll(async () => {
    await useTestDb();
    if (backend === "s3") s3 = await startS3Server();
    app = await startApp({ env: { SESSION_SECRET: env.SESSION_SECRET, ...(s3?.appEnv ?? {}) } });
    alice = await caller(app, "dealer");
    bob = await caller(app, "dealer");
    admin = await caller(app, "admin");
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await s3?.stop();
  });

  /** Single PUT to the upload URL, then the completion call (needed when the PUT went to S3). */
  async function singlePut(who: Caller, filename: string, type: string, data: Buffer, purpose?: string) {
    const res = await who.post("/api/objects/upload", { filename, type, ...(purpose ? { purpose } : {}) });
    expect(res.status).toBe(200);
    const { uploadURL, key, url } = res.json as { uploadURL: string; key: string; url: string };
    const upload = await put(uploadURL, data, { "Content-Type": type });
    const completed = await who.post("/api/objects/complete", { uploadURL });
    return { uploadURL, key, url, upload, completed };
  }

  it("answers 401 to signed-out callers on every upload route", async () => {
    const anon = client(app);
    expect((await anon.post("/api/objects/upload")).status).toBe(401);
    expect((await anon.post(base, { filename: "a.jpg", type: "image/jpeg" })).status).toBe(401);
    expect((await anon.get(`${base}/x${q("k")}`)).status).toBe(401);
    expect((await anon.get(`${base}/x/1${q("k")}`)).status).toBe(401);
    expect((await anon.post(`${base}/x/complete${q("k")}`, { parts: [] })).status).toBe(401);
    expect((await anon.del(`${base}/x${q("k")}`)).status).toBe(401);
    expect((await anon.get("/api/uploads/s3/params?filename=a.jpg")).status).toBe(401);
    expect((await anon.get("/api/uploads/s3/sts")).status).toBe(401);
    expect((await anon.get("/api/objects")).status).toBe(401);
    expect((await anon.get("/media/0123456789abcdef01234567")).status).toBe(401);
  });

  it("single PUT: the spec's body-less call, then the app media URL (owner and admin only)", async () => {
    const bare = await alice.post("/api/objects/upload");
    expect(bare.status).toBe(200);
    expect(bare.json.uploadURL).toMatch(/^https?:\/\//);

    const image = await jpeg();
    const { key, url, upload, completed } = await singlePut(alice, "front bumper.jpg", "image/jpeg", image);
    expect(upload.status).toBe(200);
    expect(key).toMatch(new RegExp(`^uploads/${alice.id}/[0-9a-f]{24}/front_bumper\\.jpg$`));
    expect(completed.status).toBe(200);
    expect(completed.json).toMatchObject({ url, name: "front bumper.jpg", size: image.length, type: "image/jpeg" });
    expect(url).toMatch(/^\/media\/[0-9a-f]{24}$/);

    const mine = await media(app, alice, url);
    expect(mine.status).toBe(200);
    expect(mine.headers.get("cache-control")).toMatch(/^private/);
    expect(mine.headers.get("content-type")).toBe("image/jpeg");
    expect(mine.body.equals(image)).toBe(true);
    expect((await media(app, admin, url)).status).toBe(200);
    expect((await media(app, bob, url)).status).toBe(404);
    expect((await bob.post("/api/objects/complete", { key })).status).toBe(404);

    const listed = await alice.get("/api/objects");
    expect(listed.json.map((f: { url: string }) => f.url)).toContain(url);
    expect((await bob.get("/api/objects")).json).toEqual([]);
  });

  it("answers 415 for the thumbnail of a file that starts like a JPEG but is not one", async () => {
    const fake = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from("<html><script>alert(1)</script></html>")]);
    const { url, completed } = await singlePut(alice, "fake.jpg", "image/jpeg", fake);
    expect(completed.status).toBe(200);
    const thumb = await media(app, alice, `${url}/thumb`);
    expect(thumb.status).toBe(415);
  });

  it("answers 404 for a file whose stored object is gone (the API's JSON for the file, an image for its thumbnail) and logs a warning", async () => {
    const { key, url, completed } = await singlePut(alice, "gone.jpg", "image/jpeg", await jpeg());
    expect(completed.status).toBe(200);
    if (backend === "s3") await s3!.client.send(new DeleteObjectCommand({ Bucket: s3!.bucket, Key: key }));
    else rmSync(path.join(app.dataDir, "objects", key), { recursive: true, force: true });
    const requests: Record<string, string>[] = [{}, { Range: "bytes=0-9" }];
    for (const headers of requests) {
      const file = await media(app, alice, url, headers);
      expect(file.status).toBe(404);
      expect(file.headers.get("content-type")).toMatch(/^application\/json/);
      expect(JSON.parse(file.body.toString())).toEqual({ message: "Upload not found" });
    }
    // A screen's <img>: still a picture (a neutral placeholder), never kept by the browser.
    const thumb = await media(app, alice, `${url}/thumb`);
    expect(thumb.status).toBe(404);
    expect(thumb.headers.get("content-type")).toBe("image/svg+xml");
    expect(thumb.headers.get("cache-control")).toBe("no-store");
    expect(thumb.body.toString()).toMatch(/^<svg /);
    const warnings = app.output().split("\n").filter((line) => line.includes(key) && line.includes('"level":40'));
    expect(warnings.length, app.output().slice(-2000)).toBeGreaterThanOrEqual(3);
    expect(warnings[0]).toContain("stored file is missing");
  });

  it("works with a personal API token too", async () => {
    const token = await tokenFor(alice.id);
    const api = client(app, { token });
    const res = await api.post("/api/objects/upload", { filename: "token.png", type: "image/png" });
    expect(res.status).toBe(200);
    expect((await put(res.json.uploadURL, await png(), { "Content-Type": "image/png" })).status).toBe(200);
    expect((await api.post("/api/objects/complete", { uploadURL: res.json.uploadURL })).json.type).toBe("image/png");
  });

  it("runs the full multipart cycle and serves Range requests on the video", async () => {
    const video = mp4(5 * MiB + 12345);
    const parts = [video.subarray(0, 5 * MiB), video.subarray(5 * MiB)];
    const { key, uploadId, done } = await multipart(alice, "walkaround.mp4", "video/mp4", parts);
    expect(key.startsWith(`uploads/${alice.id}/`)).toBe(true);
    expect(uploadId).toBeTruthy();
    expect(done.status).toBe(200);
    expect(done.json.location).toMatch(/\/media\/[0-9a-f]{24}$/);
    expect(done.json).toMatchObject({ key, size: video.length, type: "video/mp4" });

    const first = await media(app, alice, done.json.url, { Range: "bytes=0-15" });
    expect(first.status).toBe(206);
    expect(first.headers.get("content-range")).toBe(`bytes 0-15/${video.length}`);
    expect(first.headers.get("accept-ranges")).toBe("bytes");
    expect(first.body.equals(video.subarray(0, 16))).toBe(true);
    const middle = await media(app, alice, done.json.url, { Range: `bytes=${5 * MiB - 5}-${5 * MiB + 4}` });
    expect(middle.body.equals(video.subarray(5 * MiB - 5, 5 * MiB + 5))).toBe(true);
    const tail = await media(app, alice, done.json.url, { Range: "bytes=-100" });
    expect(tail.status).toBe(206);
    expect(tail.body.equals(video.subarray(video.length - 100))).toBe(true);
    const open = await media(app, alice, done.json.url, { Range: `bytes=${video.length - 10}-` });
    expect(open.body.length).toBe(10);
    expect((await media(app, alice, done.json.url, { Range: `bytes=${video.length}-` })).status).toBe(416);
    const whole = await media(app, alice, done.json.url);
    expect(whole.status).toBe(200);
    expect(whole.body.equals(video)).toBe(true);

    // The open upload is gone: its parts can no longer be listed or signed.
    expect((await alice.get(`${base}/${uploadId}${q(key)}`)).status).toBe(404);
  });

  it("lists the stored parts after an interrupted part and resumes from there", async () => {
    const video = mov(10 * MiB + 100);
    const created = await alice.post(base, { filename: "trip.mov", type: "video/quicktime" });
    const { key, uploadId } = created.json;
    const sign = async (n: number) => (await alice.get(`${base}/${uploadId}/${n}${q(key)}`)).json.url as string;
    const p1 = await put(await sign(1), video.subarray(0, 5 * MiB));
    expect(p1.status).toBe(200);
    // The line drops half-way through part 2.
    await interruptedPut(await sign(2), 5 * MiB, 2 * MiB);
    const listed = await alice.get(`${base}/${uploadId}${q(key)}`);
    expect(listed.status).toBe(200);
    expect(listed.json.map((p: { PartNumber: number }) => p.PartNumber)).toEqual([1]);
    expect(listed.json[0].ETag.replace(/"/g, "")).toBe(p1.etag!.replace(/"/g, ""));
    expect(listed.json[0].Size).toBe(5 * MiB);
    // Resume: only the missing parts are sent.
    const p2 = await put(await sign(2), video.subarray(5 * MiB, 10 * MiB));
    const p3 = await put(await sign(3), video.subarray(10 * MiB));
    const done = await alice.post(`${base}/${uploadId}/complete${q(key)}`, {
      parts: [
        { PartNumber: 1, ETag: listed.json[0].ETag },
        { PartNumber: 2, ETag: p2.etag },
        { PartNumber: 3, ETag: p3.etag },
      ],
    });
    expect(done.status).toBe(200);
    expect(done.json.type).toBe("video/quicktime");
    expect((await media(app, alice, done.json.url)).body.equals(video)).toBe(true);
  });

  it("signs many parts in one call (Companion's batch signing)", async () => {
    const video = mp4(5 * MiB + 10);
    const created = await alice.post(base, { filename: "batch.mp4", type: "video/mp4" });
    const { key, uploadId } = created.json;
    const batch = await alice.get(`${base}/${uploadId}/batch${q(key)}&partNumbers=1,2`);
    expect(batch.status).toBe(200);
    const urls = batch.json.presignedUrls as Record<string, string>;
    const p1 = await put(urls["1"], video.subarray(0, 5 * MiB));
    const p2 = await put(urls["2"], video.subarray(5 * MiB));
    const done = await alice.post(`${base}/${uploadId}/complete${q(key)}`, {
      parts: [
        { PartNumber: 1, ETag: p1.etag },
        { PartNumber: 2, ETag: p2.etag },
      ],
    });
    expect(done.status).toBe(200);
    expect(done.json.size).toBe(video.length);
    expect((await alice.get(`${base}/${uploadId}/batch${q(key)}`)).status).toBe(400);
    expect((await alice.get(`${base}/${uploadId}/batch${q(key)}&partNumbers=0,1`)).status).toBe(400);
    const other = await alice.post(base, { filename: "other.mp4", type: "video/mp4" });
    expect((await bob.get(`${base}/${other.json.uploadId}/batch${q(other.json.key)}&partNumbers=1`)).status).toBe(404);
  });

  it("aborts a multipart upload and forgets it", async () => {
    const created = await alice.post(base, { filename: "abort.mp4", type: "video/mp4" });
    const { key, uploadId } = created.json;
    const signed = await alice.get(`${base}/${uploadId}/1${q(key)}`);
    expect((await put(signed.json.url, mp4(1000))).status).toBe(200);
    expect((await alice.del(`${base}/${uploadId}${q(key)}`)).status).toBe(200);
    expect((await alice.get(`${base}/${uploadId}${q(key)}`)).status).toBe(404);
    expect((await alice.get(`${base}/${uploadId}/2${q(key)}`)).status).toBe(404);
    expect((await alice.post(`${base}/${uploadId}/complete${q(key)}`, { parts: [{ PartNumber: 1, ETag: "x" }] })).status).toBe(404);
  });

  it("completing is safe to retry: the same answer after success, and finished when the store completed it but the app did not record it", async () => {
    const video = mp4(3000);
    const first = await multipart(alice, "retry.mp4", "video/mp4", [video]);
    expect(first.done.status).toBe(200);
    const again = await alice.post(`${base}/${first.uploadId}/complete${q(first.key)}`, { parts: [{ PartNumber: 1, ETag: "whatever" }] });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.done.json);

    // The store completed it, then the instance died before recording it: the retry finishes it.
    const created = await alice.post(base, { filename: "died.mp4", type: "video/mp4" });
    const { key, uploadId } = created.json as { key: string; uploadId: string };
    const signed = await alice.get(`${base}/${uploadId}/1${q(key)}`);
    const part = await put(signed.json.url, video);
    const parts = [{ PartNumber: 1, ETag: part.etag! }];
    if (backend === "s3") {
      await s3!.client.send(new CompleteMultipartUploadCommand({ Bucket: s3!.bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
    } else {
      await new LocalBackend(path.join(app.dataDir, "objects")).completeMultipart(key, uploadId, parts);
    }
    const retried = await alice.post(`${base}/${uploadId}/complete${q(key)}`, { parts });
    expect(retried.status).toBe(200);
    expect(retried.json).toMatchObject({ key, size: video.length, type: "video/mp4" });
    expect((await media(app, alice, retried.json.url)).body.equals(video)).toBe(true);

    // Aborted at the store (not through the app): neither the open upload nor an object is there.
    const lost = await alice.post(base, { filename: "lost.mp4", type: "video/mp4" });
    const lostPart = await put((await alice.get(`${base}/${lost.json.uploadId}/1${q(lost.json.key)}`)).json.url, video);
    if (backend === "s3") {
      await s3!.client.send(new AbortMultipartUploadCommand({ Bucket: s3!.bucket, Key: lost.json.key, UploadId: lost.json.uploadId }));
    } else {
      await new LocalBackend(path.join(app.dataDir, "objects")).abortMultipart(lost.json.key, lost.json.uploadId);
    }
    const refused = await alice.post(`${base}/${lost.json.uploadId}/complete${q(lost.json.key)}`, { parts: [{ PartNumber: 1, ETag: lostPart.etag! }] });
    // S3 answers NoSuchUpload (409 here) or, as S3Proxy does, NoSuchKey (404); never a 500.
    expect([404, 409]).toContain(refused.status);
    expect(await Upload.exists({ key: lost.json.key, state: "complete" })).toBeNull();
  });

  it("rejects expired and tampered upload URLs", async () => {
    const res = await alice.post("/api/objects/upload", { filename: "late.jpg", type: "image/jpeg" });
    const key = res.json.key as string;
    let expired: string;
    if (backend === "local") {
      expired = `${app.url}${signUrl({ op: "put", key }, -10)}`;
    } else {
      // Signed a minute ago for one second: expired without waiting for it.
      expired = await getSignedUrl(s3!.client, new PutObjectCommand({ Bucket: s3!.bucket, Key: key }), {
        expiresIn: 1,
        signingDate: new Date(Date.now() - 60_000),
      });
    }
    const late = await put(expired, await jpeg());
    expect(late.status).toBe(403);
    expect(late.text).toContain("Request has expired");

    const tampered = new URL(res.json.uploadURL);
    tampered.searchParams.set(backend === "local" ? "key" : "X-Amz-Expires", backend === "local" ? `uploads/${bob.id}/x/y.jpg` : "9999");
    expect((await put(tampered.toString(), await jpeg())).status).toBe(403);
  });

  it("rejects a file whose first bytes are not an allowed type (and deletes it)", async () => {
    const fake = Buffer.from("MZ this is not really a photo, just text pretending to be one");
    const { key, upload, completed } = await singlePut(alice, "fake.jpg", "image/jpeg", fake);
    if (backend === "local") {
      expect(upload.status).toBe(415);
      expect(JSON.parse(upload.text).message).toBe(ONLY_MEDIA);
    } else {
      expect(upload.status).toBe(200);
      expect(completed.status).toBe(415);
      expect(completed.json.message).toBe(ONLY_MEDIA);
      await expect(s3!.client.send(new HeadObjectCommand({ Bucket: s3!.bucket, Key: key }))).rejects.toThrow();
    }
    expect((await alice.post("/api/objects/complete", { key })).status).toBe(404);

    // The same through multipart.
    const { done } = await multipart(alice, "clip.mp4", "video/mp4", [Buffer.from("plain text, no ftyp box here")]);
    expect(done.status).toBe(415);
    expect(done.json.message).toBe(ONLY_MEDIA);

    // Training images take images only; a name with a wrong extension is refused up front.
    const training = await multipart(admin, "photo.jpg", "image/jpeg", [mp4(2000)], "training");
    expect(training.done.status).toBe(415);
    expect(training.done.json.message).toBe("You can only upload: .jpg, .jpeg, .png, .gif");
    const video = await admin.post(base, { filename: "clip.mp4", type: "video/mp4", metadata: { purpose: "training" } });
    expect(video.status).toBe(415);
    const exe = await alice.post("/api/objects/upload", { filename: "setup.exe" });
    expect(exe.status).toBe(415);
    expect(exe.json.message).toBe(ONLY_MEDIA);
  });

  it("rejects a file over the limit of the screen that asked (and deletes it)", async () => {
    const big = Buffer.alloc(10 * MiB + 1, 1);
    (await jpeg()).copy(big, 0);
    const { done, key } = await multipart(admin, "huge photo.jpg", "image/jpeg", [big.subarray(0, 5 * MiB), big.subarray(5 * MiB)], "training");
    expect(done.status).toBe(413);
    expect(done.json.message).toBe("huge photo.jpg exceeds maximum allowed size of 10 MB");
    expect((await admin.post("/api/objects/complete", { key })).status).toBe(404);

    const single = await singlePut(admin, "big.jpg", "image/jpeg", big, "training");
    const answer = backend === "local" ? single.upload : { status: single.completed.status, text: single.completed.text };
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text).message).toBe("big.jpg exceeds maximum allowed size of 10 MB");
  });

  it("answers 404 for another account's key or upload id and for malformed ids", async () => {
    const created = await alice.post(base, { filename: "mine.mp4", type: "video/mp4" });
    const { key, uploadId } = created.json;
    expect((await bob.get(`${base}/${uploadId}${q(key)}`)).status).toBe(404);
    expect((await bob.get(`${base}/${uploadId}/1${q(key)}`)).status).toBe(404);
    expect((await bob.post(`${base}/${uploadId}/complete${q(key)}`, { parts: [{ PartNumber: 1, ETag: "x" }] })).status).toBe(404);
    expect((await bob.del(`${base}/${uploadId}${q(key)}`)).status).toBe(404);
    expect((await admin.get(`${base}/${uploadId}/1${q(key)}`)).status).toBe(404);
    // Alice's key with a made-up upload id, and a made-up key.
    expect((await alice.get(`${base}/not-the-id/1${q(key)}`)).status).toBe(404);
    expect((await alice.get(`${base}/${uploadId}/1${q(`uploads/${alice.id}/x/y.mp4`)}`)).status).toBe(404);
    expect((await alice.get("/media/not-an-id")).status).toBe(404);
    expect((await media(app, alice, "/media/0123456789abcdef01234567")).status).toBe(404);
    expect((await alice.del("/api/objects/not-an-id")).status).toBe(404);
    // Still Alice's to finish.
    expect((await alice.get(`${base}/${uploadId}/1${q(key)}`)).status).toBe(200);
  });

  it("validates multipart input (400s with the spec's wording)", async () => {
    const created = await alice.post(base, { filename: "v.mp4", type: "video/mp4" });
    const { key, uploadId } = created.json;
    const missing = await alice.get(`${base}/${uploadId}/1`);
    expect(missing.status).toBe(400);
    expect(missing.json.message).toBe("Cannot sign without a key, an uploadId, and a partNumber");
    for (const n of ["0", "10001", "abc", "1.5"]) {
      expect((await alice.get(`${base}/${uploadId}/${n}${q(key)}`)).status).toBe(400);
    }
    // No more parts than the screen's size limit needs (every part but the last is at least 5 MiB).
    const lastPart = Math.ceil(UPLOAD_LIMITS.wizard.maxFileSize / (5 * MiB));
    expect((await alice.get(`${base}/${uploadId}/${lastPart}${q(key)}`)).status).toBe(200);
    const beyond = await alice.get(`${base}/${uploadId}/${lastPart + 1}${q(key)}`);
    expect(beyond.status).toBe(413);
    expect((await alice.get(`${base}/${uploadId}/batch?key=${encodeURIComponent(key)}&partNumbers=1,${lastPart + 1}`)).status).toBe(413);
    const manyNumbers = Array.from({ length: 101 }, (_, i) => i + 1).join(",");
    expect((await alice.get(`${base}/${uploadId}/batch?key=${encodeURIComponent(key)}&partNumbers=${manyNumbers}`)).status).toBe(400);
    expect((await alice.post(base, { type: "video/mp4" })).status).toBe(400);
    expect((await alice.post(base, { filename: { $gt: "" }, type: "video/mp4" })).status).toBe(400);
    expect((await alice.post(`${base}/${uploadId}/complete${q(key)}`, { parts: "all" })).status).toBe(400);
    expect((await alice.post(`${base}/${uploadId}/complete`, { parts: [] })).status).toBe(400);
    expect((await alice.get(`${base}/${uploadId}`)).status).toBe(400);

    // Every part but the last must be at least 5 MB.
    const small = await multipart(alice, "small.mp4", "video/mp4", [mp4(1000), mp4(1000)]);
    expect(small.done.status).toBe(400);
  });

  it("makes its own keys from path-like file names", async () => {
    for (const name of ["../../etc/passwd.jpg", "..\\..\\windows\\win.png", "/abs/dir/.hidden.gif", "we/ird name ü.mp4"]) {
      const res = await alice.post(base, { filename: name, type: "image/jpeg" });
      expect(res.status).toBe(200);
      expect(res.json.key).toMatch(new RegExp(`^uploads/${alice.id}/[0-9a-f]{24}/[A-Za-z0-9][A-Za-z0-9._-]*$`));
      expect(res.json.key).not.toContain("..");
    }
    const single = await singlePut(alice, "../../../../tmp/evil.jpg", "image/jpeg", await jpeg());
    expect(single.key).toMatch(/\/evil\.jpg$/);
    expect(single.completed.json.name).toBe("evil.jpg");
    if (backend === "local") {
      // Nothing beside the uploads (and the thumbnails cache, if a thumbnail was made before).
      expect(readdirSync(path.join(app.dataDir, "objects")).filter((n) => !n.startsWith(".") && n !== "thumbs")).toEqual(["uploads"]);
    }
  });

  it("offers Companion's s3/params (form POST) and answers s3/sts with 404 (not offered)", async () => {
    const params = await alice.get("/api/uploads/s3/params?filename=door.png&type=image%2Fpng&metadata%5Bpurpose%5D=dashboard");
    expect(params.status).toBe(200);
    expect(params.json.method).toBe("POST");
    expect(params.json.fields.key).toMatch(/^uploads\/.*\/door\.png$/);
    const form = new FormData();
    for (const [k, v] of Object.entries(params.json.fields as Record<string, string>)) form.append(k, v);
    form.append("file", new Blob([await png()], { type: "image/png" }), "door.png");
    const posted = await fetch(params.json.url, { method: "POST", body: form });
    expect(posted.status).toBe(200);
    const body = await posted.json();
    expect(body.url).toMatch(/^\/media\//);
    expect((await media(app, alice, body.url)).headers.get("content-type")).toBe("image/png");

    const sts = await alice.get("/api/uploads/s3/sts");
    expect(sts.status).toBe(404);
    expect(sts.json.message).toMatch(/not configured/);
  });

  it("lists the wizard's files in the order they were picked (the widget's pickedAt), whichever upload started first", async () => {
    const carol = await caller(app, "dealer");
    const picked = Date.now() - 5000;
    // The widget uploads in parallel: the second file picked may start (and finish) first.
    const start = (name: string, at: number) =>
      carol.get(`/api/uploads/s3/params?${new URLSearchParams({ filename: name, type: "image/png", "metadata[purpose]": "wizard", "metadata[pickedAt]": String(at) })}`);
    const second = await start("second-picked.png", picked + 1);
    const first = await start("first-picked.png", picked);
    for (const [params, name] of [[second, "second-picked.png"], [first, "first-picked.png"]] as const) {
      expect(params.status).toBe(200);
      const form = new FormData();
      for (const [k, v] of Object.entries(params.json.fields as Record<string, string>)) form.append(k, v);
      form.append("file", new Blob([await png()], { type: "image/png" }), name);
      expect((await fetch(params.json.url, { method: "POST", body: form })).status).toBe(200);
    }
    const page = (await carol.get("/upload")).text;
    expect(page.indexOf("first-picked.png")).toBeGreaterThan(0);
    expect(page.indexOf("first-picked.png")).toBeLessThan(page.indexOf("second-picked.png"));
  });

  it("checks each photo as it arrives: a blurred one is kept, with its warning on the wizard's list and in the API", async () => {
    const dave = await caller(app, "dealer");
    const car = await sharp(Buffer.from(vehicleSvg({ shape: "sedan", angle: "left", colour: "red" })), { density: 288 }).png().toBuffer();
    const sharpPhoto = await sharp(car).jpeg({ quality: 85 }).toBuffer();
    const blurred = await sharp(car).blur(3).jpeg({ quality: 85 }).toBuffer();
    for (const [name, bytes] of [["sharp-door.jpg", sharpPhoto], ["shaky-door.jpg", blurred]] as const) {
      const params = await dave.get(`/api/uploads/s3/params?${new URLSearchParams({ filename: name, type: "image/jpeg", "metadata[purpose]": "wizard" })}`);
      expect(params.status).toBe(200);
      const form = new FormData();
      for (const [k, v] of Object.entries(params.json.fields as Record<string, string>)) form.append(k, v);
      form.append("file", new Blob([new Uint8Array(bytes)], { type: "image/jpeg" }), name);
      expect((await fetch(params.json.url, { method: "POST", body: form })).status).toBe(200);
    }
    const listed = (await dave.get("/api/objects")).json as { name: string; quality?: string[] }[];
    expect(listed.map((f) => [f.name, f.quality])).toEqual([
      ["sharp-door.jpg", []],
      ["shaky-door.jpg", ["blurred"]],
    ]);
    const page = (await dave.get("/upload")).text;
    expect(page.split("Blurred: retake it if the damage is hard to see.")).toHaveLength(2);
    expect(page.indexOf("Blurred: retake it")).toBeGreaterThan(page.indexOf("shaky-door.jpg"));
  });

  it("serves EXIF-free thumbnails of images", async () => {
    const photo = await jpeg({ width: 1200, height: 800, gps: true });
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const { url } = await singlePut(alice, "gps.jpg", "image/jpeg", photo);
    const thumb = await media(app, alice, `${url}/thumb`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get("content-type")).toBe("image/jpeg");
    const meta = await sharp(thumb.body).metadata();
    expect(meta.exif).toBeUndefined();
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(480);
    expect((await media(app, bob, `${url}/thumb`)).status).toBe(404);
    // Cached on the second call.
    expect((await media(app, alice, `${url}/thumb`)).body.equals(thumb.body)).toBe(true);
  });

  it("no-JS form: streams files into storage, keeps the good ones and reports the rest", async () => {
    const carol = await caller(app, "vendor");
    const oversize = Buffer.alloc(52428800 + 1, 3);
    (await jpeg()).copy(oversize, 0);
    const form = new FormData();
    form.append("files", new Blob([new Uint8Array(oversize)], { type: "image/jpeg" }), "huge.jpg");
    form.append("files", new Blob([new Uint8Array(Buffer.from("not a picture"))], { type: "image/png" }), "fake.png");
    form.append("files", new Blob([new Uint8Array(await jpeg())], { type: "image/jpeg" }), "../../good.jpg");
    const res = await fetch(`${app.url}/upload?purpose=dashboard&redirectTo=/`, {
      method: "POST",
      body: form,
      headers: { Cookie: carol.cookie },
      redirect: "manual",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/?upload=1");
    const listed = await carol.get("/api/objects");
    expect(listed.json.map((f: { name: string }) => f.name)).toEqual(["good.jpg"]);
    expect(listed.json[0].url).toMatch(/^\/media\//);
    // The flashed toast names both problems in the widget's words.
    const page = await fetch(`${app.url}/`, { headers: { Cookie: carol.cookie } });
    const html = await page.text();
    expect(html).toContain("huge.jpg exceeds maximum allowed size of 50 MB");
    expect(html).toContain(ONLY_MEDIA);
  });

  it("removes an uploaded file from the list", async () => {
    const { url } = await singlePut(alice, "remove-me.jpg", "image/jpeg", await jpeg());
    const id = url.split("/").pop();
    expect((await bob.del(`/api/objects/${id}`)).status).toBe(404);
    expect((await alice.del(`/api/objects/${id}`)).status).toBe(200);
    expect((await media(app, alice, url)).status).toBe(404);
    if (backend === "s3") {
      const key = `uploads/${alice.id}/${id}/remove-me.jpg`;
      await expect(s3!.client.send(new GetObjectCommand({ Bucket: s3!.bucket, Key: key }))).rejects.toThrow();
    }
  });

  it("keeps the wizard's list to 20 files, however many uploads were started", async () => {
    const carol = await caller(app, "dealer");
    // 18 files already listed (written directly: the point is the 19th to 21st).
    for (let i = 0; i < 18; i++) {
      const _id = newUploadId();
      await createUploadRecord({ _id, ownerId: carol.id, key: `uploads/${carol.id}/${_id}/old-${i}.jpg`, originalName: `old-${i}.jpg`, contentType: "image/jpeg", purpose: "wizard", draft: true });
      await markUploadComplete(_id, { size: 10, contentType: "image/jpeg" });
    }
    // Two started together both pass the first check; the second to complete is refused and removed.
    const a = await carol.post("/api/objects/upload", { filename: "a.jpg", type: "image/jpeg", purpose: "dashboard" });
    const b = await carol.post("/api/objects/upload", { filename: "b.jpg", type: "image/jpeg" });
    const c = await carol.post("/api/objects/upload", { filename: "c.jpg", type: "image/jpeg" });
    expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
    for (const started of [a, b]) {
      expect((await put(started.json.uploadURL, await jpeg(), { "Content-Type": "image/jpeg" })).status).toBe(200);
      if (backend === "s3") expect((await carol.post("/api/objects/complete", { uploadURL: started.json.uploadURL })).status).toBe(200);
    }
    if (backend === "local") {
      const refused = await put(c.json.uploadURL, await jpeg(), { "Content-Type": "image/jpeg" });
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.text).message).toBe("You can only upload 20 file(s)");
    } else {
      expect((await put(c.json.uploadURL, await jpeg(), { "Content-Type": "image/jpeg" })).status).toBe(200);
      const refused = await carol.post("/api/objects/complete", { uploadURL: c.json.uploadURL });
      expect(refused.status).toBe(400);
      expect(refused.json.message).toBe("You can only upload 20 file(s)");
    }
    expect((await carol.get("/api/objects")).json).toHaveLength(20);

    // Full: no new upload starts, by any route; training images do not count.
    for (const res of [
      await carol.post("/api/objects/upload", { filename: "d.jpg", type: "image/jpeg" }),
      await carol.post(base, { filename: "d.mp4", type: "video/mp4" }),
      await carol.get(`/api/uploads/s3/params?filename=d.jpg&type=image%2Fjpeg`),
    ]) {
      expect(res.status).toBe(400);
      expect(res.json.message).toBe("You can only upload 20 file(s)");
    }
    // Training images are for admins only (they skip the list's cap).
    const training = await carol.post("/api/objects/upload", { filename: "t.jpg", type: "image/jpeg", purpose: "training" });
    expect(training.status).toBe(403);
    expect(training.json.message).toBe("Only admins can upload AI training images");

    // Removing one makes room again.
    expect((await carol.del(`/api/objects/${a.json.id}`)).status).toBe(200);
    expect((await carol.post("/api/objects/upload", { filename: "e.jpg", type: "image/jpeg" })).status).toBe(200);
  });
});
