import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestUser } from "../../tests/accounts";
import { useTestDb } from "../../tests/test-db";
import { SessionRecord, createSessionRecord, readSessionRecord } from "../models/session.server";
import { Upload, createUploadRecord, newUploadId } from "../models/upload.server";
import { env } from "../utils/env.server";
import { Types } from "mongoose";
import { Contact } from "../models/contact.server";
import { IdempotencyKey } from "../models/idempotency-key.server";
import { User } from "../models/user.server";
import { startHousekeeping } from "./housekeeping.server";
import { finishDeletions } from "./users.server";

/** A pending upload with an object on disk, created `ageHours` ago. */
async function pendingUpload(ageHours: number) {
  // A real account: a record of an owner that does not exist is refused (define-model's owner fence).
  const ownerId = (await createTestUser({ role: "dealer" })).id;
  const _id = newUploadId();
  const key = `uploads/${ownerId}/${_id}/abandoned.mp4`;
  await createUploadRecord({ _id, ownerId, key, originalName: "abandoned.mp4", contentType: "video/mp4", purpose: "wizard", draft: true });
  const file = path.join(env.DATA_DIR, "objects", key);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, "x");
  await Upload.collection.updateOne({ _id }, { $set: { createdAt: new Date(Date.now() - ageHours * 3600e3) } });
  return { _id, file };
}

async function until(check: () => Promise<boolean>, ms = 5000) {
  for (const t0 = Date.now(); Date.now() - t0 < ms; await sleep(25)) if (await check()) return true;
  return false;
}

describe("housekeeping", () => {
  let stop = () => {};
  beforeAll(async () => {
    await useTestDb();
  });
  afterEach(() => stop());

  it("sweeps abandoned uploads and expired sessions on a schedule, without anyone uploading or signing in", async () => {
    const stale = await pendingUpload(25);
    const fresh = await pendingUpload(1);
    const expired = await createSessionRecord({ userId: newUploadId().toString() }, new Date(Date.now() - 1000));
    const live = await createSessionRecord({ userId: newUploadId().toString() }, new Date(Date.now() + 3600e3));

    stop = startHousekeeping({ firstRunAfterMs: 0, runEveryMs: 50 });
    expect(await until(async () => !(await Upload.exists({ _id: stale._id })))).toBe(true);
    expect(existsSync(stale.file)).toBe(false);
    expect(await until(async () => (await SessionRecord.countDocuments()) === 1)).toBe(true);
    expect(await readSessionRecord(live)).not.toBeNull();
    expect(await readSessionRecord(expired)).toBeNull();
    expect(await Upload.exists({ _id: fresh._id })).not.toBeNull();

    // The next rounds keep going.
    const later = await pendingUpload(30);
    expect(await until(async () => !(await Upload.exists({ _id: later._id })))).toBe(true);
  });

  it("stops when told to", async () => {
    stop = startHousekeeping({ firstRunAfterMs: 100, runEveryMs: 50 });
    stop();
    const stale = await pendingUpload(25);
    await sleep(300);
    expect(await Upload.exists({ _id: stale._id })).not.toBeNull();
  });

  it("finishes an account deletion that stopped part-way: what it owns, then the account", async () => {
    const { id } = await createTestUser({ role: "dealer" });
    // Marked deleted two minutes ago; a contact it owned is still there (the cascade never ran).
    await User.collection.updateOne({ _id: new Types.ObjectId(id) }, { $set: { deletedAt: new Date(Date.now() - 120_000) } });
    await Contact.collection.insertOne({ ownerId: new Types.ObjectId(id), firstName: "Left", lastName: "Behind", email: "l@example.com" });
    await IdempotencyKey.collection.insertOne({ ownerId: new Types.ObjectId(id), key: "left-behind", operation: "POST /api/contacts", bodyHash: "x", state: "done", createdAt: new Date() });
    const fresh = await createTestUser({ role: "dealer" });
    await User.collection.updateOne({ _id: new Types.ObjectId(fresh.id) }, { $set: { deletedAt: new Date() } });
    expect(await finishDeletions()).toBe(1);
    expect(await User.exists({ _id: id })).toBeNull();
    expect(await Contact.countDocuments({ ownerId: id })).toBe(0);
    expect(await IdempotencyKey.countDocuments({ ownerId: id })).toBe(0);
    // One marked a moment ago is still being deleted by its own request.
    expect(await User.exists({ _id: fresh.id })).not.toBeNull();
  });
});
