import { copyApprovedTotalsToEstimates } from "~/models/account-decisions.server";
import { backfillAssessmentSearchOfEveryAccount } from "~/models/assessment.server";
import { backfillContactSearchOfEveryAccount } from "~/models/contact.server";
import { backfillLogSearchOfEveryAccount, EmailLog } from "~/models/email-log.server";
import { migrationsDone, recordMigrationDone } from "~/models/data-migration.server";
import { linkPendingSupplements, linkSupplements } from "~/models/estimate.server";
import { isDbUnavailableError } from "~/utils/db-errors.server";
import { db } from "~/utils/db.server";
import { isRefusal } from "~/utils/domain-errors";
import { migratePhotoPrints } from "./reused-photos.server";
import { log } from "~/utils/log.server";

/**
 * Data written by earlier versions, brought to what the code now means (docs/decisions/0018). Each
 * step is one idempotent update done by the database, run at start-up by the worker that runs the
 * background jobs: running it twice, or on a database already current, changes nothing. A step
 * reads a whole collection (no index leads with what it looks for), so it runs until it has finished
 * once and is recorded (`datamigrations`): later starts skip it, and a database of any size opens
 * without reading its history (issue 38). What the code writes today needs none of them.
 */
const steps: { name: string; run: () => Promise<number>; everyStart?: true }[] = [
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
    // A crash between a supplement's insert and its link (insertSupplement): read from its own index.
    name: "supplements whose link a crash cut",
    run: () => linkPendingSupplements(),
    everyStart: true,
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
    run: async () => (await backfillAssessmentSearchOfEveryAccount()) + (await backfillContactSearchOfEveryAccount()),
  },
  {
    // The Logs tab's search answers from the same words index (issue 43): logs written before it.
    name: "search index of email logs",
    run: () => backfillLogSearchOfEveryAccount(),
  },
  {
    // Total Revenue counts what a customer approved (issue 40): approvals line by line recorded
    // before the estimate's copy of the decision kept their approved total.
    name: "approved totals on estimates",
    run: () => copyApprovedTotalsToEstimates(),
  },
];

/**
 * Runs the steps this database has not had (`rerun`: every step, for data written into the
 * collections after they were recorded: scripts/upgrade-data.mjs). Answers the steps postponed
 * because the database was unavailable (the next start-up does them).
 */
export async function runDataMigrations({ rerun = false }: { rerun?: boolean } = {}) {
  // Started with the process: the connection is still being made.
  await db().ready;
  const done = rerun ? new Set<string>() : await migrationsDone(steps.map((step) => step.name));
  const postponed: string[] = [];
  for (const step of steps) {
    if (done.has(step.name)) continue;
    try {
      const changed = await step.run();
      if (!step.everyStart) await recordMigrationDone(step.name, changed);
      if (changed > 0) log.info(`data migration "${step.name}": ${changed} document(s) updated`);
    } catch (error) {
      // A database still starting: the next start-up does it (every step is idempotent).
      if (!isDbUnavailableError(error) && !isRefusal(error)) throw error;
      log.warn(`data migration "${step.name}" postponed: the database is unavailable`);
      postponed.push(step.name);
    }
  }
  return { postponed };
}
