import mongoose, { Types } from "mongoose";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestUser } from "../../tests/accounts";
import { useTestDb } from "../../tests/test-db";
import { Assessment, type AssessmentRecord } from "../models/assessment.server";
import { CustomerDecision } from "../models/customer-decision.server";
import { recountFigures } from "../models/dashboard-figures.server";
import { EmailLog } from "../models/email-log.server";
import { findOldPhotoPrintsInWindow } from "../models/assessment.server";
import { insertSupplement, linkSupplements } from "../models/estimate.server";
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
  // Each test writes an older release's data: a database that has not had the steps yet.
  beforeEach(async () => {
    await mongoose.connection.collection("datamigrations").deleteMany({});
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

  it("gives an approval line by line recorded before it its approved total on the estimate: Total Revenue counts what was approved", async () => {
    const owner = (await createTestUser({ role: "dealer" })).id;
    const decisionId = new Types.ObjectId();
    const line = (id: string, decision: "approved" | "declined", amountCents: number) => ({ id, label: id, damage: null, optional: decision === "declined", decision, amountCents });
    const estimate = await Assessment.create({
      ownerId: owner,
      title: "Partly approved",
      status: "sent",
      estimatedCost: 474.49,
      customerDecision: { decision: "approved", decidedAt: new Date(), decisionId },
    });
    await CustomerDecision.create({
      _id: decisionId,
      ownerId: owner,
      assessmentId: estimate._id,
      rootId: estimate._id,
      version: 1,
      linkId: new Types.ObjectId(),
      decision: "approved",
      signatureName: "Jane Doe",
      termsAccepted: true,
      decidedAt: new Date(),
      ip: "192.0.2.1",
      userAgent: "Phone",
      pdfSha256: "0".repeat(64),
      estimatedCost: 474.49,
      approvedTotalCents: 31999,
      lines: [line("d0-1", "approved", 30000), line("v-1", "declined", 14000)],
    });
    expect((await recountFigures({ ownerId: owner })).totalRevenue).toBe(474.49);
    await runDataMigrations();
    expect((await Assessment.findById(estimate._id).lean<AssessmentRecord>())?.customerDecision?.approvedTotalCents).toBe(31999);
    expect((await recountFigures({ ownerId: owner })).totalRevenue).toBe(319.99);
  });

  it("runs each step once per database: a later start does not read the collections again", async () => {
    await runDataMigrations();
    // Written straight into the collection after the steps were recorded: a later start leaves it.
    const [later] = await EmailLog.insertMany([log({ status: "sent", localDrop: true, sentAt: new Date() })]);
    await runDataMigrations();
    expect((await EmailLog.findById(later._id).lean<{ status: string }>())?.status).toBe("sent");
    // The operator's rerun (scripts/upgrade-data.mjs) does every step again.
    await runDataMigrations({ rerun: true });
    expect((await EmailLog.findById(later._id).lean<{ status: string }>())?.status).toBe("saved");
  });

  it("at every start, links a supplement whose link a crash cut, after the steps were recorded", async () => {
    await runDataMigrations();
    const sent = await Assessment.create({ ownerId, title: "Polo", status: "sent", version: 1 });
    // The crash: the supplement inserted (flagged), the sent version never marked.
    const cut = await Assessment.create({ ownerId, title: "Polo", status: "reviewed", version: 2, supplementOf: sent._id, linkPending: true });
    await runDataMigrations();
    expect(String((await Assessment.findById(sent._id).lean<{ supersededBy?: Types.ObjectId }>())?.supersededBy)).toBe(String(cut._id));
    expect((await Assessment.findById(cut._id).lean<{ linkPending?: boolean }>())?.linkPending).toBeUndefined();
  });

  it("a supplement made without a crash is linked and unflagged, answered at its current revision", async () => {
    const sent = await Assessment.findById((await Assessment.create({ ownerId, title: "Up", status: "sent", version: 1 }))._id).lean<AssessmentRecord>();
    const supplement = await insertSupplement({
      sent: sent!,
      change: { to: "reviewed", set: { notes: "More" }, unset: [], changes: ["notes"] },
      by: { id: ownerId, name: "Dealer" },
    });
    const stored = await Assessment.findById(supplement?._id).lean<{ linkPending?: boolean; revision?: number }>();
    expect(stored?.linkPending).toBeUndefined();
    expect(supplement?.revision).toBe(stored?.revision);
    expect(supplement && "linkPending" in supplement).toBe(false);
  });

  it("refuses a record for an account that is gone, one by one or in a batch, and keeps none of it", async () => {
    const gone = new Types.ObjectId();
    await expect(Assessment.create({ ownerId: gone, title: "Orphan" })).rejects.toMatchObject({ status: 401 });
    await expect(EmailLog.insertMany([log({ ownerId: gone, status: "pending" }), log({ status: "pending" })])).rejects.toMatchObject({ status: 401 });
    expect(await Assessment.countDocuments({ ownerId: gone })).toBe(0);
    expect(await EmailLog.countDocuments({ ownerId: gone })).toBe(0);
  });
  it("reads assessments, contacts and email logs only through indexes, never a whole collection (issue 38)", async (context) => {
    const engine = async () =>
      (await mongoose.connection.db!.admin().command({ serverStatus: 1 })).embeddedEngine as { collectionScans: Record<string, number> } | undefined;
    const before = await engine();
    // The whole reads are counted by the embedded engine (a real MongoDB has no such figure).
    if (!before) return context.skip();
    const other = (await createTestUser({ role: "dealer" })).id;
    const sent = await Assessment.create({ ownerId: other, title: "Polo", status: "sent", version: 1 });
    const supplement = await Assessment.create({ ownerId: other, title: "Polo", status: "reviewed", version: 2, supplementOf: sent._id });
    const thumb = Buffer.alloc(256, 7).toString("base64");
    const old = await Assessment.create({ ownerId: other, title: "Old print", status: "completed", photoHashes: [{ mediaUrl: "/media/0123456789abcdef01234567", hash: "0f0f0f0f0f0f0f0f", thumb }] });
    await runDataMigrations({ rerun: true });
    const after = await engine();
    for (const collection of ["assessments", "contacts", "emaillogs"]) expect(after!.collectionScans[collection] ?? 0, collection).toBe(before.collectionScans[collection] ?? 0);
    // And every step still did its work in that account.
    expect(String((await Assessment.findById(sent._id).lean<{ supersededBy?: Types.ObjectId }>())?.supersededBy)).toBe(String(supplement._id));
    expect((await Assessment.findById(old._id).lean<{ photoHashes: unknown[] }>())?.photoHashes).toEqual([]);
    expect((await Assessment.findById(old._id).lean<{ searchTokens?: string[] }>())?.searchTokens).toContain("print");
  });

  it("links supplements page by page: a version's first supplement marks it, whatever the page boundaries", async () => {
    const account = (await createTestUser({ role: "dealer" })).id;
    const versions = [];
    for (const n of [1, 2, 3]) versions.push(await Assessment.create({ ownerId: account, title: `Car ${n}`, status: "sent", version: 1 }));
    // Two supplements of the second car (an import can hold that): the first by id marks it.
    const supplements = [];
    for (const of of [versions[0], versions[1], versions[1], versions[2]]) {
      supplements.push(await Assessment.create({ ownerId: account, title: of.title, status: "reviewed", version: 2, supplementOf: of._id }));
    }
    expect(await linkSupplements({ ownerId: account, batch: 1 })).toBe(3);
    const marks = await Assessment.find({ ownerId: account, version: 1 }).sort({ title: 1 }).lean<{ supersededBy?: Types.ObjectId }[]>();
    expect(marks.map((m) => String(m.supersededBy))).toEqual([supplements[0], supplements[1], supplements[3]].map((s) => String(s._id)));
  });

  it("walks an account's history for old prints in windows that miss and repeat nothing, ties included", async () => {
    const account = (await createTestUser({ role: "dealer" })).id;
    const thumb = Buffer.alloc(256, 7).toString("base64");
    const at = (minute: number) => new Date(Date.UTC(2025, 0, 1, 0, minute));
    // Minutes 0..6, three at minute 3 (a tie across a window's edge); odd ones hold an old print.
    const minutes = [0, 1, 2, 3, 3, 3, 4, 5, 6];
    const rows = await Assessment.insertMany(
      minutes.map((minute, i) => ({
        ownerId: account,
        title: `Car ${i}`,
        createdAt: at(minute),
        photoHashes: i % 2 ? [{ mediaUrl: `/media/${String(i).padStart(24, "0")}`, hash: "0f0f0f0f0f0f0f0f", thumb }] : [{ mediaUrl: "/media/x", hash: "0", print: "p" }],
      })),
    );
    const found: string[] = [];
    let before: Date | null = null;
    let windows = 0;
    do {
      windows += 1;
      const window: Awaited<ReturnType<typeof findOldPhotoPrintsInWindow>> = await findOldPhotoPrintsInWindow({ ownerId: new Types.ObjectId(account), before, size: 2 });
      found.push(...window.records.map((r) => String(r._id)));
      before = window.next;
    } while (before);
    expect(windows).toBeGreaterThanOrEqual(4);
    expect(found.sort()).toEqual(rows.filter((_, i) => i % 2).map((r) => String(r._id)).sort());
  });
});
