import { spawnSync } from "node:child_process";
import { closeSync, existsSync, ftruncateSync, mkdirSync, openSync, readdirSync, rmSync, statSync, statfsSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, signIn } from "../../tests/accounts";
import { startApp, type RunningApp } from "../../tests/app-server";
import { LocalBackend } from "../services/storage/local";
import { DISK_FULL_MESSAGE, DISK_RESERVE_BYTES } from "../utils/disk.server";
import { DiskFull } from "../utils/domain-errors";

/**
 * Issue 41 item 2: a full DATA_DIR is an answer, not an outage. The app and its embedded database
 * run on a small filesystem of this test's own (a tmpfs: we run as root), which it fills.
 */
const MB = 1024 * 1024;
const dataDir = path.resolve(".tmp", `disk-full-${process.pid}`);
const filler = path.join(dataDir, "filler");
const admin = { username: "diskfull", password: "password123", email: "d@example.com", firstName: "D", lastName: "F" };
let app: RunningApp | undefined;
let mounted = false;

const free = () => {
  const s = statfsSync(dataDir);
  return s.bavail * s.bsize;
};

/** Fills the filesystem to the last byte, then frees `leaveBytes` (under the reserve, above the sessions' floor). */
function fillLeaving(leaveBytes: number) {
  const fd = openSync(filler, "a");
  const chunk = Buffer.alloc(MB, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  }
  ftruncateSync(fd, Math.max(0, statSync(filler).size - leaveBytes));
  closeSync(fd);
}

async function within(ms: number, attempt: () => Promise<boolean>) {
  const started = Date.now();
  while (!(await attempt())) {
    if (Date.now() - started > ms) return Infinity;
    await new Promise((r) => setTimeout(r, 100));
  }
  return Date.now() - started;
}

beforeAll(async () => {
  mkdirSync(dataDir, { recursive: true });
  const mount = spawnSync("mount", ["-t", "tmpfs", "-o", "size=96m", "tmpfs", dataDir], { encoding: "utf8" });
  // Never a silent pass: without a filesystem of its own the test cannot fill a disk safely.
  if (mount.status !== 0) throw new Error(`this test needs a small filesystem of its own, and "mount -t tmpfs" was refused (run it as root): ${mount.stderr || mount.error}`);
  mounted = true;
  app = await startApp({ mongoUri: null, env: { DATA_DIR: dataDir, DISK_WARN_PERCENT: "50" } });
}, 90_000);

afterAll(async () => {
  await app?.stop();
  if (mounted) spawnSync("umount", [dataDir]);
  rmSync(dataDir, { recursive: true, force: true });
});

describe("a full DATA_DIR", () => {
  it("refuses writes with 507 and changes nothing, keeps reads and sign-in working, says so on /healthz, and recovers within 10 s of space being freed", async () => {
    expect((await client(app!).post("/api/admin/create-account", admin)).status).toBe(201);
    const cookie = await signIn(app!, admin.username, admin.password);
    const me = client(app!, { cookie });

    // Before it happens: under DISK_WARN_PERCENT free (50 here), the admin is warned; writes go on.
    fillLeaving(40 * MB);
    const system = await (await fetch(`${app!.url}/settings?tab=system`, { headers: { Cookie: cookie } })).text();
    expect(system).toMatch(/Disk Space<\/td><td[^>]*><div[^>]*><span[^>]*>Warning<\/span>/);
    expect(system).toMatch(/Low disk space: \d+ MB free of \d+ MB \(\d+ %\) on DATA_DIR; writes stop below 32 MB free/);
    expect((await me.post("/api/contacts", { firstName: "Before", lastName: "Full", email: "before@example.com" })).status).toBe(201);

    fillLeaving(16 * MB);
    expect(free()).toBeLessThan(DISK_RESERVE_BYTES);

    const refused = await me.post("/api/contacts", { firstName: "During", lastName: "Full", email: "during@example.com" });
    expect(refused.status).toBe(507);
    expect(refused.json).toEqual({ message: DISK_FULL_MESSAGE });
    // Reads go on, and nothing of the refused write is there.
    const contacts = await me.get("/api/contacts");
    expect(contacts.status).toBe(200);
    expect((contacts.json as { firstName: string }[]).map((c) => c.firstName)).toEqual(["Before"]);
    expect((await me.get("/api/assessments")).status).toBe(200);
    expect((await fetch(`${app!.url}/contacts`, { headers: { Cookie: cookie } })).status).toBe(200);
    const again = await signIn(app!, admin.username, admin.password);
    expect((await client(app!, { cookie: again }).get("/api/auth/user")).status).toBe(200);

    // A screen's form (JavaScript off: a plain post, then the page it redirects to) says so too.
    const form = await fetch(`${app!.url}/contacts`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: cookie, Origin: app!.url, "Content-Type": "application/x-www-form-urlencoded" },
      body: "intent=create&firstName=Screen&lastName=Full&email=screen%40example.com",
    });
    expect(form.status).toBe(302);
    const shown = await fetch(new URL(form.headers.get("location")!, app!.url), { headers: { Cookie: cookie } });
    expect(await shown.text()).toContain(DISK_FULL_MESSAGE);

    const health = await fetch(`${app!.url}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: "disk full", reason: expect.stringMatching(/^disk full: \d+ MB free on DATA_DIR/) });

    // An upload to local storage is refused whole: no partial file left behind.
    const objects = new LocalBackend(path.join(dataDir, "objects"));
    const upload = objects.putStream("disk-full/photo.jpg", Readable.from([Buffer.alloc(8 * MB, 2), Buffer.alloc(8 * MB, 3)]), "image/jpeg", 64 * MB);
    await expect(upload).rejects.toBeInstanceOf(DiskFull);
    expect(existsSync(path.join(dataDir, "objects", "disk-full"))).toBe(false);
    expect(readdirSync(path.join(dataDir, "objects", ".tmp"))).toEqual([]);

    // To the last byte (another program filled it): still refused whole, reads still served.
    fillLeaving(0);
    expect(free()).toBe(0);
    expect((await me.post("/api/contacts", { firstName: "Zero", lastName: "Free", email: "zero@example.com" })).status).toBe(507);
    expect((await me.get("/api/contacts")).json).toHaveLength(1);
    expect((await fetch(`${app!.url}/contacts`, { headers: { Cookie: cookie } })).status).toBe(200);
    expect((await fetch(`${app!.url}/healthz`)).status).toBe(503);

    unlinkSync(filler);
    const writesAfter = await within(10_000, async () => (await me.post("/api/contacts", { firstName: "After", lastName: "Freed", email: "after@example.com" })).status === 201);
    const healthyAfter = await within(10_000, async () => (await fetch(`${app!.url}/healthz`)).status === 200);
    console.log(`disk full: writes back ${writesAfter} ms, /healthz 200 ${healthyAfter} ms after space was freed`);
    expect(writesAfter).toBeLessThan(10_000);
    expect(healthyAfter).toBeLessThan(10_000);
    expect(((await me.get("/api/contacts")).json as { firstName: string }[]).map((c) => c.firstName).sort()).toEqual(["After", "Before"]);
  }, 60_000);
});
