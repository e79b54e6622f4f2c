import { sweepRateCounters } from "~/models/rate-counter.server";
import { deleteExpiredSessions } from "~/models/session.server";
import { dbNow } from "~/utils/db-clock.server";
import { isDbUnavailableError } from "~/utils/db-errors.server";
import { sweepStaleArchives } from "./account-archive.server";
import { runScheduledBackup } from "./backup-schedule.server";
import { sweepLinkImports } from "./storage/link-imports.server";
import { sweepStaleUploads } from "./storage/sweep.server";
import { sweepExpiredIdempotencyKeys } from "./idempotency.server";
import { finishDeletions } from "./users.server";
import { isRefusal } from "~/utils/domain-errors";
import { log } from "~/utils/log.server";

const FIRST_RUN_AFTER_MS = 60 * 1000;
const RUN_EVERY_MS = 60 * 60 * 1000;

/**
 * One round: account deletions that did not finish, pending uploads and import archives older than a
 * day (objects, parts, records), expired sessions, idempotency keys and link imports past their day and the public
 * estimate pages' rate counters of past windows; then the scheduled backup when one is due.
 */
export async function runHousekeeping() {
  await finishDeletions();
  const uploads = await sweepStaleUploads();
  await sweepStaleArchives();
  await deleteExpiredSessions();
  await sweepExpiredIdempotencyKeys();
  // Link imports the upload widget followed (their sockets are long closed).
  await sweepLinkImports(dbNow());
  await sweepRateCounters(dbNow());
  // Last: a backup may take minutes (docs/decisions/0066).
  await runScheduledBackup();
  return { uploads };
}

/**
 * Runs housekeeping a minute after start-up and then hourly, whether or not anyone uploads or signs
 * in (parts of abandoned uploads hold disk space). A round that fails waits for the next one; with
 * several app instances each sweeps, which is harmless. Returns the stop function.
 */
export function startHousekeeping({ firstRunAfterMs = FIRST_RUN_AFTER_MS, runEveryMs = RUN_EVERY_MS } = {}) {
  let timer: ReturnType<typeof setTimeout>;
  let stopped = false;
  const schedule = (ms: number) => {
    timer = setTimeout(() => {
      void runHousekeeping()
        .catch((error: unknown) => {
          // A database outage is reported by /healthz already; anything else is worth a line.
          if (!isDbUnavailableError(error) && !isRefusal(error)) log.warn({ err: error }, "housekeeping failed");
        })
        .finally(() => {
          if (!stopped) schedule(runEveryMs);
        });
    }, ms);
    timer.unref();
  };
  schedule(firstRunAfterMs);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
