import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, signIn } from "../../tests/accounts";
import { startApp, type RunningApp } from "../../tests/app-server";
import { startEmbeddedDb, type EmbeddedDb } from "./embedded-db.server";

const { MongoClient } = mongoose.mongo;

// A busy database is not a stalled one (docs/decisions/0045): while long commands keep the embedded
// engine working on every connection, the stall watch's pings are still answered, and the app's
// requests are slower but never answered 503 "database not answering". Before the engine ran each
// connection's commands on a thread of its own, a ping waited behind whichever long command held its
// I/O thread, and the app answered cheap requests 503 at the production DB_STALL_MS.

/** Long commands at once, each on its own connection: more than the engine's I/O threads (2 per core). */
const CONCURRENT = 8;
/** How long the engine is kept busy while the app is asked. */
const LOAD_MS = 10_000;
/** Documents in the collection the long commands join with itself (quadratic: the work grows fast). */
const DOCUMENTS = 2500;

describe("a busy embedded database", () => {
  let dataDir: string;
  let dbServer: EmbeddedDb;
  let app: RunningApp;
  let load: InstanceType<typeof MongoClient>;
  const admin = { username: "busy", password: "password123", email: "b@example.com", firstName: "B", lastName: "U" };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "busy-db-"));
    dbServer = await startEmbeddedDb({ dataDir, supervise: false });
    load = new MongoClient(`${dbServer.uri}busyload`, { maxPoolSize: CONCURRENT, serverSelectionTimeoutMS: 10_000 });
    await load.connect();
    await load
      .db()
      .collection("big")
      .insertMany(Array.from({ length: DOCUMENTS }, (_, i) => ({ k: i % 500, v: i, text: "x".repeat(50) })));
    // The production default, which the suite's other apps raise (tests/app-server.ts).
    app = await startApp({ mongoUri: `${dbServer.uri}busy`, env: { DB_STALL_MS: "1000" } });
    expect((await client(app).post("/api/admin/create-account", admin)).status).toBe(201);
  });
  afterAll(async () => {
    await app?.stop();
    await load?.close();
    await dbServer?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps answering cheap requests (no 503) while long commands run on every connection", { timeout: 60_000 }, async () => {
    const cookie = await signIn(app, admin.username, admin.password);
    const big = load.db().collection("big");
    // Each document looked up against every other (no index on k): seconds of work for one command.
    const longCommand = () =>
      big
        .aggregate([
          { $lookup: { from: "big", localField: "k", foreignField: "k", as: "same" } },
          { $group: { _id: null, pairs: { $sum: { $size: "$same" } } } },
        ])
        .toArray();
    const started = Date.now();
    await longCommand();
    const oneCommandMs = Date.now() - started;
    // The test shows something only if one command outlasts DB_STALL_MS; on a machine this fast, raise DOCUMENTS.
    expect(oneCommandMs, "one long command's duration (ms)").toBeGreaterThan(1000);

    let stop = false;
    let commandsDone = 0;
    const loadStarted = Date.now();
    const workers = Array.from({ length: CONCURRENT }, async () => {
      while (!stop) {
        await longCommand();
        commandsDone += 1;
      }
    });
    const answers: { path: string; status: number; ms: number; body: string }[] = [];
    // Let every long command get going before asking.
    await new Promise((r) => setTimeout(r, 500));
    while (Date.now() - loadStarted < LOAD_MS) {
      for (const path of ["/api/contacts", "/settings", "/healthz"]) {
        const asked = Date.now();
        const res = await fetch(`${app.url}${path}`, { headers: { Cookie: cookie }, signal: AbortSignal.timeout(20_000) });
        const body = await res.text();
        answers.push({ path, status: res.status, ms: Date.now() - asked, body: res.status === 200 ? "" : body.slice(0, 200) });
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    stop = true;
    await Promise.all(workers);

    // The engine was busy on every connection the whole time…
    expect(commandsDone).toBeGreaterThanOrEqual(CONCURRENT);
    expect(answers.length).toBeGreaterThanOrEqual(6);
    // …and the app answered each request, never "database not answering".
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    expect(app.output()).not.toContain("did not answer a ping");
  });
});
