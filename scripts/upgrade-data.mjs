#!/usr/bin/env node
// Brings every account's derived data up to date now rather than on its first use
// (app/services/upgrade-data.server.ts): after restoring data from an older release, or data written
// straight into the collections (the benches' seeds). Safe beside a running app. Exits 1 when the
// rebuilt counters differ from a recount.
//   node scripts/upgrade-data.mjs
// It uses the app's database (see scripts/app-modules.mjs).
import { appModules } from "./app-modules.mjs";

const { db, closeDb, upgradeData } = await appModules(
  "upgrade-data",
  `export { db, closeDb } from "~/utils/db.server"; export { upgradeData } from "~/services/upgrade-data.server";`,
);
await db().ready;
let differences;
try {
  differences = await upgradeData();
} finally {
  await closeDb();
}
process.exit(differences.length === 0 ? 0 : 1);
