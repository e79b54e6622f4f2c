import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { client, signIn } from "../../tests/accounts";
import { startApp, type RunningApp } from "../../tests/app-server";
import { freePort, LAUNCHER_JAR, startEmbeddedDb, type EmbeddedDb } from "./embedded-db.server";

// The app never gives up on its database (docs/decisions/0029): started before it, or while it is
// slow to open, the app says it is starting and becomes ready by itself, with no restart.

const admin = { username: "starter", password: "password123", email: "s@example.com", firstName: "S", lastName: "T" };
// With MONGODB_URI the instances share the secret through the database; set, the app starts without it.
const SECRET = { SESSION_SECRET: "a-test-secret-of-enough-length-0123456789" };

const healthz = async (app: RunningApp) => {
  const res = await fetch(`${app.url}/healthz`);
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.json() };
};

/** Until /healthz answers 200; how long that took. */
async function untilHealthy(app: RunningApp, withinMs: number) {
  const started = Date.now();
  while ((await fetch(`${app.url}/healthz`)).status !== 200) {
    if (Date.now() - started > withinMs) throw new Error(`not healthy within ${withinMs} ms:\n${app.output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return Date.now() - started;
}

/** What a screen, the API and sign-in answer while starting: 503 with Retry-After, never a 500. */
async function expectStartingAnswers(app: RunningApp, reason: RegExp) {
  const page = await fetch(`${app.url}/login`);
  expect(page.status).toBe(503);
  expect(page.headers.get("retry-after")).toBe("5");
  expect(page.headers.get("content-type")).toMatch(/^text\/html/);
  const html = await page.text();
  expect(html).toMatch(/<h1>DamageIQ is starting<\/h1>/);
  expect(html).toMatch(reason);
  // Without JavaScript a link tries again (with it, the page reloads once /healthz says ready).
  expect(html).toContain('<a href="/login">Try again</a>');
  const api = await client(app).post("/api/admin/login", { username: admin.username, password: admin.password });
  expect(api.status).toBe(503);
  expect(api.headers.get("retry-after")).toBe("5");
  expect(api.json).toEqual({ message: "Service temporarily unavailable: database starting" });
}

/** The first account made and signed in with: the app works on its database. */
async function expectSignInWorks(app: RunningApp) {
  expect((await client(app).post("/api/admin/create-account", admin)).status).toBe(201);
  const cookie = await signIn(app, admin.username, admin.password);
  const me = await client(app, { cookie }).get("/api/auth/user");
  expect(me.status).toBe(200);
  const page = await fetch(`${app.url}/login`);
  expect(page.status).toBe(200);
}

/** A launcher that opens slowly, saying so as the real one does (one line a second), then runs the real one. */
function slowLauncher(dir: string, seconds: number) {
  const source = path.join(dir, "src", "SlowLauncher.java");
  mkdirSync(path.dirname(source), { recursive: true });
  writeFileSync(
    source,
    `import java.net.URL; import java.net.URLClassLoader; import java.nio.file.Path;
public class SlowLauncher {
  public static void main(String[] args) throws Exception {
    int seconds = ${seconds};
    for (int i = 1; i <= seconds; i++) {
      System.out.println("embedded database opening: building index ownerId_1_createdAt_-1 of damage_assess.assessments: " + (i * 1000) + " of " + (seconds * 1000) + " documents");
      System.out.flush();
      Thread.sleep(1000);
    }
    URLClassLoader real = new URLClassLoader(new URL[] { Path.of(System.getenv("REAL_LAUNCHER_JAR")).toUri().toURL() }, SlowLauncher.class.getClassLoader());
    real.loadClass("damageiq.embeddeddb.Launcher").getMethod("main", String[].class).invoke(null, (Object) args);
  }
}
`,
  );
  execFileSync("javac", ["-d", path.join(dir, "classes"), source]);
  const jar = path.join(dir, "slow-launcher.jar");
  execFileSync("jar", ["--create", "--file", jar, "--main-class", "SlowLauncher", "-C", path.join(dir, "classes"), "."]);
  return jar;
}

describe("the app started before its database", () => {
  let app: RunningApp | undefined;
  let engine: EmbeddedDb | undefined;
  let stall: net.Server | undefined;
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "starting-db-"));
    dirs.push(dir);
    return dir;
  };
  afterEach(async () => {
    await app?.stop();
    await engine?.stop();
    stall?.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("answers 'database starting' while nothing listens at MONGODB_URI, then becomes ready by itself once it does", async () => {
    const port = await freePort();
    app = await startApp({ mongoUri: `mongodb://127.0.0.1:${port}/starting`, env: SECRET, waitFor: "answering" });
    const starting = await healthz(app);
    expect(starting).toMatchObject({ status: 503, retryAfter: "5", body: { status: "starting", reason: "database starting" } });
    expect(starting.body.startingSeconds).toBeGreaterThanOrEqual(0);
    // The connection's own error says why (nothing listens there).
    await expect.poll(async () => (await healthz(app!)).body.lastError, { timeout: 10_000 }).toMatch(/ECONNREFUSED|connect/i);
    await expectStartingAnswers(app, /<p role="status" id="reason">Database starting<\/p>/);

    engine = await startEmbeddedDb({ dataDir: tempDir(), port, supervise: false });
    expect(await untilHealthy(app, 15_000)).toBeLessThan(15_000);
    expect((await healthz(app)).body).toEqual({ status: "ok" });
    await expectSignInWorks(app);
  }, 60_000);

  it("retries a database that accepts connections but never answers, and is ready once a real one takes the port", async () => {
    const port = await freePort();
    const sockets = new Set<net.Socket>();
    stall = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => stall!.listen(port, "127.0.0.1", resolve));
    app = await startApp({ mongoUri: `mongodb://127.0.0.1:${port}/stalled`, env: SECRET, waitFor: "answering" });
    await expect.poll(async () => (await healthz(app!)).body.lastError, { timeout: 15_000 }).toMatch(/timed out|timeout/i);
    expect((await healthz(app)).body).toMatchObject({ status: "starting", reason: "database starting" });

    await new Promise<void>((resolve) => {
      stall!.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
    stall = undefined;
    engine = await startEmbeddedDb({ dataDir: tempDir(), port, supervise: false });
    expect(await untilHealthy(app, 15_000)).toBeLessThan(15_000);
    await expectSignInWorks(app);
  }, 60_000);

  it("shows the embedded engine's progress while it opens for longer than it used to be given (20 s), then is ready", async () => {
    const jar = slowLauncher(tempDir(), 22);
    app = await startApp({ mongoUri: null, env: { EMBEDDED_DB_JAR: jar, REAL_LAUNCHER_JAR: LAUNCHER_JAR }, waitFor: "answering" });
    await expect
      .poll(async () => (await healthz(app!)).body.progress, { timeout: 15_000 })
      .toMatch(/^building index ownerId_1_createdAt_-1 of damage_assess\.assessments: \d+000 of 22000 documents$/);
    const starting = await healthz(app);
    expect(starting).toMatchObject({ status: 503, retryAfter: "5", body: { status: "starting", reason: "database starting" } });
    await expectStartingAnswers(app, /Database starting: building index ownerId_1_createdAt_-1 of damage_assess\.assessments: \d+000 of 22000 documents/);

    expect(await untilHealthy(app, 40_000)).toBeLessThan(40_000);
    await expectSignInWorks(app);
  }, 90_000);

  it("in a cluster, every worker shows the progress of the engine its primary runs", async () => {
    const jar = slowLauncher(tempDir(), 40);
    app = await startApp({
      mongoUri: null,
      env: { EMBEDDED_DB_JAR: jar, REAL_LAUNCHER_JAR: LAUNCHER_JAR, WEB_CONCURRENCY: "2" },
      waitFor: "answering",
    });
    // Several answers: whichever worker takes each, it reports the engine's latest line.
    for (let i = 0; i < 4; i++) {
      await expect
        .poll(async () => (await healthz(app!)).body.progress, { timeout: 15_000 })
        .toMatch(/^building index ownerId_1_createdAt_-1 of damage_assess\.assessments: \d+000 of 40000 documents$/);
    }
    expect(await untilHealthy(app, 60_000)).toBeLessThan(60_000);
  }, 120_000);
});
