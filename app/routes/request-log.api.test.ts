import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestUser, tokenFor } from "../../tests/accounts";
import { startApp, type RunningApp } from "../../tests/app-server";
import { useTestDb } from "../../tests/test-db";

// Issue 42 item 3 (docs/decisions/0042): one JSON log an operator can follow, each request's access
// line under the id its answer names in X-Request-Id.

/** The app's log lines so far, as objects (a line that is not JSON fails the test). */
const logLines = (app: RunningApp) =>
  app
    .output()
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`a log line that is not JSON: ${line}`);
      }
    });

async function accessLine(app: RunningApp, requestId: string) {
  // The line is written as the answer finishes: it may reach the pipe a moment after the body.
  for (let i = 0; i < 50; i++) {
    const line = logLines(app).find((l) => l.reqId === requestId && l.msg === "request");
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no access line for ${requestId}:\n${app.output()}`);
}

describe("request ids and the access log", () => {
  let app: RunningApp;
  beforeAll(async () => {
    await useTestDb();
    app = await startApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("answers every request with an id: the caller's own when it is a plain token, else a new one", async () => {
    const sent = async (path: string, id?: string, init: RequestInit = {}) =>
      (await fetch(`${app.url}${path}`, { ...init, redirect: "manual", headers: id === undefined ? {} : { "X-Request-Id": id } })).headers.get("X-Request-Id");
    expect(await sent("/api/contacts", "sync-7f3a.b2:c@9")).toBe("sync-7f3a.b2:c@9");
    expect(await sent("/login", "kiosk-42")).toBe("kiosk-42");
    // Answers given before the app runs: an unknown method, a missing page, a file.
    expect(await sent("/api/contacts", "m-405", { method: "PATCH" })).toBe("m-405");
    expect(await sent("/no-such-page", "m-404")).toBe("m-404");
    expect(await sent("/favicon.svg", "m-file")).toBe("m-file");
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(await sent("/login")).toMatch(uuid);
    // Not a plain token (spaces, a log-line break, too long): replaced, never echoed.
    for (const bad of ["two words", "a\tb", "x".repeat(129), ""]) expect(await sent("/login", bad)).toMatch(uuid);
    const one = await sent("/login");
    expect(await sent("/login")).not.toBe(one);
  });

  it("writes one access line per request: method, route pattern, status, time and account, never a token, a cookie or a query", async () => {
    const dealer = await createTestUser({ role: "dealer" });
    const token = await tokenFor(dealer.id);
    const api = client(app, { token });
    const created = await api.post("/api/contacts", { firstName: "Zofia", lastName: "Okonkwo-Private", email: "zofia.private@example.com" });
    expect(created.status).toBe(201);

    const searched = await api.get("/api/contacts?q=Okonkwo-Private", { "X-Request-Id": "trace-search-1" });
    expect(searched.status).toBe(200);
    expect(await accessLine(app, "trace-search-1")).toMatchObject({ level: 30, method: "GET", route: "/api/contacts", status: 200, accountId: dealer.id });

    const byId = await api.get(`/api/contacts/${created.json.id}`, { "X-Request-Id": "trace-one-1" });
    expect(byId.status).toBe(200);
    const line = await accessLine(app, "trace-one-1");
    expect(line).toMatchObject({ route: "/api/contacts/:id", status: 200, accountId: dealer.id });
    expect(typeof line.ms).toBe("number");

    // Signed out: no account, the status as answered.
    await fetch(`${app.url}/api/contacts`, { headers: { "X-Request-Id": "trace-anon-1" } });
    const anonymous = await accessLine(app, "trace-anon-1");
    expect(anonymous).toMatchObject({ route: "/api/contacts", status: 401 });
    expect(anonymous).not.toHaveProperty("accountId");

    const log = app.output();
    expect(log).not.toContain(token);
    expect(log).not.toContain("Okonkwo");
    expect(log).not.toContain("zofia");
  });
});

describe("the embedded database's start", () => {
  it("is quiet: every line the app and its engine write is a JSON log line, and none is an error", async () => {
    // An app that starts its own engine (MONGODB_URI unset), as `npm start` does.
    const own = await startApp({ mongoUri: null });
    try {
      // The clock follows the database with `hello`, which the engine answered with a stack trace.
      await fetch(`${own.url}/login`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const lines = logLines(own);
      expect(lines.filter((line) => Number(line.level) >= 50)).toEqual([]);
      expect(lines.some((line) => String(line.msg).startsWith("Embedded database: mongodb://127.0.0.1:"))).toBe(true);
    } finally {
      await own.stop();
    }
  });
});
