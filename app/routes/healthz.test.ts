import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { client, signIn } from "../../tests/accounts";
import { startApp, type RunningApp } from "../../tests/app-server";
import { startEmbeddedDb, type EmbeddedDb } from "../utils/embedded-db.server";

async function pollStatus(url: string, want: number, withinMs: number) {
  const started = Date.now();
  for (;;) {
    const res = await fetch(url, { signal: AbortSignal.timeout(withinMs) });
    if (res.status === want) return Date.now() - started;
    if (Date.now() - started > withinMs) return Infinity;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("GET /healthz", () => {
  let dbServer: EmbeddedDb;
  let app: RunningApp;
  // This app has a database of its own: its first (admin) account is made through the API.
  const admin = { username: "outage", password: "password123", email: "o@example.com", firstName: "O", lastName: "U" };

  beforeAll(async () => {
    // A database server of our own, so this test can kill it without disturbing others.
    dbServer = await startEmbeddedDb({
      dataDir: mkdtempSync(path.join(os.tmpdir(), "healthz-db-")),
      supervise: false,
    });
    app = await startApp({ mongoUri: `${dbServer.uri}healthz`, env: { DB_STALL_MS: "1000" } });
    expect((await client(app).post("/api/admin/create-account", admin)).status).toBe(201);
  });
  afterAll(async () => {
    await app?.stop();
    await dbServer?.stop();
  });

  it("answers 200 {status:ok} while the database is reachable", async () => {
    const res = await fetch(`${app.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("answers every request 503 with Retry-After within 2 s while the database is stalled, and recovers when it resumes", async () => {
    const cookie = await signIn(app, admin.username, admin.password);
    const dealer = client(app, { cookie });
    expect((await dealer.get("/api/contacts")).status).toBe(200);
    // A stalled database (a frozen VM, a GC pause that never ends): connections stay open, nothing answers.
    const pid = dbServer.pid()!;
    process.kill(pid, "SIGSTOP");
    // Stopped once the kernel says so (state T), not when the signal is sent.
    await vi.waitFor(() => expect(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1][0]).toBe("T"), { timeout: 5000, interval: 10 });
    try {
      const timedFetch = async (path: string, init: RequestInit = {}) => {
        const started = Date.now();
        const res = await fetch(`${app.url}${path}`, { ...init, headers: { Cookie: cookie, ...init.headers }, signal: AbortSignal.timeout(10_000) });
        const requestId = res.headers.get("x-request-id");
        return { status: res.status, retryAfter: res.headers.get("retry-after"), ms: Date.now() - started, requestId, body: await res.text() };
      };
      const answers = await Promise.all([
        timedFetch("/healthz"),
        timedFetch("/api/contacts"),
        timedFetch("/api/contacts", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ firstName: "Ann", lastName: "Lee", email: "ann@example.com" }) }),
        timedFetch("/settings"),
        timedFetch("/"),
      ]);
      for (const answer of answers) {
        expect(answer, JSON.stringify(answer).slice(0, 300)).toMatchObject({ status: 503, retryAfter: expect.stringMatching(/^\d+$/) });
        expect(answer.ms, JSON.stringify(answer).slice(0, 300)).toBeLessThan(2000);
      }
      // A screen names the request, as the error page does; the API's body too.
      const [, list, , settings] = answers;
      expect(settings.body).toContain(`Request ID: ${settings.requestId} (quote it when you report this)`);
      expect(JSON.parse(list.body)).toEqual({ message: "Service temporarily unavailable", requestId: list.requestId });
      // Still stalled: a new request is as quick.
      const again = await timedFetch("/api/contacts");
      expect(again).toMatchObject({ status: 503 });
      expect(again.ms).toBeLessThan(2000);
    } finally {
      process.kill(pid, "SIGCONT");
    }
    expect(await pollStatus(`${app.url}/healthz`, 200, 10_000)).toBeLessThan(10_000);
    const after = await dealer.get("/api/contacts");
    expect(after.status).toBe(200);
    // The write answered 503 was not half-made behind the client's back: at most the one contact, once.
    expect((after.json as unknown[]).length).toBeLessThanOrEqual(1);
  });

  it("answers 503 within 2 s of the database going away and recovers when it returns", async () => {
    const cookie = await signIn(app, admin.username, admin.password);
    process.kill(dbServer.pid()!, "SIGKILL");
    const downAfter = await pollStatus(`${app.url}/healthz`, 503, 2000);
    expect(downAfter).toBeLessThan(2000);
    const body = await (await fetch(`${app.url}/healthz`)).json();
    expect(body).toEqual({ status: "unavailable" });
    // Screens and API calls answer 503 with Retry-After too, never a 500.
    const api = await client(app, { cookie }).get("/api/auth/user");
    expect(api.status).toBe(503);
    expect(api.json).toEqual({ message: "Service temporarily unavailable", requestId: api.headers.get("x-request-id") });
    expect(api.headers.get("retry-after")).toBe("2");
    const page = await fetch(`${app.url}/settings`, { headers: { Cookie: cookie } });
    expect(page.status).toBe(503);

    dbServer = await startEmbeddedDb({
      dataDir: mkdtempSync(path.join(os.tmpdir(), "healthz-db-")),
      port: dbServer.port,
      supervise: false,
    });
    const upAfter = await pollStatus(`${app.url}/healthz`, 200, 10_000);
    expect(upAfter).toBeLessThan(10_000);
    // The restarted server has an empty data directory: the session is gone, the app answers normally.
    expect((await client(app, { cookie }).get("/api/auth/user")).status).toBe(401);
  });
});

describe("start-up configuration", () => {
  it("refuses to start with a bad variable and names it", () => {
    const res = spawnSync(
      process.execPath,
      ["server.mjs"],
      { env: { ...process.env, PORT: "4000", SMTP_PORT: "not-a-port" }, encoding: "utf8", timeout: 15_000 },
    );
    expect(res.status).not.toBe(0);
    expect(res.stderr).toMatch(/SMTP_PORT/);
  });
});
