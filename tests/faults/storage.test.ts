import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { env } from "~/utils/env.server";
import { Upload } from "~/models/upload.server";
import { client, createTestUser, signIn } from "../accounts";
import { startApp, type RunningApp } from "../app-server";
import { jpeg, mp4 } from "../media-files";
import { startS3Server, type RunningS3 } from "../s3-server";
import { useTestDb } from "../test-db";

const base = "/api/uploads/s3/multipart";
const q = (key: string) => `?key=${encodeURIComponent(key)}`;
const MiB = 1024 * 1024;

async function putPart(url: string, body: Buffer) {
  const res = await fetch(url, { method: "PUT", body: new Uint8Array(body) });
  expect(res.status).toBe(200);
  return res.headers.get("etag")!;
}

describe("object storage faults (S3 backend)", () => {
  let s3: RunningS3;
  let app: RunningApp;
  let appEnv: Record<string, string>;
  let user: { username: string; password: string; id: string };

  beforeAll(async () => {
    await useTestDb();
    s3 = await startS3Server();
    // The same secret and bucket for every app started here: a restarted app is the same deployment.
    appEnv = { SESSION_SECRET: env.SESSION_SECRET, ...s3.appEnv };
    app = await startApp({ env: appEnv });
    user = await createTestUser({ role: "dealer" });
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await s3?.stop();
  });

  const dealer = async () => client(app, { cookie: await signIn(app, user.username, user.password) });

  it("a multipart upload survives the app being killed between parts: the next app lists the part sent and completes it", async () => {
    const who = await dealer();
    const video = mp4(6 * MiB);
    const created = await who.post(base, { filename: "walkaround.mp4", type: "video/mp4" });
    expect(created.status).toBe(200);
    const { key, uploadId } = created.json as { key: string; uploadId: string };
    const first = await who.get(`${base}/${uploadId}/1${q(key)}`);
    const etag1 = await putPart(first.json.url, video.subarray(0, 5 * MiB));

    app.process.kill("SIGKILL");
    await app.stop();
    app = await startApp({ env: appEnv });
    const again = await dealer();

    // What Uppy asks when it resumes: the parts the storage already has.
    const listed = await again.get(`${base}/${uploadId}${q(key)}`);
    expect(listed.status).toBe(200);
    expect(listed.json).toEqual([expect.objectContaining({ PartNumber: 1, Size: 5 * MiB })]);
    const second = await again.get(`${base}/${uploadId}/2${q(key)}`);
    const etag2 = await putPart(second.json.url, video.subarray(5 * MiB));
    const done = await again.post(`${base}/${uploadId}/complete${q(key)}`, {
      parts: [
        { PartNumber: 1, ETag: etag1 },
        { PartNumber: 2, ETag: etag2 },
      ],
    });
    expect(done.status).toBe(200);
    const served = await fetch(`${app.url}${done.json.url}`, { headers: { Cookie: await signIn(app, user.username, user.password) } });
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(video)).toBe(true);
  }, 90_000);

  it("storage down: 503 with Retry-After, nothing recorded as uploaded; back up: the same upload completes", async () => {
    const who = await dealer();
    const photo = await jpeg();
    const started = await who.post("/api/objects/upload", { filename: "dent.jpg", type: "image/jpeg" });
    expect(started.status).toBe(200);
    const { uploadURL } = started.json as { uploadURL: string };
    expect((await fetch(uploadURL, { method: "PUT", body: new Uint8Array(photo), headers: { "Content-Type": "image/jpeg" } })).status).toBe(200);

    const counts = async () => ({
      all: await Upload.countDocuments({ ownerId: user.id }),
      complete: await Upload.countDocuments({ ownerId: user.id, state: "complete" }),
    });
    const before = await counts();

    await s3.takeDown();
    try {
      const completed = await who.post("/api/objects/complete", { uploadURL });
      expect(completed.status).toBe(503);
      expect(completed.headers.get("retry-after")).toBeTruthy();
      const multipart = await who.post(base, { filename: "walkaround.mp4", type: "video/mp4" });
      expect(multipart.status).toBe(503);
      // A stored file cannot be served either: the same answer, not a 500.
      const stored = await Upload.findOne({ ownerId: user.id, state: "complete" }).lean();
      if (stored) {
        const media = await fetch(`${app.url}/media/${String(stored._id)}`, { headers: { Cookie: await signIn(app, user.username, user.password) } });
        expect(media.status).toBe(503);
      }
      // Neither the refused completion nor the refused start left a record behind.
      expect(await counts()).toEqual(before);
    } finally {
      await s3.bringUp();
    }
    const completed = await who.post("/api/objects/complete", { uploadURL });
    expect(completed.status).toBe(200);
    expect(await counts()).toEqual({ all: before.all, complete: before.complete + 1 });
  }, 90_000);
});
