import { Types } from "mongoose";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser } from "../../tests/accounts";
import { useTestDb } from "../../tests/test-db";
import { Assessment } from "../models/assessment.server";
import { EmailLog } from "../models/email-log.server";
import { runDataMigrations } from "./data-migrations.server";

// Owned records need a live owner (an insert for a deleted account is removed again: 401).
let ownerId: string;
const log = (fields: Record<string, unknown>) => ({
  ownerId,
  kind: "estimate",
  idempotencyKey: new Types.ObjectId().toHexString(),
  recipientEmail: "jane@example.com",
  subject: "Estimate",
  html: "<p>x</p>",
  text: "x",
  messageId: `<${new Types.ObjectId().toHexString()}@example.com>`,
  ...fields,
});

describe("data migrations at start-up", () => {
  beforeAll(async () => {
    await useTestDb();
    ownerId = (await createTestUser({ role: "dealer" })).id;
  });

  it("turns an earlier version's 'sent' local-drop logs into 'saved', leaves real deliveries, and is idempotent", async () => {
    const sentAt = new Date();
    const [dropped, delivered] = await EmailLog.insertMany([log({ status: "sent", localDrop: true, sentAt }), log({ status: "sent", localDrop: false, sentAt })]);
    await runDataMigrations();
    await runDataMigrations();
    const after = await EmailLog.findById(dropped._id).lean<{ status: string; sentAt?: Date }>();
    expect(after).toMatchObject({ status: "saved" });
    expect(after?.sentAt).toBeUndefined();
    expect((await EmailLog.findById(delivered._id).lean<{ status: string; sentAt?: Date }>())?.status).toBe("sent");
  });

  it("marks the sent version each earlier supplement replaced (a chain too), keeping its updatedAt", async () => {
    const v1 = await Assessment.create({ ownerId, title: "Golf", status: "sent", version: 1 });
    const v2 = await Assessment.create({ ownerId, title: "Golf", status: "sent", version: 2, supplementOf: v1._id });
    const v3 = await Assessment.create({ ownerId, title: "Golf", status: "reviewed", version: 3, supplementOf: v2._id });
    await runDataMigrations();
    await runDataMigrations();
    const after = await Assessment.find({ ownerId }).sort({ version: 1 }).lean<{ supersededBy?: Types.ObjectId; updatedAt: Date }[]>();
    expect(after.map((a) => a.supersededBy && String(a.supersededBy))).toEqual([String(v2._id), String(v3._id), undefined]);
    expect(after[0].updatedAt).toEqual(v1.updatedAt);
  });

  it("never matches a greyscale print from before colour-aware matching: recomputed from the media, or dropped when the file is gone", async () => {
    const thumb = Buffer.alloc(256, 7).toString("base64");
    const old = await Assessment.create({
      ownerId,
      title: "Red car, analysed last year",
      status: "completed",
      photoHashes: [{ mediaUrl: "/media/0123456789abcdef01234567", hash: "0f0f0f0f0f0f0f0f", thumb }],
      photoBands: ["0:0f0f", "1:0f0f", "2:0f0f", "3:0f0f"],
    });
    await runDataMigrations();
    await runDataMigrations();
    const after = await Assessment.findById(old._id).lean<{ photoHashes: unknown[]; photoBands: string[]; updatedAt: Date }>();
    expect(after?.photoHashes).toEqual([]);
    expect(after?.photoBands).toEqual([]);
    expect(after?.updatedAt).toEqual(old.updatedAt);
  });

  it("refuses a record for an account that is gone, one by one or in a batch, and keeps none of it", async () => {
    const gone = new Types.ObjectId();
    await expect(Assessment.create({ ownerId: gone, title: "Orphan" })).rejects.toMatchObject({ status: 401 });
    await expect(EmailLog.insertMany([log({ ownerId: gone, status: "pending" }), log({ status: "pending" })])).rejects.toMatchObject({ status: 401 });
    expect(await Assessment.countDocuments({ ownerId: gone })).toBe(0);
    expect(await EmailLog.countDocuments({ ownerId: gone })).toBe(0);
  });
});
