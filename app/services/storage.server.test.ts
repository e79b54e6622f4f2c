import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser } from "../../tests/accounts";
import { useTestDb } from "../../tests/test-db";
import { Upload, createUploadRecord, newUploadId } from "../models/upload.server";
import { env } from "../utils/env.server";
import type { Actor } from "./actor";
import { listDraft } from "./storage/draft.server";
import { displayName, safeFileName, sniffType } from "./storage/names.server";
import { parseRange } from "./storage/serving.server";
import { sweepStaleUploads } from "./storage/sweep.server";
import { claimUploads } from "./storage/uploads.server";
import { signUrl, verifySignedUrl } from "./storage/signing";
import { LocalBackend } from "./storage/local";
import { Invalid } from "~/utils/domain-errors";

describe("file names", () => {
  it("keeps only the last path segment and a safe alphabet", () => {
    expect(displayName("../../etc/passwd")).toBe("passwd");
    expect(displayName("C:\\Users\\me\\car.jpg")).toBe("car.jpg");
    expect(displayName("bad\u0000name\n.png")).toBe("badname.png");
    expect(safeFileName("../../.hidden file (1).JPG")).toBe("hidden_file_1_.JPG");
    expect(safeFileName("ünïcode ✓.mp4")).toBe("unicode_.mp4");
    expect(safeFileName("...")).toBe("file");
    expect(safeFileName(`${"a".repeat(300)}.jpeg`)).toHaveLength(100);
    expect(safeFileName(`${"a".repeat(300)}.jpeg`).endsWith(".jpeg")).toBe(true);
  });
});

