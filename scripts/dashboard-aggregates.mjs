#!/usr/bin/env node
// The dashboard's counters (docs/decisions/0031) against a full recount of the assessments:
//   node scripts/dashboard-aggregates.mjs --verify    prints every difference; exits 1 if there is one
//   node scripts/dashboard-aggregates.mjs --rebuild   rebuilds every account's counters, then verifies
// It uses the app's database (see scripts/app-modules.mjs).
import { appModules } from "./app-modules.mjs";

const mode = process.argv[2];
if (mode !== "--verify" && mode !== "--rebuild") {
  console.error("usage: node scripts/dashboard-aggregates.mjs --verify|--rebuild");
  process.exit(2);
}
const { db, closeDb, checkDashboardFigures } = await appModules(
  "dashboard-aggregates",
  `export { db, closeDb } from "~/utils/db.server"; export { checkDashboardFigures } from "~/models/dashboard-figures-check.server";`,
);
await db().ready;
let differences;
try {
  differences = await checkDashboardFigures({ rebuild: mode === "--rebuild" });
} finally {
  await closeDb();
}
process.exit(differences.length === 0 ? 0 : 1);
