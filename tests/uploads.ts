import { expect } from "vitest";
import type { client } from "./accounts";
import { jpeg } from "./media-files";

type Client = ReturnType<typeof client>;

/** One complete upload of `who` as the browser makes it (POST /api/objects/upload, PUT, complete): its app media URL. */
export async function uploadMedia(who: Client, file: { name?: string; type?: string; bytes?: Buffer } = {}) {
  const type = file.type ?? "image/jpeg";
  const started = await who.post("/api/objects/upload", { filename: file.name ?? "dent.jpg", type });
  expect(started.status).toBe(200);
  const { uploadURL, url } = started.json as { uploadURL: string; url: string };
  const put = await fetch(uploadURL, { method: "PUT", body: new Uint8Array(file.bytes ?? (await jpeg())), headers: { "Content-Type": type } });
  expect(put.status).toBe(200);
  expect((await who.post("/api/objects/complete", { uploadURL })).status).toBe(200);
  return url as string;
}
