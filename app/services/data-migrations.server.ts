import { backfillAssessmentSearch } from "~/models/assessment.server";
import { backfillContactSearch } from "~/models/contact.server";
import { EmailLog } from "~/models/email-log.server";
import { linkSupplements } from "~/models/estimate.server";
import { isDbUnavailableError } from "~/utils/db-errors.server";
import { db } from "~/utils/db.server";
import { isRefusal } from "~/utils/domain-errors";
import { migratePhotoPrints } from "./reused-photos.server";
import { log } from "~/utils/log.server";

/**
 * Data written by earlier versions, brought to what the code now means (docs/decisions/0018). Each
 * step is one idempotent update done by the database, run at start-up by the worker that runs the
 * background jobs: running it twice, or on a database already current, changes nothing.
 */
const steps: { name: string; run: () => Promise<number> }[] = [
  {
    // A message only written to the local drop was recorded as "sent": it is "saved" (never delivered).
    name: "email logs saved to the local drop",
    run: async () =>
      (await EmailLog.updateMany({ status: "sent", localDrop: true }, { $set: { status: "saved" }, $unset: { sentAt: 1 } })).modifiedCount,
  },
  {
    // Lists, counts and sums take the latest version of an estimate: supplements made before
    // `supersededBy` existed mark the version they replaced.
    name: "supplements replace their sent version",
    run: () => linkSupplements(),
  },
  {
    // Greyscale prints took a red car for a blue one (docs/decisions/0030): recomputed from the media.
    name: "photo prints for the colour-aware reused-photo check",
    run: () => migratePhotoPrints(),
  },
  {
    // The searches answer from the words index (docs/decisions/0033): records written before it get
    // theirs (a search does the same first for its own account, so none is missed meanwhile).
    name: "search index of assessments and contacts",
    run: async () => (await backfillAssessmentSearch({ allOwners: true })) + (await backfillContactSearch({ allOwners: true })),
  },
];

export async function runDataMigrations() {
  // Started with the process: the connection is still being made.
  await db().ready;
  for (const step of steps) {
    try {
      const changed = await step.run();
      if (changed > 0) log.info(`data migration "${step.name}": ${changed} document(s) updated`);
    } catch (error) {
      // A database still starting: the next start-up does it (every step is idempotent).
      if (!isDbUnavailableError(error) && !isRefusal(error)) throw error;
      log.warn(`data migration "${step.name}" postponed: the database is unavailable`);
    }
  }
}
