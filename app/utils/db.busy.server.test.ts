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
/** Documents the long commands join with themselves to begin with (quadratic: the work grows fast). */
const DOCUMENTS = 2500;
/** A long command must outlast DB_STALL_MS well, or the test shows nothing: more documents until it does. */
const LONG_COMMAND_MS = 1500;

describe("a busy embedded database", () => {
  let dataDir: string;
  let dbServer: EmbeddedDb;
  let app: RunningApp;
  let load: InstanceType<typeof MongoClient>;
  let documents = 0;
  const addDocuments = async (count: number) => {
    const from = documents;
    documents += count;
    await load
      .db()
      .collection("big")
      .insertMany(Array.from({ length: count }, (_, i) => ({ k: (from + i) % 500, v: from + i, text: "x".repeat(50) })));
  };
  const admin = { username: "busy", password: "password123", email: "b@example.com", firstName: "B", lastName: "U" };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "busy-db-"));
    dbServer = await startEmbeddedDb({ dataDir, supervise: false });
    load = new MongoClient(`${dbServer.uri}busyload`, { maxPoolSize: CONCURRENT, serverSelectionTimeoutMS: 10_000 });
    await load.connect();
    await addDocuments(DOCUMENTS);
    // The production default, which the suite's other apps raise (tests/app-server.ts).
    app = await startApp({ mongoUri: `${dbServer.uri}busy`, env: { DB_STALL_MS: "1000" } });
    expect((await client(app).post("/api/admin/create-account", admin)).status).toBe(201);
  });
  afterAll(async () => {
    await app?.stop();
    await load?.close(true);
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
    const timed = async () => {
      const started = Date.now();
      await longCommand();
      return Date.now() - started;
    };
    // On a fast machine, more documents (each doubling makes a command about four times longer).
    let oneCommandMs = await timed();
    while (oneCommandMs < LONG_COMMAND_MS && documents < 20_000) {
      await addDocuments(documents);
      oneCommandMs = await timed();
    }
    expect(oneCommandMs, `one long command's duration (ms) over ${documents} documents`).toBeGreaterThan(LONG_COMMAND_MS);

    let stop = false;
    let running = 0;
    const loadStarted = Date.now();
    const workers = Array.from({ length: CONCURRENT }, async () => {
      while (!stop) {
        running += 1;
        try {
          await longCommand();
        } catch (error) {
          // After the test, the load's connections are closed under the command.
          if (!stop) throw error;
        } finally {
          running -= 1;
        }
      }
    });
    const answers: { path: string; status: number; ms: number; running: number; body: string }[] = [];
    // Let every long command get going before asking.
    await new Promise((r) => setTimeout(r, 500));
    try {
      while (Date.now() - loadStarted < LOAD_MS) {
        for (const path of ["/api/contacts", "/settings", "/healthz"]) {
          const asked = Date.now();
          const res = await fetch(`${app.url}${path}`, { headers: { Cookie: cookie }, signal: AbortSignal.timeout(20_000) });
          const body = await res.text();
          answers.push({ path, status: res.status, ms: Date.now() - asked, running, body: res.status === 200 ? "" : body.slice(0, 200) });
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    } finally {
      // Not waited for (a command may have seconds to go on a loaded machine): closed with the load's client.
      stop = true;
      void Promise.all(workers);
    }

    // The engine was busy on every connection at every answer…
    expect(answers.length).toBeGreaterThanOrEqual(6);
    expect(answers.filter((a) => a.running !== CONCURRENT)).toEqual([]);
    // …and the app answered each request, never "database not answering".
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    expect(app.output()).not.toContain("did not answer a ping");
  });
});
