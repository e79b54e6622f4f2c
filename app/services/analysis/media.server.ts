import ffmpegInstaller from "@ffmpeg-installer/ffmpeg";
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import type { AnalysisPhoto } from "./types";
import { MAX_DECODED_PIXELS } from "~/schemas/upload-limits";
import { errorMessage } from "~/utils/unknown-values";

/** The longest side of what a provider sees: enough for damage, small enough to send as a data URL. */
export const MAX_SIDE = 1024;
export const MAX_VIDEO_FRAMES = 6;
const FFMPEG_TIMEOUT_MS = 60_000;

export interface MediaFile {
  mediaUrl: string;
  contentType: string;
  bytes: Buffer;
}

/** A JPEG copy of an image, turned upright and downscaled to at most MAX_SIDE on its longest side. */
export async function downscaleImage(bytes: Buffer) {
  return sharp(bytes, { limitInputPixels: MAX_DECODED_PIXELS })
    .rotate()
    .resize(MAX_SIDE, MAX_SIDE, { fit: "inside", withoutEnlargement: true })
    .flatten({ background: "#ffffff" })
    .jpeg({ quality: 82 })
    .toBuffer();
}

/** Runs ffmpeg with arguments (no shell); answers stdout and stderr, rejects on failure, timeout or abort. */
function ffmpeg(args: string[], { deadline, signal }: { deadline: number; signal?: AbortSignal }) {
  return new Promise<{ stdout: Buffer; stderr: string }>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const child = spawn(ffmpegInstaller.path, ["-hide_banner", "-nostdin", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    let stderr = "";
    let failure: unknown = null;
    const kill = (reason: unknown) => {
      failure ??= reason;
      child.kill("SIGKILL");
    };
    const timer = setTimeout(() => kill(new Error("Reading the video took too long")), Math.max(0, deadline - Date.now()));
    const onAbort = () => kill(signal?.reason);
    signal?.addEventListener("abort", onAbort);
    child.stdout.on("data", (d: Buffer) => out.push(d));
    // Only the end of ffmpeg's log matters (the error, or the input's description): keep it bounded.
    child.stderr.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-16_384)));
    child.on("error", (error) => kill(error));
    child.on("close", () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      if (failure) reject(failure);
      else resolve({ stdout: Buffer.concat(out), stderr });
    });
  });
}

/** The duration in seconds ffmpeg reports for an input, or null when it does not know. */
const durationIn = (log: string) => {
  const m = /Duration: (\d+):(\d\d):(\d\d(?:\.\d+)?)/.exec(log);
  return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : null;
};

/**
 * Up to `count` JPEG frames (≤ MAX_SIDE), each with its time in seconds, evenly spread over a video: the middles of `count` equal
 * stretches, so neither a black first frame nor a fade-out is chosen. The video is written to a
 * private temporary file (ffmpeg must seek in it) that is removed afterwards; everything is bounded
 * by `timeoutMs`. A video ffmpeg cannot read is an Error saying so.
 */
export async function extractVideoFrames(bytes: Buffer, { count = MAX_VIDEO_FRAMES, timeoutMs = FFMPEG_TIMEOUT_MS, signal }: { count?: number; timeoutMs?: number; signal?: AbortSignal } = {}) {
  const deadline = Date.now() + timeoutMs;
  const dir = await mkdtemp(path.join(os.tmpdir(), "damageiq-video-"));
  try {
    const input = path.join(dir, "input");
    await writeFile(input, bytes, { mode: 0o600 });
    // `-i` alone describes the input (and exits 1 for want of an output): the duration is in its log.
    const probe = await ffmpeg(["-i", input], { deadline, signal });
    const duration = durationIn(probe.stderr);
    const times = duration && duration > 0 ? Array.from({ length: count }, (_, i) => ((i + 0.5) * duration) / count) : [0];
    const frames: { bytes: Buffer; at: number }[] = [];
    let complaint = "no frames found";
    for (const t of times) {
      const { stdout, stderr } = await ffmpeg(
        ["-ss", t.toFixed(3), "-i", input, "-frames:v", "1", "-an", "-f", "image2pipe", "-c:v", "mjpeg", "-q:v", "3", "pipe:1"],
        { deadline, signal },
      );
      // A seek past a stream's real end (an inexact duration) gives no frame: the others still count.
      if (stdout.length > 0) frames.push({ bytes: await downscaleImage(stdout), at: Math.round(t * 1000) / 1000 });
      else complaint = stderr.trim().split("\n").pop()?.replaceAll(input, "input") || complaint;
    }
    if (frames.length === 0) throw new Error(`Could not read the video: ${complaint}`);
    return frames;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * What the providers look at: every image as a downscaled JPEG, every video as up to
 * MAX_VIDEO_FRAMES frames (each carrying the video's media URL and its time). Other types are an Error.
 */
export async function toAnalysisPhotos(
  media: MediaFile[],
  { signal, videoTimeoutMs, framesPerVideo = MAX_VIDEO_FRAMES }: { signal?: AbortSignal; videoTimeoutMs?: number; framesPerVideo?: number } = {},
) {
  const photos: AnalysisPhoto[] = [];
  for (const file of media) {
    signal?.throwIfAborted();
    if (file.contentType.startsWith("image/")) {
      let bytes: Buffer;
      try {
        bytes = await downscaleImage(file.bytes);
      } catch (error) {
        throw new Error(`Could not read the image ${file.mediaUrl}: ${errorMessage(error)}`);
      }
      photos.push({ mediaUrl: file.mediaUrl, contentType: "image/jpeg", bytes });
    } else if (file.contentType.startsWith("video/")) {
      const frames = await extractVideoFrames(file.bytes, { count: framesPerVideo, signal, timeoutMs: videoTimeoutMs }).catch((error: unknown) => {
        if (signal?.aborted) throw error;
        throw new Error(`Could not read the video ${file.mediaUrl}: ${errorMessage(error).replace(/^Could not read the video: /, "")}`);
      });
      for (const { bytes, at } of frames) photos.push({ mediaUrl: file.mediaUrl, contentType: "image/jpeg", bytes, videoFrame: true, at });
    } else {
      throw new Error(`Cannot analyse ${file.mediaUrl}: ${file.contentType} is neither an image nor a video`);
    }
  }
  return photos;
}
