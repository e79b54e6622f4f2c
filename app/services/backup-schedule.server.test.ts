import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestUser } from "../../tests/accounts";
import { useTestDb } from "../../tests/test-db";
import { BackupRun, recentBackups } from "~/models/backup-run.server";
import { EmailLog } from "~/models/email-log.server";
import { env } from "~/utils/env.server";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { startS3Server } from "../../tests/s3-server";
import { runScheduledBackup } from "./backup-schedule.server";

// The app's own backups (issue 41 item 1, docs/decisions/0066): made when due on the test's database
// engine (the same launcher as the embedded default), and the admins told when they cannot be made.
describe("scheduled backups", () => {
  const saved = { ...env };
  const target = mkdtempSync(path.join(os.tmpdir(), "scheduled-backups-"));
  let adminId = "";
  beforeAll(async () => {
    await useTestDb();
    adminId = (await createTestUser({ role: "admin" })).id;
  });
  afterEach(async () => {
    Object.assign(env, saved);
    await BackupRun.deleteMany({});
  });
  afterAll(() => rmSync(target, { recursive: true, force: true }));

  it("are off unless BACKUP_INTERVAL_HOURS is set, and with MongoDB", async () => {
    Object.assign(env, { BACKUP_INTERVAL_HOURS: 0, MONGODB_URI: undefined });
    expect(await runScheduledBackup()).toBeNull();
    Object.assign(env, { BACKUP_INTERVAL_HOURS: 24, MONGODB_URI: "mongodb://db.example:27017/x" });
    expect(await runScheduledBackup()).toBeNull();
  });

  it("tell the admins once a day when one is due and cannot be made", async () => {
    Object.assign(env, { BACKUP_INTERVAL_HOURS: 24, MONGODB_URI: undefined, BACKUP_PASSPHRASE: undefined });
    expect((await runScheduledBackup())?.problem).toBe("Scheduled backups are on (BACKUP_INTERVAL_HOURS) but BACKUP_PASSPHRASE is not set, so none was made.");
    await runScheduledBackup();
    const notices = await EmailLog.find({ ownerId: adminId, kind: "notification" }).lean();
    expect(notices.map((n) => n.subject)).toEqual(["DamageIQ backup needs attention"]);
    expect(notices[0].text).toContain("BACKUP_PASSPHRASE is not set");
    await EmailLog.deleteMany({ ownerId: adminId });
  });

  it("make one when due, not again within the interval, and warn when none succeeded for two intervals", async () => {
    Object.assign(env, { BACKUP_INTERVAL_HOURS: 24, MONGODB_URI: undefined, BACKUP_PASSPHRASE: "a passphrase for the schedule", BACKUP_TARGET: target });
    expect(await runScheduledBackup()).toEqual({ due: true, problem: null });
    const [made] = await recentBackups(1);
    expect(made).toMatchObject({ state: "succeeded", target });
    expect(readdirSync(target).filter((f) => f.endsWith(".age"))).toHaveLength(1);
    expect(await runScheduledBackup()).toEqual({ due: false, problem: null });
    // Two days and an hour later, with the passphrase gone: due, it fails, and the admins hear both.
    Object.assign(env, { BACKUP_PASSPHRASE: undefined });
    const later = Date.now() + 49 * 3600_000;
    expect((await runScheduledBackup(later))?.problem).toContain("BACKUP_PASSPHRASE is not set");
    await BackupRun.updateMany({}, { $set: { startedAt: new Date(later - 24 * 3600_000) } });
    await BackupRun.create({ state: "failed", startedAt: new Date(later - 3600_000), target, key: "x", error: "disk gone" });
    Object.assign(env, { BACKUP_INTERVAL_HOURS: 12 });
    expect((await runScheduledBackup(later))?.problem).toMatch(/^No backup has succeeded since \d{4}-\d\d-\d\dT.* \(BACKUP_INTERVAL_HOURS is 12\)\.$/);
    // The snapshot is of the suite's shared engine, every test file's database in it: a large file while the whole suite runs.
  }, 180_000);

  it("go to an S3 bucket, and retention deletes the oldest beyond BACKUP_RETENTION", async () => {
    const s3 = await startS3Server();
    const savedProcessEnv = { ...process.env };
    try {
      Object.assign(process.env, s3.appEnv);
      Object.assign(env, {
        BACKUP_INTERVAL_HOURS: 24, MONGODB_URI: undefined, BACKUP_PASSPHRASE: "a passphrase for the schedule", BACKUP_TARGET: `s3://${s3.bucket}/nightly`,
        BACKUP_RETENTION: 1, S3_ENDPOINT: s3.endpoint, S3_FORCE_PATH_STYLE: true,
      });
      const listed = async () => ((await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: "nightly/" }))).Contents ?? []).map((o) => o.Key);
      expect(await runScheduledBackup()).toEqual({ due: true, problem: null });
      const [first] = await listed();
      expect(first).toMatch(/^nightly\/damageiq-backup-.*\.tar\.gz\.age$/);
      expect(await runScheduledBackup(Date.now() + 25 * 3600_000)).toEqual({ due: true, problem: null });
      const after = await listed();
      expect(after).toHaveLength(1);
      expect(after[0]).not.toBe(first);
    } finally {
      process.env = savedProcessEnv;
      await s3.stop();
    }
  }, 180_000);
});