describe("magic bytes", () => {
  it("recognises JPEG, PNG, GIF, MP4 and MOV and nothing else", () => {
    expect(sniffType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
    expect(sniffType(Buffer.from("89504e470d0a1a0a0000", "hex"))).toBe("image/png");
    expect(sniffType(Buffer.from("GIF89a......"))).toBe("image/gif");
    expect(sniffType(Buffer.from("\0\0\0\x18ftypisom", "latin1"))).toBe("video/mp4");
    expect(sniffType(Buffer.from("\0\0\0\x14ftypqt  ", "latin1"))).toBe("video/quicktime");
    expect(sniffType(Buffer.from("\0\0\0\x08wide", "latin1"))).toBe("video/quicktime");
    expect(sniffType(Buffer.from("%PDF-1.7"))).toBeNull();
    expect(sniffType(Buffer.alloc(0))).toBeNull();
  });
});

describe("ranges", () => {
  it("parses single byte ranges", () => {
    expect(parseRange(null, 100)).toBeNull();
    expect(parseRange("bytes=0-9", 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange("bytes=90-", 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange("bytes=-10", 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange("bytes=50-500", 100)).toEqual({ start: 50, end: 99 });
    expect(parseRange("bytes=100-", 100)).toBe("invalid");
    expect(parseRange("bytes=5-1", 100)).toBe("invalid");
    expect(parseRange("bytes=0-1,5-6", 100)).toBe("invalid");
    expect(parseRange("items=0-1", 100)).toBe("invalid");
  });
});

describe("signed URLs", () => {
  it("verify until they expire and not after any change", () => {
    const url = new URL(signUrl({ op: "put", key: "uploads/a/b/c.jpg" }, 60), "http://x");
    expect(verifySignedUrl(url.searchParams).ok).toBe(true);
    const later = verifySignedUrl(url.searchParams, Date.now() + 61_000);
    expect(later).toMatchObject({ ok: false, status: 403, message: "Request has expired" });
    url.searchParams.set("key", "uploads/a/b/other.jpg");
    expect(verifySignedUrl(url.searchParams).ok).toBe(false);
  });

  it("cannot be rearranged: a value never absorbs another parameter, none is repeated, extra or missing", () => {
    const part = { op: "part", key: "uploads/a/b/c.mp4", uploadId: "u1", partNumber: "2", max: "5242880", name: "c.mp4" };
    const signed = new URL(signUrl(part, 60), "http://x").searchParams;
    expect(verifySignedUrl(signed).ok).toBe(true);
    // v1 signed `k=v` lines: dropping `name` and folding it into `max` still verified, and
    // Number(max) was NaN, so the part size was never checked.
    const folded = new URLSearchParams(signed);
    folded.delete("name");
    folded.set("max", `${part.max}\nname=${part.name}`);
    expect(verifySignedUrl(folded)).toMatchObject({ ok: false, status: 403 });
    const repeated = new URLSearchParams(signed);
    repeated.append("max", "999999999999");
    expect(verifySignedUrl(repeated).ok).toBe(false);
    const extra = new URLSearchParams(signed);
    extra.set("purpose", "training");
    expect(verifySignedUrl(extra).ok).toBe(false);
    // What the app signs is checked too: only the operation's parameters, whole numbers for sizes.
    expect(() => signUrl({ op: "put", key: "k", max: "1" }, 60)).toThrow(/not the operation's parameters/);
    expect(() => signUrl({ ...part, max: "5e6" }, 60)).toThrow(/not the operation's parameters/);
    expect(() => signUrl({ op: "delete", key: "k" }, 60)).toThrow(/not the operation's parameters/);
  });
});

describe("local backend keys", () => {
  it("never resolves outside its root", () => {
    const backend = new LocalBackend("/srv/objects");
    expect(backend.pathFor("uploads/a/b/c.jpg")).toBe("/srv/objects/uploads/a/b/c.jpg");
    for (const bad of ["../x", "uploads/../../x", "/etc/passwd", "uploads//x", ".multipart/x", ""]) {
      expect(() => backend.pathFor(bad)).toThrow();
    }
  });
});

describe("sweeping", () => {
  beforeAll(async () => {
    await useTestDb();
  });

  it("removes pending uploads older than a day with their objects, and keeps the rest", async () => {
    // A real account: a record of an owner that does not exist is refused (define-model's owner fence).
    const ownerId = (await createTestUser({ role: "dealer" })).id;
    const make = async (name: string, state: "pending" | "complete", ageHours: number) => {
      const _id = newUploadId();
      const key = `uploads/${ownerId}/${_id}/${name}`;
      await createUploadRecord({ _id, ownerId, key, originalName: name, contentType: "image/jpeg", purpose: "wizard", draft: true });
      const file = path.join(env.DATA_DIR, "objects", key);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, "x");
      await Upload.collection.updateOne(
        { _id },
        { $set: { state, createdAt: new Date(Date.now() - ageHours * 3600e3) } },
      );
      return { _id, file };
    };
    const stale = await make("old.jpg", "pending", 25);
    const fresh = await make("new.jpg", "pending", 1);
    const done = await make("done.jpg", "complete", 48);
    expect(await sweepStaleUploads()).toBe(1);
    expect(await Upload.exists({ _id: stale._id })).toBeNull();
    expect(existsSync(stale.file)).toBe(false);
    expect(await Upload.exists({ _id: fresh._id })).not.toBeNull();
    expect(await Upload.exists({ _id: done._id })).not.toBeNull();
    expect(existsSync(done.file)).toBe(true);
  });
});

describe("sweeping a multipart upload the store completed", () => {
  beforeAll(async () => {
    await useTestDb();
  });

  it("records it complete instead of deleting it: its complete succeeded, the instance died before recording it", async () => {
    const ownerId = (await createTestUser({ role: "dealer" })).id;
    const _id = newUploadId();
    const key = `uploads/${ownerId}/${_id}/walkaround.jpg`;
    await createUploadRecord({ _id, ownerId, key, originalName: "walkaround.jpg", contentType: "image/jpeg", purpose: "wizard", draft: true });
    const file = path.join(env.DATA_DIR, "objects", key);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]));
    await Upload.collection.updateOne({ _id }, { $set: { multipartId: "completed-at-the-store", createdAt: new Date(Date.now() - 48 * 3600e3) } });
    await sweepStaleUploads();
    const record = await Upload.findById(_id);
    expect(record?.state).toBe("complete");
    expect(existsSync(file)).toBe(true);
  });
});

describe("claiming uploads for an assessment", () => {
  beforeAll(async () => {
    await useTestDb();
  });

  it("takes only the caller's complete uploads and removes them from the wizard's list", async () => {
    const ownerId = (await createTestUser({ role: "dealer" })).id;
    const actor = { id: ownerId, role: "dealer" } as unknown as Actor;
    const other = { id: newUploadId().toString(), role: "dealer" } as unknown as Actor;
    const _id = newUploadId();
    const key = `uploads/${ownerId}/${_id}/a.jpg`;
    await createUploadRecord({ _id, ownerId, key, originalName: "a.jpg", contentType: "image/jpeg", purpose: "wizard", draft: true });
    const file = path.join(env.DATA_DIR, "objects", key);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]));
    await expect(claimUploads(other, [`/media/${_id}`], newUploadId().toString())).rejects.toBeInstanceOf(Invalid);
    expect((await listDraft(actor)).length).toBe(0); // still pending: not listed yet
    const assessmentId = newUploadId().toString();
    expect(await claimUploads(actor, [`http://host/media/${_id}`], assessmentId)).toEqual([`/media/${_id}`]);
    const record = await Upload.findById(_id);
    expect(record?.state).toBe("complete");
    expect(String(record?.assessmentId)).toBe(assessmentId);
    expect(await listDraft(actor)).toEqual([]);
  });
});
