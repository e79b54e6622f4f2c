import ffmpegInstaller from "@ffmpeg-installer/ffmpeg";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_SIDE, downscaleImage, extractVideoFrames, toAnalysisPhotos } from "./media.server";

const dir = mkdtempSync(path.join(os.tmpdir(), "media-test-"));
let video: Buffer;

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 4, background: { r: 200, g: 30, b: 30, alpha: 0.5 } } }).png().toBuffer();

describe("analysis media", () => {
  beforeAll(() => {
    // A 3-second test pattern (its frames differ: a moving counter), made by the same ffmpeg binary.
    const file = path.join(dir, "clip.mp4");
    execFileSync(ffmpegInstaller.path, ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=duration=3:size=1280x720:rate=10", "-c:v", "mpeg4", "-y", file]);
    video = readFileSync(file);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("downscales a large image to a JPEG of at most 1024 px, keeping its proportions", async () => {
    const out = await downscaleImage(await png(3000, 1500));
    const meta = await sharp(out).metadata();
    expect(meta).toMatchObject({ format: "jpeg", width: MAX_SIDE, height: 512 });
  });

  it("keeps a small image's size (no enlargement)", async () => {
    const meta = await sharp(await downscaleImage(await png(300, 200))).metadata();
    expect(meta).toMatchObject({ format: "jpeg", width: 300, height: 200 });
  });

  it("extracts 6 evenly spaced, different, downscaled frames from a video", async () => {
    const frames = await extractVideoFrames(video);
    expect(frames).toHaveLength(6);
    for (const frame of frames) expect(await sharp(frame.bytes).metadata()).toMatchObject({ format: "jpeg", width: 1024, height: 576 });
    expect(new Set(frames.map((f) => f.bytes.toString("base64"))).size).toBe(6);
    expect(frames.map((f) => f.at)).toEqual([0.25, 0.75, 1.25, 1.75, 2.25, 2.75]);
  });

  it("turns images and videos into photos, a video's frames carrying its media URL", async () => {
    const photos = await toAnalysisPhotos([
      { mediaUrl: "/media/a", contentType: "image/png", bytes: await png(2000, 2000) },
      { mediaUrl: "/media/b", contentType: "video/mp4", bytes: video },
    ]);
    expect(photos.map((p) => p.mediaUrl)).toEqual(["/media/a", ...Array(6).fill("/media/b")]);
    expect(photos.every((p) => p.contentType === "image/jpeg")).toBe(true);
  });

  it("says which file could not be read, and refuses other types", async () => {
    await expect(toAnalysisPhotos([{ mediaUrl: "/media/bad", contentType: "video/mp4", bytes: Buffer.from("not a video") }])).rejects.toThrow(
      /^Could not read the video \/media\/bad: .*invalid data/i,
    );
    await expect(toAnalysisPhotos([{ mediaUrl: "/media/img", contentType: "image/jpeg", bytes: Buffer.from("nope") }])).rejects.toThrow(
      /^Could not read the image \/media\/img/,
    );
    await expect(toAnalysisPhotos([{ mediaUrl: "/media/doc", contentType: "application/pdf", bytes: Buffer.from("%PDF") }])).rejects.toThrow(
      "Cannot analyse /media/doc: application/pdf is neither an image nor a video",
    );
  });

  it("bounds the time ffmpeg may take, and stops when aborted", async () => {
    await expect(extractVideoFrames(video, { timeoutMs: 1 })).rejects.toThrow("Reading the video took too long");
    const controller = new AbortController();
    controller.abort(new Error("stopped"));
    await expect(extractVideoFrames(video, { signal: controller.signal })).rejects.toThrow("stopped");
  });
});
