import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

  beforeAll(async () => {
    // A database server of our own, so this test can kill it without disturbing others.
    dbServer = await startEmbeddedDb({
      dataDir: mkdtempSync(path.join(os.tmpdir(), "healthz-db-")),
      supervise: false,
    });
    app = await startApp({ mongoUri: `${dbServer.uri}healthz` });
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

  it("answers 503 within 2 s of the database going away and recovers when it returns", async () => {
    // This app has a database of its own: make its first (admin) account through the API.
    const admin = { username: "outage", password: "password123", email: "o@example.com", firstName: "O", lastName: "U" };
    expect((await client(app).post("/api/admin/create-account", admin)).status).toBe(201);
    const cookie = await signIn(app, admin.username, admin.password);
    process.kill(dbServer.pid()!, "SIGKILL");
    const downAfter = await pollStatus(`${app.url}/healthz`, 503, 2000);
    expect(downAfter).toBeLessThan(2000);
    const body = await (await fetch(`${app.url}/healthz`)).json();
    expect(body).toEqual({ status: "unavailable" });
    // Screens and API calls answer 503 with Retry-After too, never a 500.
    const api = await client(app, { cookie }).get("/api/auth/user");
    expect(api.status).toBe(503);
    expect(api.json).toEqual({ message: "Service temporarily unavailable" });
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
