import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, signIn } from "../../tests/accounts";
import { startApp, type RunningApp } from "../../tests/app-server";
import { generate } from "otplib";
import { FIXTURE_ROOT, MAIL_LOGIN, PEOPLE, expectSealedSecretsOpen, figuresOf, signInWithCode, type Cookies, type Expected } from "../../tests/data-dir-fixture";
import { startOpenAiTestServer } from "../../tests/openai-server";
import { startSmtpServer } from "../../tests/smtp-server";
import { startReceiver } from "../../tests/webhook-receiver";

// Backups built in (issue 41 item 1, docs/decisions/0066): a kept installation (tests/fixtures/data-dir)
// is backed up by `npm run backup` while it serves and takes writes, restored by `npm run restore` into
// an empty DATA_DIR, and the restored installation shows every figure, photo and secret it had.

const root = path.resolve(import.meta.dirname, "../..");
const kept = readdirSync(FIXTURE_ROOT).filter((d) => existsSync(path.join(FIXTURE_ROOT, d, "expected.json"))).sort().at(-1)!;
const expected: Expected = JSON.parse(readFileSync(path.join(FIXTURE_ROOT, kept, "expected.json"), "utf8"));
const PASSPHRASE = "a long passphrase for the test";

/** Runs one of our scripts as an operator would (the app's environment, MONGODB_URI unset); answers its exit code and output. */
function run(script: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [path.join(root, "scripts", script), ...args], {
      cwd: root,
      env: { ...process.env, MONGODB_URI: "", BACKUP_PASSPHRASE: PASSPHRASE, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("close", (code) => resolve({ code, output }));
  });
}

async function signInAll(app: RunningApp): Promise<Cookies> {
  return {
    admin: await signIn(app, PEOPLE.admin.username, PEOPLE.admin.password),
    dealer: await signInWithCode(app, PEOPLE.dealer, expected.totpSecret),
    vendor: await signIn(app, PEOPLE.vendor.username, PEOPLE.vendor.password),
  };
}

