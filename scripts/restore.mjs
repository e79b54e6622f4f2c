#!/usr/bin/env node
// Rebuilds DATA_DIR from an archive of `npm run backup` (docs/decisions/0066), then verifies it (each
// collection's count, every object the records name, the session secret) before it says it succeeded.
// A DATA_DIR that holds anything is refused unless --force (it is then kept beside, renamed, never
// deleted). Nothing is moved into DATA_DIR until the verification passed.
//   BACKUP_PASSPHRASE=… npm run restore -- <archive> [--force]
import { createReadStream, existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { appModules } from "./app-modules.mjs";
import { loadDotEnv } from "./setup.mjs";

loadDotEnv();
const say = (line) => console.log(`restore: ${line}`);
const args = process.argv.slice(2);
const force = args.includes("--force");
const archive = args.find((a) => !a.startsWith("--"));
if (!archive) {
  say("usage: npm run restore -- <archive> [--force]");
  process.exit(2);
}
if (process.env.MONGODB_URI) {
  say("this installation keeps its data in MongoDB (MONGODB_URI): restore it with MongoDB's tools (mongorestore). This command restores the embedded database.");
  process.exit(2);
}
if (!process.env.BACKUP_PASSPHRASE) {
  say("set BACKUP_PASSPHRASE to the passphrase the backup was made with.");
  process.exit(2);
}
if (!existsSync(archive)) {
  say(`no such file: ${archive}`);
  process.exit(2);
}
const dataDir = path.resolve(process.env.DATA_DIR ?? "./data");
const occupied = existsSync(dataDir) && readdirSync(dataDir).length > 0;
if (occupied && !force) {
  say(`${dataDir} is not empty: restore into an empty DATA_DIR, or add --force to replace it (the current one is kept beside it, renamed).`);
  process.exit(2);
}
// Read into a directory beside it (the same disk, so the last step is a rename), which DATA_DIR names meanwhile.
const staging = `${dataDir}.restoring-${randomBytes(4).toString("hex")}`;
process.env.DATA_DIR = staging;
const { restoreBackup, RestoreFailed } = await appModules("restore", `export { restoreBackup, RestoreFailed } from "~/services/backup-restore.server";`);
let report;
try {
  report = await restoreBackup({ archive: createReadStream(archive), passphrase: process.env.BACKUP_PASSPHRASE, dataDir: staging, log: say });
} catch (error) {
  rmSync(staging, { recursive: true, force: true });
  say(`FAILED: ${error.message}${error instanceof RestoreFailed ? "" : ` (${error.stack})`}`);
  say(`${dataDir} was not changed.`);
  process.exit(1);
}
if (existsSync(dataDir)) {
  const aside = `${dataDir}.replaced-${new Date().toISOString().replace(/[:.]/g, "-")}`;
  if (occupied) {
    renameSync(dataDir, aside);
    say(`the previous ${dataDir} is kept as ${aside}`);
  } else rmSync(dataDir, { recursive: true, force: true });
}
renameSync(staging, dataDir);
say(
  `succeeded: ${dataDir} holds the backup of ${report.createdAt}: ${report.documents} documents in ${report.collections} collections, ${report.objects} objects` +
    (report.alreadyMissing ? ` (${report.alreadyMissing} objects were already missing when the backup was made)` : "") +
    "; verified.",
);
if (process.env.SESSION_SECRET) say("note: SESSION_SECRET is set in the environment; the app uses it instead of the restored session-secret file, so sealed data opens only if they are the same.");
process.exit(0);
