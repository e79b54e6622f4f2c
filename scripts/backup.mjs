#!/usr/bin/env node
// One backup of the whole installation, while it serves (docs/decisions/0066): the embedded database's
// point-in-time snapshot, every object its records name, and the session secret, encrypted with
// BACKUP_PASSPHRASE into BACKUP_TARGET (a folder, default ./backups, or s3://bucket/prefix); the
// oldest beyond BACKUP_RETENTION (7) are deleted. Exits 0 when the archive is written, 1 when the
// backup failed, 2 when it cannot run as configured.
//   npm run backup
import { appModules } from "./app-modules.mjs";
import { loadDotEnv } from "./setup.mjs";

loadDotEnv();
const say = (line) => console.log(`backup: ${line}`);
if (process.env.MONGODB_URI) {
  say(
    "this installation keeps its data in MongoDB (MONGODB_URI), which this command does not back up. Use MongoDB's own tools " +
      '(mongodump --uri "$MONGODB_URI" --archive=damageiq.archive --gzip, or your MongoDB service\'s snapshots) and, for objects in S3, ' +
      "the bucket's versioning or replication (see docs/deploy.md, Backups).",
  );
  process.exit(2);
}
if (!process.env.BACKUP_PASSPHRASE) {
  say("set BACKUP_PASSPHRASE (at least 12 characters): the archive is encrypted with it, and a restore needs it.");
  process.exit(2);
}
const { db, closeDb, createBackup, BackupRefused, env } = await appModules(
  "backup",
  `export { db, closeDb } from "~/utils/db.server"; export { createBackup, BackupRefused } from "~/services/backup.server"; export { env } from "~/utils/env.server";`,
);
await db().ready;
let code = 0;
try {
  await createBackup({ passphrase: env.BACKUP_PASSPHRASE, target: env.BACKUP_TARGET, retention: env.BACKUP_RETENTION, log: say });
} catch (error) {
  say(`FAILED: ${error.message}`);
  code = error instanceof BackupRefused ? 2 : 1;
} finally {
  await closeDb();
}
process.exit(code);
