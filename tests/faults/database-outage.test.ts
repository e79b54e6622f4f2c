import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedDb, type EmbeddedDb } from "~/utils/embedded-db.server";
import { client, signIn } from "../accounts";
import { startApp, type RunningApp } from "../app-server";

// The database killed while a dealer's system keeps writing: during the outage every call answers 503
// with Retry-After (never a 500 or a dropped connection), the app recovers by itself soon after the
// database is back, and every write it acknowledged (201) is still there.
describe("the database killed under write load", () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "outage-db-"));
  let db: EmbeddedDb;
  let app: RunningApp;

  beforeAll(async () => {
    // A server of this test's own, with a data directory that survives the kill.
    db = await startEmbeddedDb({ dataDir, supervise: false });
    app = await startApp({ mongoUri: `${db.uri}outage` });
  });
  afterAll(async () => {
    await app?.stop();
    await db?.stop();
  });

  it("answers 503 with Retry-After during the outage, recovers within 5 s, loses no acknowledged write", async () => {
    const admin = { username: "outage", password: "password123", email: "o@example.com", firstName: "O", lastName: "U" };
    expect((await client(app).post("/api/admin/create-account", admin)).status).toBe(201);
    const cookie = await signIn(app, admin.username, admin.password);
    const minted = await client(app, { cookie }).post("/api/auth/tokens", { name: "writer" });
    const api = client(app, { token: minted.json.token });

    const acknowledged: string[] = [];
    const answers = new Map<string, number>();
    let phase: "before" | "down" | "back" = "before";
    let firstWriteBack: number | undefined;
    let restartedAt = 0;
    let writing = true;
    let n = 0;
    const writer = async () => {
      while (writing) {
        const res = await api
          .post("/api/contacts", { firstName: "Load", lastName: `No ${++n}`, email: `w${n}@example.com` })
          .catch((error: Error) => ({ status: 0, headers: new Headers(), json: { message: String(error.cause ?? error) } }));
        const key = res.status === 503 ? `503 retry-after=${res.headers.get("retry-after")}` : String(res.status);
        answers.set(key, (answers.get(key) ?? 0) + 1);
        if (res.status === 201) {
          acknowledged.push(res.json.id);
          if (phase === "back" && firstWriteBack === undefined) firstWriteBack = Date.now() - restartedAt;
        }
        if (res.status !== 201) await new Promise((r) => setTimeout(r, 50));
      }
    };
    const writers = Array.from({ length: 4 }, writer);

    await expect.poll(() => acknowledged.length, { timeout: 10_000 }).toBeGreaterThan(20);
    const pid = db.pid()!;
    process.kill(pid, "SIGKILL");
    phase = "down";
    await expect.poll(() => answers.get("503 retry-after=2") ?? 0, { timeout: 10_000 }).toBeGreaterThan(4);

    db = await startEmbeddedDb({ dataDir, port: db.port, supervise: false });
    restartedAt = Date.now();
    phase = "back";
    await expect.poll(() => firstWriteBack, { timeout: 15_000 }).toBeDefined();
    const countAtRecovery = acknowledged.length;
    await expect.poll(() => acknowledged.length, { timeout: 10_000 }).toBeGreaterThan(countAtRecovery + 10);
    writing = false;
    await Promise.all(writers);

    // Only created and unavailable: no 500, no dropped connection.
    expect([...answers.keys()].sort()).toEqual(["201", "503 retry-after=2"]);
    expect(firstWriteBack!).toBeLessThan(5_000);
    const missing: string[] = [];
    for (const id of acknowledged) if ((await api.get(`/api/contacts/${id}`)).status !== 200) missing.push(id);
    expect(missing).toEqual([]);
    const stored = await api.get("/api/contacts");
    expect(stored.json.length).toBeGreaterThanOrEqual(acknowledged.length);
    console.log(
      `[faults] database outage: ${acknowledged.length} writes acknowledged, 0 lost; answers ${JSON.stringify(Object.fromEntries(answers))}; first write ${firstWriteBack} ms after the restart`,
    );
  }, 90_000);
});
