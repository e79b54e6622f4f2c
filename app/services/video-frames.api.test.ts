import ffmpegInstaller from "@ffmpeg-installer/ffmpeg";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Assessment } from "~/models/assessment.server";
import { client, createTestUser, signIn, tokenFor } from "../../tests/accounts";
import { startApp, type RunningApp } from "../../tests/app-server";
import { startOpenAiTestServer, type OpenAiTestServer } from "../../tests/openai-server";
import { startS3Server, type RunningS3 } from "../../tests/s3-server";
import { useTestDb } from "../../tests/test-db";
import { uploadMedia } from "../../tests/uploads";

// Issue 37 item 6: a video's estimate shows the frames its analysis looked at (docs/decisions/0003),
// over HTTP against the built app: kept as the owner's media, named by the damages seen on them,
// on the customer's page, its photos and the PDF; gone with the assessment; re-imported only where
// they resolve.

type Client = ReturnType<typeof client>;
let app: RunningApp;
let ai: OpenAiTestServer;
let video: Buffer;
const dir = mkdtempSync(path.join(os.tmpdir(), "video-frames-test-"));

const DENT = { damageType: "dent", location: "front", severity: "moderate", description: "Dent in the front bumper", confidence: 0.82, photo: 2 };
const SCRATCH = { damageType: "scratch", location: "left", severity: "minor", description: "Scratch on the door", confidence: 0.7, photo: 5 };

