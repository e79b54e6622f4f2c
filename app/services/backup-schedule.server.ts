import { recentBackups } from "~/models/backup-run.server";
import { adminIds } from "~/models/user.server";
import { env } from "~/utils/env.server";
import { log } from "~/utils/log.server";
import { createBackup } from "./backup.server";
import { notifyBackupProblem } from "./outbox.server";

/**
 * The app's own backups (docs/decisions/0066): with BACKUP_INTERVAL_HOURS set, housekeeping's hourly
 * round makes one when the last started an interval ago, and tells the admins (a notice) when one
 * fails or none succeeded for two intervals. The embedded database only: MongoDB has its own tools.
 */

const HOUR_MS = 3600_000;
/** A backup recorded `running` for this long lost its process: the schedule goes on. */
const STUCK_MS = 6 * HOUR_MS;

// In the app, MONGODB_URI set means MongoDB (the embedded engine is found by its own URI).
export const backupsScheduled = () => env.BACKUP_INTERVAL_HOURS > 0 && !env.MONGODB_URI;

export async function runScheduledBackup(now = Date.now()) {
  if (!backupsScheduled()) return null;
  const intervalMs = env.BACKUP_INTERVAL_HOURS * HOUR_MS;
  const [last] = await recentBackups(1);
  const due = !last || (last.state === "running" ? now - last.startedAt.getTime() > STUCK_MS : now - last.startedAt.getTime() >= intervalMs);
  let failure: string | null = null;
  if (due) {
    if (!env.BACKUP_PASSPHRASE) failure = "Scheduled backups are on (BACKUP_INTERVAL_HOURS) but BACKUP_PASSPHRASE is not set, so none was made.";
    else {
      try {
        const made = await createBackup({ passphrase: env.BACKUP_PASSPHRASE, target: env.BACKUP_TARGET, retention: env.BACKUP_RETENTION });
        log.info({ key: made.key, bytes: made.bytes, pauseMs: made.pauseMs }, "scheduled backup written");
      } catch (error) {
        failure = `The scheduled backup failed: ${error instanceof Error ? error.message : String(error)}`;
        log.warn({ err: error }, "scheduled backup failed");
      }
    }
  }
  const problem = failure ?? (await staleness(now, intervalMs));
  if (problem) {
    // One notice per problem and day: an hourly round does not repeat it.
    const day = new Date(now).toISOString().slice(0, 10);
    for (const admin of await adminIds()) await notifyBackupProblem(admin, `backup:${day}:${problem.slice(0, 40)}`, problem);
  }
  return { due, problem };
}

/** None succeeded for two intervals (counted from the oldest attempt when none ever did). */
async function staleness(now: number, intervalMs: number) {
  const recent = await recentBackups(50);
  const succeeded = recent.find((b) => b.state === "succeeded");
  const since = succeeded?.startedAt ?? recent.at(-1)?.startedAt;
  if (!since || now - since.getTime() < 2 * intervalMs) return null;
  return succeeded
    ? `No backup has succeeded since ${succeeded.startedAt.toISOString()} (BACKUP_INTERVAL_HOURS is ${env.BACKUP_INTERVAL_HOURS}).`
    : `No backup has succeeded yet (BACKUP_INTERVAL_HOURS is ${env.BACKUP_INTERVAL_HOURS}).`;
}
