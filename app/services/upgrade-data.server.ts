import { checkDashboardFigures } from "~/models/dashboard-figures-check.server";
import { isDbUnavailableError } from "~/utils/db-errors.server";
import { DatabaseUnavailable } from "~/utils/domain-errors";
import { runDataMigrations } from "./data-migrations.server";

/**
 * What the app otherwise does at its first start or on first use, done now and whole
 * (scripts/upgrade-data.mjs): every data migration, rerun (the search index of records written
 * without one, 0033; supplements' links; photo prints), then every account's dashboard counters
 * (0031), checked against a recount. For data restored from an older release or written straight into
 * the collections, before users meet it. Answers the counters' differences from a recount.
 */
export async function upgradeData({ log = console.log }: { log?: (line: string) => void } = {}) {
  const started = Date.now();
  // A step cut by the database going away for a moment (every step is idempotent) is run again.
  for (let attempt = 1; ; attempt++) {
    const { postponed } = await whenAvailable(() => runDataMigrations({ rerun: true }), log);
    if (postponed.length === 0) break;
    if (attempt === 5) throw new Error(`the database was unavailable for: ${postponed.join(", ")}`);
    log(`data migrations: the database was unavailable for ${postponed.join(", ")}; again in 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 5000));
  }
  log(`data migrations: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const counted = Date.now();
  const differences = await whenAvailable(() => checkDashboardFigures({ rebuild: true, log }), log);
  log(`dashboard counters: built in ${((Date.now() - counted) / 1000).toFixed(1)} s`);
  return differences;
}

/**
 * `run` again, 5 s later, when the database went away under it (a busy engine missing the driver's
 * check clears the pool; at 1,000,000 documents that cut the upgrade outside its steps): every phase
 * here is idempotent. Five tries.
 */
async function whenAvailable<T>(run: () => Promise<T>, log: (line: string) => void): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof DatabaseUnavailable || isDbUnavailableError(error)) || attempt === 5) throw error;
      log(`the database was unavailable (${error instanceof Error ? error.name : "error"}); again in 5 s`);
      await new Promise((resolve) => setTimeout(resolve, 5000));
    }
  }
}
