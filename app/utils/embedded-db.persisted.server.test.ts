import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import { afterEach, describe, expect, it } from "vitest";
import { FIXTURE_DB, fixtureDocuments } from "../../tests/fixtures/embedded-db-v1/seed.mjs";
import { freePort, LAUNCHER_JAR, stopProcess } from "./embedded-db.server";

const { MongoClient, ObjectId, BSON } = mongoose.mongo;
const { EJSON } = BSON;
type Filter = Record<string, unknown>;
type Db = ReturnType<InstanceType<typeof MongoClient>["db"]>;

// The engine's indexes live in its file (docs/decisions/0028): a data directory written before
// that opens with every document and index answer intact, builds its indexes once (saying so on
// standard output) and never again; a process killed while it writes keeps every acknowledged write,
// and its indexes agree with its documents.

interface Engine {
  child: ChildProcess;
  client: InstanceType<typeof MongoClient>;
  /** The "embedded database opening: …" lines printed before the port opened. */
  opening: string[];
}

const dirs: string[] = [];
const engines: Engine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) {
    await engine.client.close().catch(() => {});
    if (engine.child.exitCode === null && engine.child.signalCode === null) await stopProcess(engine.child);
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function launch(dbDir: string): Promise<Engine> {
  const port = await freePort();
  const child = spawn("java", ["-Xmx256m", "-XX:+UseSerialGC", "-jar", LAUNCHER_JAR, "--port", String(port), "--dir", dbDir, "--cache-mb", "32", "--watch-stdin"], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  const opening: string[] = [];
  let buffered = "";
  await new Promise<void>((resolve, reject) => {
    child.on("exit", (code) => reject(new Error(`the engine exited (${code}) before listening`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop()!;
      for (const line of lines) {
        if (line.startsWith("embedded database opening: ")) opening.push(line);
        if (line.startsWith("embedded database listening on ")) resolve();
      }
    });
  });
  child.stderr!.resume();
  const client = await new MongoClient(`mongodb://127.0.0.1:${port}/`, { serverSelectionTimeoutMS: 5000 }).connect();
  const engine = { child, client, opening };
  engines.push(engine);
  return engine;
}

async function kill(engine: Engine) {
  await engine.client.close(true).catch(() => {});
  engine.child.kill("SIGKILL");
  await new Promise((resolve) => (engine.child.exitCode !== null || engine.child.signalCode !== null ? resolve(null) : engine.child.on("exit", resolve)));
}

/** Every value with its BSON type (an int stays an int, a long a long, -0.0 a double). */
const typed = (documents: unknown[]) => documents.map((document) => EJSON.stringify(document, { relaxed: false }));

/** A filter the planner serves with an index, and the same filter as a scan ({$and} names no field). */
async function agreesWithScan(db: Db, name: string, filter: Filter, sort: Record<string, 1 | -1>, projection?: Filter) {
  const collection = db.collection(name);
  const options = { sort, ...(projection ? { projection } : {}), promoteValues: false };
  const indexed = await collection.find(filter, options).toArray();
  const scanned = await collection.find({ $and: [filter] }, options).toArray();
  expect(typed(indexed), `${name} ${JSON.stringify(filter)}`).toEqual(typed(scanned));
  expect(await collection.countDocuments(filter)).toBe(scanned.length);
  return indexed.length;
}

describe("embedded database: indexes kept in its file", () => {
  it("opens a data directory written before, builds its indexes once with progress, and answers as before", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "engine-upgrade-"));
    dirs.push(dataDir);
    cpSync(path.resolve("tests/fixtures/embedded-db-v1/db"), path.join(dataDir, "db"), { recursive: true });
    const expected = fixtureDocuments();

    const check = async (engine: Engine) => {
      const db = engine.client.db(FIXTURE_DB);
      for (const name of ["assessments", "contacts"] as const) {
        const stored = await db.collection(name).find({}, { sort: { _id: 1 }, promoteValues: false }).toArray();
        expect(typed(stored)).toEqual(typed(expected[name]));
      }
      let served = 0;
      for (const ownerId of [...new Set(expected.assessments.map((d) => String(d.ownerId)))].map((id) => new ObjectId(id))) {
        served += await agreesWithScan(db, "assessments", { ownerId }, { createdAt: -1, _id: -1 });
        served += await agreesWithScan(db, "assessments", { ownerId, status: "sent" }, { total: 1, _id: 1 });
        served += await agreesWithScan(db, "assessments", { ownerId, status: null }, { _id: 1 });
        served += await agreesWithScan(db, "assessments", { ownerId, photoBands: "a" }, { _id: 1 });
        served += await agreesWithScan(db, "assessments", { ownerId, photoBands: [] }, { _id: 1 });
        served += await agreesWithScan(db, "contacts", { ownerId }, { name: 1 });
        served += await agreesWithScan(db, "contacts", { ownerId, company: { $exists: true } }, { name: 1 });
        served += await agreesWithScan(db, "contacts", { ownerId, company: "Acme" }, { phone: 1, _id: 1 }, { _id: 0, company: 1, phone: 1 });
        expect(await db.collection("contacts").countDocuments({ ownerId, phone: { $exists: false } })).toBe(
          expected.contacts.filter((d) => String(d.ownerId) === String(ownerId) && !("phone" in d)).length,
        );
      }
      served += await agreesWithScan(db, "assessments", { vin: "VIN00009" }, { _id: 1 });
      expect(served).toBeGreaterThan(300);
      // The unique index still refuses a second {ownerId, number}.
      const first = expected.assessments[0];
      await expect(db.collection("assessments").insertOne({ ownerId: first.ownerId, number: first.number })).rejects.toMatchObject({ code: 11000 });
    };

    const first = await launch(path.join(dataDir, "db"));
    await check(first);
    // Built once, in one read of each collection's documents, saying so while the port was still closed.
    const built = (collection: string, total: number) =>
      first.opening
        .map((line) => new RegExp(`^embedded database opening: building indexes? (.+) of fixture\\.${collection}: ${total} of ${total} documents$`).exec(line)?.[1])
        .filter(Boolean)
        .flatMap((names) => names!.split(", "))
        .sort();
    expect(built("assessments", 300)).toEqual(["ownerId_1_createdAt_-1", "ownerId_1_photoBands_1", "ownerId_1_status_1_total_1", "vin_1"]);
    expect(built("contacts", 200)).toEqual(["ownerId_1_company_1_phone_1", "ownerId_1_name_1"]);
    await kill(first);

    // Killed after the build: the next start opens the built indexes as they are.
    const second = await launch(path.join(dataDir, "db"));
    expect(second.opening.filter((line) => line.includes("building index"))).toEqual([]);
    await check(second);
  });

  it("keeps every acknowledged write through a kill during writes, and its indexes agree with its documents", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "engine-killed-"));
    dirs.push(dataDir);
    const dbDir = path.join(dataDir, "db");
    const owners = [new ObjectId(), new ObjectId(), new ObjectId()];
    const engine = await launch(dbDir);
    const collection = engine.client.db("killed").collection("assessments");
    await collection.createIndex({ ownerId: 1, createdAt: -1 });
    await collection.createIndex({ ownerId: 1, status: 1, cost: 1 });
    await collection.createIndex({ ownerId: 1, tags: 1 });
    await collection.createIndex({ ownerId: 1, company: 1 });

    const inserted = new Map<string, number>();
    const updated = new Map<string, number>();
    const deleted = new Set<string>();
    // A delete in flight when the engine dies may have committed without its answer arriving.
    const deleting = new Set<string>();
    let stop = false;
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const _id = new ObjectId();
        const n = w * 1_000_000 + i;
        try {
          await collection.insertOne({
            _id, ownerId: owners[n % 3], createdAt: new Date(Date.UTC(2026, 0, 1) + (n % 500) * 60_000), status: ["draft", "sent"][n % 2],
            cost: (n % 97) + 0.5, tags: n % 5 === 0 ? [] : ["t", `t${n % 4}`], ...(n % 3 === 0 ? { company: `Co ${n % 7}` } : {}),
          });
          inserted.set(_id.toHexString(), n);
          await collection.updateOne({ _id }, { $set: { status: "approved", cost: n % 13 }, $unset: { company: "" } });
          updated.set(_id.toHexString(), n % 13);
          if (n % 4 === 0) {
            deleting.add(_id.toHexString());
            await collection.deleteOne({ _id });
            deleted.add(_id.toHexString());
          }
        } catch {
          return; // the engine is gone: what was acknowledged is recorded
        }
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    // Killed once plenty is acknowledged: a loaded machine writes slower, and the count is what matters.
    for (const started = Date.now(); inserted.size < 40; await new Promise((resolve) => setTimeout(resolve, 20))) {
      if (Date.now() - started > 60_000) throw new Error(`only ${inserted.size} inserts acknowledged in 60 s`);
    }
    await kill(engine);
    stop = true;
    await Promise.all(writers);
    // At most one delete per writer was in flight.
    expect(deleting.size - deleted.size).toBeLessThanOrEqual(writers.length);

    const reopened = await launch(dbDir);
    const db = reopened.client.db("killed");
    const stored = new Map((await db.collection("assessments").find({ $and: [{}] }).toArray()).map((d) => [d._id.toHexString(), d]));
    for (const [id] of inserted) {
      if (deleted.has(id)) expect(stored.has(id), `deleted ${id}`).toBe(false);
      else if (!deleting.has(id)) expect(stored.has(id), `inserted ${id}`).toBe(true);
    }
    for (const [id, cost] of updated) if (stored.has(id)) expect(stored.get(id)).toMatchObject({ status: "approved", cost });
    for (const ownerId of owners) {
      await agreesWithScan(db, "assessments", { ownerId }, { createdAt: -1, _id: -1 });
      await agreesWithScan(db, "assessments", { ownerId, status: "approved" }, { cost: 1, _id: 1 });
      await agreesWithScan(db, "assessments", { ownerId, tags: "t" }, { _id: 1 });
      await agreesWithScan(db, "assessments", { ownerId, tags: [] }, { _id: 1 });
      await agreesWithScan(db, "assessments", { ownerId, company: { $exists: true } }, { _id: 1 });
      await agreesWithScan(db, "assessments", { ownerId, company: { $exists: false } }, { _id: 1 });
    }
  }, 120_000);

  it("drops, recreates and renames with their indexes, also across restarts", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "engine-ddl-"));
    dirs.push(dataDir);
    const dbDir = path.join(dataDir, "db");
    const ownerId = new ObjectId();
    let engine = await launch(dbDir);
    let db = engine.client.db("ddl");
    const docs = (from: number) => Array.from({ length: 50 }, (_, i) => ({ ownerId, n: from + i, at: new Date(Date.UTC(2026, 0, 1 + i)) }));
    await db.collection("a").createIndex({ ownerId: 1, n: -1 });
    await db.collection("a").insertMany(docs(0));
    await db.collection("a").dropIndex("ownerId_1_n_-1");
    await db.collection("a").deleteMany({});
    await db.collection("a").insertMany(docs(100));
    await db.collection("a").createIndex({ ownerId: 1, n: -1 });
    await db.collection("a").rename("b");
    await db.collection("c").insertMany(docs(0));
    await db.collection("c").createIndex({ ownerId: 1, at: 1 });
    await db.collection("c").drop();
    await db.collection("c").insertMany(docs(500));
    await db.collection("c").createIndex({ ownerId: 1, at: 1 });
    await kill(engine);

    engine = await launch(dbDir);
    expect(engine.opening.filter((line) => line.includes("building index"))).toEqual([]);
    db = engine.client.db("ddl");
    expect(await db.collection("b").find({ ownerId }, { sort: { n: -1 } }).limit(3).toArray()).toMatchObject([{ n: 149 }, { n: 148 }, { n: 147 }]);
    expect(await agreesWithScan(db, "b", { ownerId }, { n: -1 })).toBe(50);
    expect(await agreesWithScan(db, "c", { ownerId }, { at: 1 })).toBe(50);
    expect(await db.collection("a").countDocuments({ ownerId })).toBe(0);
  });
});
