import type { Types } from "mongoose";
import { isDbUnavailableError } from "~/utils/db-errors.server";
import { DatabaseUnavailable } from "~/utils/domain-errors";
import { markAllBuilt, ownersWithFigures, rebuildOwner, verifyOwner, type FigureDifference } from "./dashboard-figures.server";

const ATTEMPTS = 5;
const PAUSE_MS = 5000;

/**
 * The operator's check of every account's dashboard counters against a full recount
 * (scripts/dashboard-aggregates.mjs): with `rebuild`, each account is rebuilt first. A difference is
 * looked at again twice, a moment apart, so a write landing between the count and the read of the
 * counters is not reported as drift.
 */
export async function checkDashboardFigures({ rebuild = false, log = console.log }: { rebuild?: boolean; log?: (line: string) => void } = {}) {
  const owners = await ownersWithFigures();
  const differences: FigureDifference[] = [];
  for (const owner of owners) {
    // An account cut by the database going away for a moment (a busy engine missing the driver's
    // check clears its pool) is done again: a rebuild is idempotent.
    for (let attempt = 1; ; attempt++) {
      try {
        differences.push(...(await checkOwner(owner, rebuild)));
        break;
      } catch (error) {
        if (!(error instanceof DatabaseUnavailable || isDbUnavailableError(error)) || attempt === ATTEMPTS) throw error;
        log(`dashboard counters of ${String(owner)}: the database was unavailable; again in ${PAUSE_MS / 1000} s`);
        await new Promise((r) => setTimeout(r, PAUSE_MS));
      }
    }
  }
  if (rebuild) await markAllBuilt();
  for (const d of differences) log(`${d.ownerId} ${d.field}: stored ${d.stored}, counted ${d.counted}`);
  log(`${owners.length} account(s) ${rebuild ? "rebuilt and " : ""}checked: ${differences.length === 0 ? "the counters equal a full recount" : `${differences.length} difference(s)`}`);
  return differences;
}

async function checkOwner(owner: Types.ObjectId, rebuild: boolean) {
  if (rebuild) await rebuildOwner(owner);
  let found = await verifyOwner(owner);
  for (let again = 0; again < 2 && found.length > 0; again++) {
    await new Promise((r) => setTimeout(r, 200));
    found = await verifyOwner(owner);
  }
  return found;
}
