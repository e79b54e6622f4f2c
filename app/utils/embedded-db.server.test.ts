import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { heapMegabytes, startEmbeddedDb, type EmbeddedDb } from "./embedded-db.server";

const { MongoClient, ObjectId } = mongoose.mongo;

// The embedded engine itself: durability when killed, and the launcher's secondary indexes, which
// must answer exactly as a scan would (MongoDB's semantics), only faster.

describe("embedded database", () => {
  let dataDir: string;
  let server: EmbeddedDb;
  let client: InstanceType<typeof MongoClient>;

  const connect = async () => {
    client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 5000 });
    await client.connect();
    return client.db("engine");
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "engine-db-"));
    server = await startEmbeddedDb({ dataDir, supervise: false });
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps every acknowledged write when the process is killed", async () => {
    const collection = (await connect()).collection("crash");
    for (let i = 0; i < 100; i++) await collection.insertOne({ i });
    await collection.updateOne({ i: 7 }, { $set: { updated: true } });
    await collection.deleteOne({ i: 99 });
    await client.close();

    process.kill(server.pid()!, "SIGKILL");
    await new Promise((r) => setTimeout(r, 200));
    server = await startEmbeddedDb({ dataDir, port: server.port, supervise: false });

    const reopened = (await connect()).collection("crash");
    expect(await reopened.countDocuments({})).toBe(99);
    expect(await reopened.findOne({ i: 7 })).toMatchObject({ updated: true });
    expect(await reopened.findOne({ i: 99 })).toBeNull();
  });

  it("advertises MongoDB 4.4 (wire version 9), which driver 7 requires", async () => {
    const admin = (await connect()).admin();
    expect((await admin.command({ buildInfo: 1 })).version).toBe("4.4.0");
    expect((await admin.command({ isMaster: 1 })).maxWireVersion).toBe(9);
  });

  it("creates a collection once when `create` and an index build race for it", async () => {
    const db = await connect();
    for (let i = 0; i < 20; i++) {
      const name = `race${i}`;
      await Promise.all([
        db.createCollection(name).catch((error: { codeName?: string }) => {
          // Losing the race to the index build is MongoDB's answer too.
          if (error.codeName !== "NamespaceExists") throw error;
        }),
        db.collection(name).createIndex({ ownerId: 1, createdAt: -1 }),
        db.collection(name).createIndex({ key: 1 }, { unique: true }),
      ]);
    }
    const names = (await db.listCollections().toArray()).map((c) => c.name).filter((n) => n.startsWith("race"));
    expect(names.sort()).toEqual(Array.from({ length: 20 }, (_, i) => `race${i}`).sort());
  });

  describe("secondary indexes", () => {
    const owners = [new ObjectId(), new ObjectId(), new ObjectId()];
    const t0 = Date.UTC(2026, 0, 1);
    let docs: { _id: InstanceType<typeof ObjectId>; ownerId: InstanceType<typeof ObjectId>; createdAt: Date; n: number; company?: string; tags?: string[] }[];

    beforeAll(async () => {
      const collection = (await connect()).collection("indexed");
      await collection.createIndex({ ownerId: 1, createdAt: -1 });
      await collection.createIndex({ ownerId: 1, company: 1 });
      await collection.createIndex({ tags: 1 });
      await collection.createIndex({ ownerId: 1, company: 1, n: 1 });
      docs = [];
      for (let i = 0; i < 300; i++) {
        docs.push({
          _id: new ObjectId(),
          ownerId: owners[i % 3],
          // Pairs share a timestamp: ties must follow _id.
          createdAt: new Date(t0 + Math.floor(i / 2) * 1000),
          n: i,
          ...(i % 4 === 0 ? { company: `Co ${i % 7}` } : {}),
          ...(i % 10 === 0 ? { tags: ["a", `t${i % 3}`] } : {}),
        });
      }
      await collection.insertMany(docs);
    });

    const byNewest = (a: (typeof docs)[number], b: (typeof docs)[number]) =>
      b.createdAt.getTime() - a.createdAt.getTime() || b._id.toHexString().localeCompare(a._id.toHexString());
    const ids = (rows: { _id: unknown }[]) => rows.map((r) => String(r._id));

    it("pages one owner's documents newest first, ties by _id, in either direction", async () => {
      const collection = client.db("engine").collection("indexed");
      const mine = docs.filter((d) => d.ownerId.equals(owners[1])).sort(byNewest);
      const page = await collection.find({ ownerId: owners[1] }).sort({ createdAt: -1, _id: -1 }).skip(10).limit(24).toArray();
      expect(ids(page)).toEqual(ids(mine.slice(10, 34)));
      const oldest = await collection.find({ ownerId: owners[1] }).sort({ createdAt: 1, _id: 1 }).limit(5).toArray();
      expect(ids(oldest)).toEqual(ids([...mine].reverse().slice(0, 5)));
      // A sort the index does not have is still right (the candidates are sorted).
      const byN = await collection.find({ ownerId: owners[1] }).sort({ n: -1 }).limit(3).toArray();
      expect(byN.map((d) => d.n)).toEqual(mine.map((d) => d.n).sort((a, b) => b - a).slice(0, 3));
    });

    it("applies the rest of the filter and counts with and without the index alone", async () => {
      const collection = client.db("engine").collection("indexed");
      const mine = docs.filter((d) => d.ownerId.equals(owners[0]));
      expect(await collection.countDocuments({ ownerId: owners[0] })).toBe(mine.length);
      expect(await collection.countDocuments({ ownerId: { $eq: owners[0] } }, { skip: 5, limit: 20 })).toBe(20);
      expect(await collection.countDocuments({ ownerId: owners[0], company: { $exists: true } })).toBe(
        mine.filter((d) => d.company).length,
      );
      expect(await collection.countDocuments({ ownerId: owners[0], n: { $gte: 150 } })).toBe(
        mine.filter((d) => d.n >= 150).length,
      );
      // Conditions beyond the prefix on fields one index holds: filtered on its entries first.
      const searched = { ownerId: owners[0], $and: [{ $or: [{ company: { $regex: "co 3", $options: "i" } }, { n: 3 }] }] };
      const expected = mine.filter((d) => d.company === "Co 3" || d.n === 3).sort(byNewest);
      expect(await collection.countDocuments(searched)).toBe(expected.length);
      const paged = await collection.find(searched).sort({ createdAt: -1, _id: -1 }).skip(1).limit(3).toArray();
      expect(ids(paged)).toEqual(ids(expected.slice(1, 4)));
      // An index that also holds the sort keys puts the matches in order before reading documents.
      await collection.createIndex({ ownerId: 1, company: 1, createdAt: -1 });
      const withCompany = { ownerId: owners[0], company: { $regex: "co", $options: "i" } };
      const sortedExpected = mine.filter((d) => d.company).sort(byNewest);
      const sortedPage = await collection.find(withCompany).sort({ createdAt: -1, _id: -1 }).skip(2).limit(5).toArray();
      expect(ids(sortedPage)).toEqual(ids(sortedExpected.slice(2, 7)));
      const oldestFirst = await collection.find(withCompany).sort({ createdAt: 1, _id: 1 }).limit(4).toArray();
      expect(ids(oldestFirst)).toEqual(ids([...sortedExpected].reverse().slice(0, 4)));
      // A covered query (fields and filter all index keys, no _id) is answered from the index alone.
      const coveredRows = await collection
        .find({ ownerId: owners[0], company: "Co 3" }, { projection: { _id: 0, company: 1, n: 1 } })
        .toArray();
      expect(coveredRows.map((r) => r.n).sort((a, b) => a - b)).toEqual(mine.filter((d) => d.company === "Co 3").map((d) => d.n));
      expect(coveredRows.every((r) => Object.keys(r).sort().join() === "company,n")).toBe(true);
      const noCompany = await collection.find({ ownerId: owners[0], company: { $exists: false } }, { projection: { _id: 0, company: 1, n: 1 } }).limit(2).toArray();
      expect(noCompany).toHaveLength(2);
      expect(noCompany.every((r) => !("company" in r) && typeof r.n === "number")).toBe(true);
      // Literal text (what a list search sends) is matched ignoring case, accents' case included.
      await collection.insertOne({ ownerId: owners[0], company: "ÉMILE (Ltd.) [2]", createdAt: new Date(t0), n: -1 });
      const literal = { ownerId: owners[0], $or: [{ company: { $regex: String.raw`émile \(ltd\.\) \[2`, $options: "i" } }] };
      expect(await collection.countDocuments(literal)).toBe(1);
      expect(await collection.countDocuments({ ...literal, $or: [{ company: { $regex: "emile", $options: "i" } }] })).toBe(0);
      await collection.deleteOne({ n: -1 });
      const found = await collection.find({ ownerId: owners[0], company: "Co 3" }).toArray();
      expect(found.map((d) => d.n).sort((a, b) => a - b)).toEqual(
        mine.filter((d) => d.company === "Co 3").map((d) => d.n),
      );
      // Another owner's id never matches: tenancy filters stay exact.
      const other = docs.find((d) => d.ownerId.equals(owners[2]))!;
      expect(await collection.findOne({ _id: other._id, ownerId: owners[0] })).toBeNull();
      expect(await collection.findOne({ _id: other._id, ownerId: owners[2] })).toMatchObject({ n: other.n });
      const grouped = await collection
        .aggregate([{ $match: { ownerId: owners[0] } }, { $group: { _id: null, total: { $sum: "$n" } } }])
        .toArray();
      expect(grouped[0].total).toBe(mine.reduce((s, d) => s + d.n, 0));
      // A group needing only index keys runs on the entries (a field a document lacks adds nothing),
      // one needing another field on the documents: the same answers either way.
      const withCompany0 = mine.filter((d) => d.company);
      const figures = await collection
        .aggregate([
          { $match: { ownerId: owners[0], company: { $exists: true } } },
          { $group: { _id: null, total: { $sum: "$n" }, low: { $min: "$n" }, count: { $sum: 1 }, latest: { $max: "$createdAt" } } },
        ])
        .toArray();
      expect(figures[0]).toMatchObject({
        total: withCompany0.reduce((s, d) => s + d.n, 0),
        low: Math.min(...withCompany0.map((d) => d.n)),
        count: withCompany0.length,
      });
      const unindexed = await collection
        .aggregate([{ $match: { ownerId: owners[0] } }, { $group: { _id: null, total: { $sum: "$tags" }, n: { $sum: "$n" } } }])
        .toArray();
      expect(unindexed[0]).toMatchObject({ total: 0, n: grouped[0].total });
      expect(await collection.countDocuments({ tags: "a" })).toBe(docs.filter((d) => d.tags).length);
    });

    it("follows updates and deletes of indexed fields", async () => {
      const collection = client.db("engine").collection("indexed");
      const moved = docs.find((d) => d.ownerId.equals(owners[0]))!;
      await collection.updateOne({ _id: moved._id }, { $set: { ownerId: owners[2], createdAt: new Date(t0 + 10_000_000) } });
      expect(await collection.findOne({ _id: moved._id, ownerId: owners[0] })).toBeNull();
      const newest = await collection.find({ ownerId: owners[2] }).sort({ createdAt: -1, _id: -1 }).limit(1).toArray();
      expect(String(newest[0]._id)).toBe(String(moved._id));
      await collection.deleteOne({ _id: moved._id });
      expect(await collection.countDocuments({ ownerId: owners[2] })).toBe(100);
      expect(await collection.countDocuments({ ownerId: owners[0] })).toBe(99);
      // The kept per-owner counts of present fields follow a field set, unset and a move.
      const withCompany = (owner: (typeof owners)[number]) => collection.countDocuments({ ownerId: owner, company: { $exists: true } });
      const without = (owner: (typeof owners)[number]) => collection.countDocuments({ ownerId: owner, company: { $exists: false } });
      const [before0, before2] = [await withCompany(owners[0]), await withCompany(owners[2])];
      const plain = docs.find((d) => d.ownerId.equals(owners[0]) && !d.company && !d._id.equals(moved._id))!;
      await collection.updateOne({ _id: plain._id }, { $set: { company: "New Co" } });
      expect(await withCompany(owners[0])).toBe(before0 + 1);
      await collection.updateOne({ _id: plain._id }, { $set: { ownerId: owners[2] } });
      expect(await withCompany(owners[0])).toBe(before0);
      expect(await withCompany(owners[2])).toBe(before2 + 1);
      await collection.updateOne({ _id: plain._id }, { $unset: { company: 1 } });
      expect(await withCompany(owners[2])).toBe(before2);
      expect((await withCompany(owners[2])) + (await without(owners[2]))).toBe(101);
    });

    it("rebuilds them when the database reopens", async () => {
      await client.close();
      await server.stop();
      server = await startEmbeddedDb({ dataDir, port: server.port, supervise: false });
      const collection = (await connect()).collection("indexed");
      expect(await collection.countDocuments({ ownerId: owners[1] })).toBe(100);
      const mine = docs.filter((d) => d.ownerId.equals(owners[1])).sort(byNewest);
      const page = await collection.find({ ownerId: owners[1] }).sort({ createdAt: -1, _id: -1 }).limit(3).toArray();
      expect(ids(page)).toEqual(ids(mine.slice(0, 3)));
    });
  });
});

describe("heapMegabytes", () => {
  it("reads megabytes and gigabytes and refuses anything else", () => {
    expect(heapMegabytes("512m")).toBe(512);
    expect(heapMegabytes("1G")).toBe(1024);
    expect(() => heapMegabytes("lots")).toThrow(/EMBEDDED_DB_HEAP/);
  });
});
