// Shared by the browser walks that upload through the Uppy widget.
import type { Page } from "@playwright/test";
import { jpeg, mp4, png } from "../tests/media-files";
import { expect } from "./fixtures";

export const MiB = 1024 * 1024;

/** Three photos and a 6 MiB video (two parts: the multipart path). */
export async function media() {
  return {
    photos: [
      { name: "front-bumper.jpg", mimeType: "image/jpeg", buffer: await jpeg({ width: 320, height: 240 }) },
      { name: "door-dent.jpg", mimeType: "image/jpeg", buffer: await jpeg({ width: 300, height: 200 }) },
      { name: "scratch.png", mimeType: "image/png", buffer: await png(120, 90) },
    ],
    // Over 5 MiB: goes through the multipart endpoints (two parts).
    video: { name: "walkaround.mp4", mimeType: "video/mp4", buffer: mp4(6 * MiB) },
  };
}

/** Adds the files to the Uppy dashboard inside `scope` and starts the upload. */
export async function uploadWithUppy(page: Page, scope: string, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  const dashboard = page.locator(`${scope} .uppy-Dashboard`);
  await expect(dashboard).toBeVisible();
  await dashboard.locator("input.uppy-Dashboard-input").first().setInputFiles(files);
  for (const file of files) await expect(dashboard.getByText(file.name, { exact: false }).first()).toBeVisible();
  await dashboard.locator(".uppy-StatusBar-actionBtn--upload").click();
}