describe("backup and restore of a whole installation", () => {
  const work = mkdtempSync(path.join(os.tmpdir(), "backup-test-"));
  const source = path.join(work, "source");
  const target = path.join(work, "backups");
  const restored = path.join(work, "restored");
  let app: RunningApp | undefined;
  let archive = "";
  let contactsBefore = 0;
  let contactsAcknowledged = 0;
  let cookies: Cookies;

  beforeAll(async () => {
    cpSync(path.join(FIXTURE_ROOT, kept, "data"), source, { recursive: true });
    app = await startApp({ mongoUri: null, dataDir: source, env: { OUTBOUND_ALLOW: "loopback" } });
    // Signed in before the backup: the sessions travel in it, and open only with the restored secret.
    cookies = await signInAll(app);
  }, 180_000);
  afterAll(async () => {
    await app?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it("backs up while the app serves and takes writes, into one encrypted archive", async () => {
    const dealer = client(app!, { cookie: cookies.dealer });
    contactsBefore = Number((await dealer.get("/api/contacts")).headers.get("x-total-count"));
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        const res = await dealer.post("/api/contacts", { firstName: "During", lastName: `Backup ${i}`, email: `during${i}@example.com` });
        expect(res.status).toBe(201);
        contactsAcknowledged += 1;
      }
    })();
    const backup = await run("backup.mjs", [], { DATA_DIR: source, BACKUP_TARGET: target });
    writing = false;
    await writer;
    expect(backup.output).toMatch(/backup: archive written: .*damageiq-backup-.*\.tar\.gz\.age/);
    expect(backup.code).toBe(0);
    const files = readdirSync(target).filter((f) => f.endsWith(".age"));
    expect(files).toHaveLength(1);
    archive = path.join(target, files[0]);
    // Encrypted: age's header, and none of the data in the clear.
    const bytes = readFileSync(archive);
    expect(bytes.subarray(0, 21).toString()).toBe("age-encryption.org/v1");
    expect(bytes.includes(Buffer.from(PEOPLE.dealer.username))).toBe(false);
    expect(contactsAcknowledged).toBeGreaterThan(0);
    // Settings → System shows the admin the last backup's time, size and result.
    const system = await (await fetch(`${app!.url}/settings?tab=system`, { headers: { Cookie: cookies.admin } })).text();
    expect(system).toMatch(/Last backup \d{4}-\d\d-\d\d \d\d:\d\d UTC: [\d.]+ MB, \d+ documents, \d+ objects; backups run by hand \(npm run backup\)/);
  }, 180_000);

  it("refuses a DATA_DIR that holds anything, and a wrong passphrase, changing nothing", async () => {
    mkdirSync(restored);
    writeFileSync(path.join(restored, "keep-me"), "mine");
    const occupied = await run("restore.mjs", [archive], { DATA_DIR: restored });
    expect(occupied.code).toBe(2);
    expect(occupied.output).toContain("is not empty: restore into an empty DATA_DIR, or add --force to replace it");
    expect(readdirSync(restored)).toEqual(["keep-me"]);
    rmSync(restored, { recursive: true });

    const wrong = await run("restore.mjs", [archive], { DATA_DIR: restored, BACKUP_PASSPHRASE: "not the passphrase at all" });
    expect(wrong.code).toBe(1);
    expect(wrong.output).toContain("The passphrase does not open this backup");
    expect(existsSync(restored)).toBe(false);
  }, 120_000);

  it("refuses a damaged archive", async () => {
    const damaged = path.join(work, "damaged.age");
    const bytes = readFileSync(archive);
    bytes[bytes.length - 100] ^= 0xff;
    writeFileSync(damaged, bytes);
    const res = await run("restore.mjs", [damaged], { DATA_DIR: restored });
    expect(res.code).toBe(1);
    expect(res.output).toContain("The archive is damaged or incomplete");
    expect(existsSync(restored)).toBe(false);
  }, 120_000);

  it("restores into an empty DATA_DIR, verifies it, and the installation shows everything it had", async () => {
    const res = await run("restore.mjs", [archive], { DATA_DIR: restored });
    expect(res.output).toMatch(/restore: succeeded: .* documents in \d+ collections, \d+ objects.*; verified\./);
    expect(res.code).toBe(0);
    await app!.stop();
    app = await startApp({ mongoUri: null, dataDir: restored, env: { OUTBOUND_ALLOW: "loopback" } });
    const figures = await figuresOf(app, cookies);
    // Every write acknowledged before the snapshot is there; the contacts written during the backup
    // are there up to the snapshot's moment.
    expect(figures.totals.contacts).toBeGreaterThanOrEqual(contactsBefore);
    expect(figures.totals.contacts).toBeLessThanOrEqual(contactsBefore + contactsAcknowledged);
    expect({ ...figures, totals: { ...figures.totals, contacts: 0 } }).toEqual({ ...expected.figures, totals: { ...expected.figures.totals, contacts: 0 } });

    // Two-factor still works (the next step's code: the one used before the backup is spent), and
    // every other sealed secret opens: the API token, the webhook's signing secret, the mail password, the AI key.
    const totp = await generate({ secret: expected.totpSecret, epoch: Math.floor(Date.now() / 1000) + 30 });
    expect((await client(app).post("/api/admin/login", { username: PEOPLE.dealer.username, password: PEOPLE.dealer.password, totp })).status).toBe(200);
    const [ai, smtp, receiver] = await Promise.all([startOpenAiTestServer(), startSmtpServer({ auth: MAIL_LOGIN }), startReceiver()]);
    try {
      await expectSealedSecretsOpen(app, cookies, expected, { ai, smtp, receiver });
    } finally {
      await Promise.all([ai.close(), smtp.close(), receiver.close()]);
    }
  }, 240_000);

  it("refuses to run with MONGODB_URI, naming MongoDB's tools", async () => {
    const res = await run("backup.mjs", [], { DATA_DIR: source, MONGODB_URI: "mongodb://db.example:27017/damage_assess" });
    expect(res.code).toBe(2);
    expect(res.output).toContain("mongodump");
  });

  it("with --force, replaces a DATA_DIR that holds something and keeps the old one beside it", async () => {
    const occupied = path.join(work, "occupied");
    mkdirSync(occupied);
    writeFileSync(path.join(occupied, "keep-me"), "mine");
    const res = await run("restore.mjs", [archive, "--force"], { DATA_DIR: occupied });
    expect(res.code).toBe(0);
    expect(existsSync(path.join(occupied, "db", "damageiq.mv.db"))).toBe(true);
    const aside = readdirSync(work).find((d) => d.startsWith("occupied.replaced-"))!;
    expect(readFileSync(path.join(work, aside, "keep-me"), "utf8")).toBe("mine");
  }, 120_000);
});
