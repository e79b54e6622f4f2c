#!/usr/bin/env node
// Writes a kept installation with this release (issue 41 item 6, docs/decisions/0061): a DATA_DIR
// filled through the app's own API and screens, with the figures it shows, under
// tests/fixtures/data-dir/<name> (default: today's date). Run it when a change needs a data migration
// and commit the new directory; the suite then opens it, and every older one, with the current code.
//   node scripts/write-data-dir-fixture.mjs [name]
import { spawnSync } from "node:child_process";

const name = process.argv[2] ?? new Date().toISOString().slice(0, 10);
const run = spawnSync("npx", ["vitest", "run", "tests/data-dir-fixtures.write.test.ts"], {
  stdio: "inherit",
  env: { ...process.env, WRITE_DATA_DIR_FIXTURE: name },
});
process.exit(run.status ?? 1);