beforeAll(async () => {
  await useTestDb();
  ai = await startOpenAiTestServer();
  app = await startApp({ env: { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: ai.baseURL, OPENAI_MODEL: "vision-test", ANALYSIS_ATTEMPTS: "1" } });
  // A 3-second test pattern whose frames differ (a moving counter), made by the app's own ffmpeg.
  const file = path.join(dir, "walkaround.mp4");
  execFileSync(ffmpegInstaller.path, ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=duration=3:size=640x360:rate=10", "-c:v", "mpeg4", "-y", file]);
  video = readFileSync(file);
});
afterAll(async () => {
  await app?.stop();
  await ai?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function dealer(on = app) {
  const user = await createTestUser({ role: "dealer" });
  return { id: user.id, who: client(on, { cookie: await signIn(on, user.username, user.password) }), token: await tokenFor(user.id) };
}

/** GET with the raw bytes (the JSON client reads text). */
async function raw(url: string, token?: string, on = app) {
  const res = await fetch(`${on.url}${url}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  return { status: res.status, type: res.headers.get("content-type"), bytes: Buffer.from(await res.arrayBuffer()) };
}

/** A video-only assessment of `owner`, analysed: the provider saw frame 2 and frame 5 damaged. */
async function analysedVideo(owner: Client) {
  const videoUrl = await uploadMedia(owner, { name: "walkaround.mp4", type: "video/mp4", bytes: video });
  const created = await owner.post("/api/assessments", { title: "Walk-around video", mediaUrls: [videoUrl] });
  expect(created.status, created.text).toBe(201);
  ai.script({ json: { damages: [DENT, SCRATCH], summary: "A dent and a scratch.", confidence: 0.8 } });
  const analysed = await owner.post(`/api/assessments/${created.json.id}/analyze`);
  expect(analysed.json.status, JSON.stringify(analysed.json)).toBe("completed");
  return { id: created.json.id as string, videoUrl, assessment: analysed.json };
}

const hasImage = (pdf: Buffer) => pdf.toString("latin1").includes("/Subtype /Image");

describe("a video's frames", { timeout: 60_000 }, () => {
  it("are kept as the owner's media, and each damage names the frame it was seen on", async () => {
    const a = await dealer();
    const { videoUrl, assessment } = await analysedVideo(a.who);
    const frames = assessment.videoFrames as { mediaUrl: string; videoUrl: string; at: number }[];
    expect(frames.map((f) => f.at)).toEqual([0.25, 0.75, 1.25, 1.75, 2.25, 2.75]);
    expect(frames.every((f) => f.videoUrl === videoUrl && f.mediaUrl !== videoUrl)).toBe(true);
    expect(assessment.damages.map((d: { mediaUrl: string }) => d.mediaUrl)).toEqual([frames[1].mediaUrl, frames[4].mediaUrl]);
    const frame = await raw(frames[1].mediaUrl, a.token);
    expect(frame.status).toBe(200);
    expect(frame.type).toBe("image/jpeg");
    expect(await sharp(frame.bytes).metadata()).toMatchObject({ format: "jpeg", width: 640, height: 360 });
    // The dealer's estimate detail names the video file a damage was seen on.
    const detail = await a.who.get(`/estimates?view=${assessment.id}`);
    expect(detail.status).toBe(200);
    expect(detail.text).toMatch(/data-label="Photo">Photo 1</);
    expect(detail.text).not.toContain("Photo not stated");
    // Another account cannot read them.
    const b = await dealer();
    expect((await raw(frames[1].mediaUrl, b.token)).status).toBe(404);
  });

  it("show on the customer's page, its photos and the PDF, numbered with their time and damages", async () => {
    const a = await dealer();
    const { id } = await analysedVideo(a.who);
    const link = await a.who.post(`/api/assessments/${id}/links`);
    expect(link.status, link.text).toBe(201);
    const token = link.json.token as string;
    const page = await raw(`/e/${token}`);
    const html = page.bytes.toString("utf8");
    expect(page.status).toBe(200);
    for (let n = 0; n < 6; n++) expect(html).toContain(`/e/${token}/photos/${n}"`);
    expect(html).not.toContain(`/e/${token}/photos/6"`);
    expect(html).toContain("Frame 2 · 0:00.8 · Damage 1");
    expect(html).toContain("Frame 5 · 0:02.3 · Damage 2");
    expect(html).toContain('alt="Frame 1 of the video, at 0:00.3"');

    const photo = await raw(`/e/${token}/photos/1`);
    expect(photo.status).toBe(200);
    expect(photo.type).toBe("image/jpeg");
    expect((await sharp(photo.bytes).metadata()).format).toBe("jpeg");
    expect((await raw(`/e/${token}/photos/6`)).status).toBe(404);

    const linkPdf = await raw(`/e/${token}/pdf`);
    expect(linkPdf.status).toBe(200);
    expect(hasImage(linkPdf.bytes)).toBe(true);
    const apiPdf = await raw(`/api/assessments/${id}/estimate.pdf`, a.token);
    expect(apiPdf.status).toBe(200);
    expect(hasImage(apiPdf.bytes)).toBe(true);
  });

  it("an estimate whose video has no kept frames (analysed before) shows no broken image", async () => {
    const a = await dealer();
    const { id } = await analysedVideo(a.who);
    await Assessment.updateOne({ _id: id }, { $set: { videoFrames: [] } });
    const token = (await a.who.post(`/api/assessments/${id}/links`)).json.token as string;
    const html = (await raw(`/e/${token}`)).bytes.toString("utf8");
    expect(html).not.toContain("/photos/");
    expect((await raw(`/e/${token}/photos/0`)).status).toBe(404);
    expect(hasImage((await raw(`/e/${token}/pdf`)).bytes)).toBe(false);
  });

  it("go with their assessment", async () => {
    const a = await dealer();
    const { id, videoUrl, assessment } = await analysedVideo(a.who);
    const frames = assessment.videoFrames as { mediaUrl: string }[];
    expect((await a.who.del(`/api/assessments/${id}`)).status).toBe(200);
    for (const f of frames) expect((await raw(f.mediaUrl, a.token)).status).toBe(404);
    expect((await raw(videoUrl, a.token)).status).toBe(404);
  });

  it("a new analysis replaces them: the earlier frames are removed", async () => {
    const a = await dealer();
    const { id, assessment } = await analysedVideo(a.who);
    expect((await a.who.post(`/api/assessments/${id}/reject`, { note: "Look again" })).status).toBe(200);
    ai.script({ json: { damages: [DENT], summary: "A dent.", confidence: 0.8 } });
    const again = (await a.who.post(`/api/assessments/${id}/analyze`)).json;
    expect(again.status).toBe("completed");
    const before = (assessment.videoFrames as { mediaUrl: string }[]).map((f) => f.mediaUrl);
    const after = (again.videoFrames as { mediaUrl: string }[]).map((f) => f.mediaUrl);
    expect(after).toHaveLength(6);
    expect(after.filter((url) => before.includes(url))).toEqual([]);
    expect(again.damages[0].mediaUrl).toBe(after[1]);
    for (const url of before) expect((await raw(url, a.token)).status).toBe(404);
    for (const url of after) expect((await raw(url, a.token)).status).toBe(200);
  });

  it("re-import where they resolve: back into their account they stay, into another they are dropped", async () => {
    const a = await dealer();
    const { id, assessment } = await analysedVideo(a.who);
    const frames = assessment.videoFrames as { mediaUrl: string }[];
    const archive = Buffer.from(await (await fetch(`${app.url}/api/account/export`, { headers: { Authorization: `Bearer ${a.token}` } })).arrayBuffer());
    const importInto = async (token: string) => {
      const res = await fetch(`${app.url}/api/account/import`, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/gzip" }, body: new Uint8Array(archive) });
      expect(res.status).toBe(200);
      return res.json();
    };
    // Into another account: neither the video nor its frames are its uploads.
    const b = await dealer();
    await importInto(b.token);
    const copy = await Assessment.findOne({ ownerId: b.id }).lean();
    expect(copy).toMatchObject({ mediaUrls: [], videoFrames: [] });
    expect(copy!.damages.every((d) => d.mediaUrl === undefined)).toBe(true);
    // Back into its own account (the record lost meanwhile, its media still stored): the frames stay.
    await Assessment.deleteOne({ _id: id });
    await importInto(a.token);
    const back = await Assessment.findOne({ ownerId: a.id }).lean();
    expect(back!.videoFrames.map((f) => f.mediaUrl)).toEqual(frames.map((f) => f.mediaUrl));
    expect(back!.damages.map((d) => d.mediaUrl)).toEqual([frames[1].mediaUrl, frames[4].mediaUrl]);
  });
});

describe("a video's frames with the S3 backend", () => {
  let s3: RunningS3;
  let s3App: RunningApp;
  beforeAll(async () => {
    // Both apps share this file's database, and an analysis runs on whichever instance claims its job:
    // the disk-backed app could take this one and not find its video in the bucket. Instances of one
    // deployment share a storage backend; stop the other.
    await app.stop();
    s3 = await startS3Server();
    s3App = await startApp({ env: { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: ai.baseURL, OPENAI_MODEL: "vision-test", ANALYSIS_ATTEMPTS: "1", ...s3.appEnv } });
  }, 120_000);
  afterAll(async () => {
    await s3App?.stop();
    await s3?.stop();
  });

  it("are objects in the bucket, served on the customer's page like any photo", { timeout: 60_000 }, async () => {
    const a = await dealer(s3App);
    const { id, assessment } = await analysedVideo(a.who);
    const listed = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `uploads/${a.id}/` }));
    const keys = (listed.Contents ?? []).map((o) => o.Key ?? "");
    for (const f of assessment.videoFrames as { mediaUrl: string }[]) expect(keys.some((k) => k.includes(`/${f.mediaUrl.slice("/media/".length)}/frame-`))).toBe(true);
    const token = (await a.who.post(`/api/assessments/${id}/links`)).json.token as string;
    const photo = await raw(`/e/${token}/photos/1`, undefined, s3App);
    expect(photo.status).toBe(200);
    expect(photo.type).toBe("image/jpeg");
  });
});
