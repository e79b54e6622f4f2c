import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedDb, type EmbeddedDb } from "./embedded-db.server";

const { MongoClient, ObjectId, Long, Double } = mongoose.mongo;
type Filter = Record<string, unknown>;

// The launcher's planner must never answer differently from a scan (docs/decisions/0005): each case
// here is one it once got wrong. A filter wrapped as {$and: [filter]} names no field at the top level,
// so no index serves it: that is the scan the planner's answers are held to.

describe("embedded database planner", () => {
  let dataDir: string;
  let server: EmbeddedDb;
  let client: InstanceType<typeof MongoClient>;
  const db = () => client.db("planner");

  const connect = async () => {
    client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 5000 });
    await client.connect();
  };
  const restart = async () => {
    await client.close();
    await server.stop();
    server = await startEmbeddedDb({ dataDir, port: server.port, supervise: false });
    await connect();
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "engine-planner-"));
    server = await startEmbeddedDb({ dataDir, supervise: false });
    await connect();
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("finds, counts, updates and deletes documents whose indexed array is empty, before and after a restart", async () => {
    const owner = new ObjectId();
    const other = new ObjectId();
    const assessments = (i: number, ownerId: InstanceType<typeof ObjectId>) => ({
      ownerId,
      title: `Car ${i}`,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)),
      // Half have no photo bands (an assessment without photos, as mongoose stores it).
      photoBands: i % 2 ? [] : [`0:${i}`, "1:ffff"],
    });
    // As the app's models declare them: the reused-photo index first, then the list's.
    const bands = db().collection("bands");
    await bands.createIndex({ ownerId: 1, photoBands: 1 });
    await bands.createIndex({ ownerId: 1, createdAt: -1 });
    // The only index that serves an owner's filter has the array: every plan walks it.
    const bandsOnly = db().collection("bandsonly");
    await bandsOnly.createIndex({ ownerId: 1, photoBands: 1 });
    for (const collection of [bands, bandsOnly]) {
      await collection.insertMany(Array.from({ length: 20 }, (_, i) => assessments(i, owner)));
      await collection.insertMany(Array.from({ length: 5 }, (_, i) => assessments(i, other)));
    }

    const check = async () => {
      for (const name of ["bands", "bandsonly"]) {
        const collection = db().collection(name);
        expect((await collection.find({ ownerId: owner }).toArray()).length, name).toBe(20);
        expect(await collection.countDocuments({ ownerId: owner }), name).toBe(20);
        expect((await collection.distinct("title", { ownerId: owner })).length, name).toBe(20);
        expect((await collection.find({ ownerId: owner }, { projection: { _id: 0, ownerId: 1, photoBands: 1 } }).toArray()).length).toBe(20);
        const sorted = { sort: { photoBands: 1, _id: 1 } } as const;
        expect(await collection.find({ ownerId: owner }, sorted).toArray(), name).toEqual(
          await collection.find({ $and: [{ ownerId: owner }] }, sorted).toArray(),
        );
        const descending = { sort: { photoBands: -1, _id: -1 }, limit: 12 } as const;
        expect(await collection.find({ ownerId: owner }, descending).toArray(), name).toEqual(
          await collection.find({ $and: [{ ownerId: owner }] }, descending).toArray(),
        );
        expect(await collection.countDocuments({ ownerId: owner, photoBands: "1:ffff" }), name).toBe(10);
        expect((await collection.updateMany({ ownerId: owner }, { $inc: { seen: 1 } })).modifiedCount, name).toBe(20);
        const picked = await collection.findOneAndUpdate({ ownerId: owner, photoBands: { $size: 0 } }, { $set: { picked: true } });
        expect(picked?.photoBands, name).toEqual([]);
      }
    };
    await check();
    await restart();
    await check();
    for (const name of ["bands", "bandsonly"]) {
      const collection = db().collection(name);
      expect((await collection.deleteMany({ ownerId: owner })).deletedCount, name).toBe(20);
      expect(await collection.countDocuments({ $and: [{ ownerId: owner }] })).toBe(0);
      expect(await collection.countDocuments({ ownerId: other })).toBe(5);
    }
  });

  it("keeps counts and lists of untouched fields exact while writers move index entries", { timeout: 120_000 }, async () => {
    const owner = new ObjectId();
    const collection = db().collection("moving");
    await collection.createIndex({ ownerId: 1, createdAt: -1 });
    await collection.createIndex({ ownerId: 1, status: 1, title: 1 });
    await collection.createIndex({ ownerId: 1, updatedAt: 1, title: 1 });
    const total = 300;
    await collection.insertMany(
      Array.from({ length: total }, (_, i) => ({
        ownerId: owner,
        title: `Car ${i}`,
        status: "draft",
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)),
        updatedAt: new Date(),
      })),
    );
    const ids = (await collection.find({ ownerId: owner }, { projection: { _id: 1 } }).toArray()).map((d) => d._id);
    const statuses = ["draft", "sent", "approved", "uploaded"];
    const deadline = Date.now() + 3000;
    const wrong: string[] = [];
    let reads = 0;
    let writes = 0;
    let writing = true;
    const writer = async (seed: number) => {
      // At least 3 s and at least 30 writes, however busy the machine is.
      for (let i = seed; Date.now() < deadline || writes < 30; i += 7) {
        // Both indexed fields move the document's entries to another place in their index.
        await collection.updateOne({ _id: ids[i % total] }, { $set: { status: statuses[i % 4], updatedAt: new Date() } });
        // A whole status at once: many entries move while a reader walks the index.
        await collection.updateMany({ ownerId: owner, status: statuses[i % 4] }, { $set: { status: statuses[(i + 1) % 4] } });
        writes += 2;
      }
    };
    const reader = async () => {
      while (writing) {
        const counted = await Promise.all([
          collection.countDocuments({ ownerId: owner }),
          collection.countDocuments({ ownerId: owner, title: { $regex: "car", $options: "i" } }),
          collection.countDocuments({ ownerId: owner, title: { $exists: true } }),
          collection.find({ ownerId: owner, title: { $regex: "^Car" } }, { projection: { _id: 0, title: 1 } }).toArray().then((r) => r.length),
          collection.find({ ownerId: owner }).sort({ createdAt: -1, _id: -1 }).toArray().then((r) => r.length),
        ]);
        reads += counted.length;
        if (counted.some((n) => n !== total)) wrong.push(counted.join(","));
      }
    };
    const readers = [reader(), reader(), reader(), reader()];
    await Promise.all([writer(0), writer(1), writer(2)]);
    writing = false;
    await Promise.all(readers);
    expect(reads).toBeGreaterThan(0);
    expect(wrong).toEqual([]);
  });

  it("matches $regex against strings only, through an index and by a scan", async () => {
    const owner = new ObjectId();
    const collection = db().collection("regextypes");
    await collection.createIndex({ ownerId: 1, code: 1 });
    const values: unknown[] = [12, 120.5, true, new Date(Date.UTC(2012, 0, 1)), new ObjectId("6512345678901234567890ab"), new Long(1212), null, "12", "a1", "b"];
    await collection.insertMany(values.map((code, i) => ({ ownerId: owner, i, code })));
    const filters: Filter[] = [
      { ownerId: owner, code: { $regex: "1" } },
      { ownerId: owner, code: /^t|1|e/i },
      { ownerId: owner, code: { $in: [/2/, 12] } },
      { ownerId: owner, code: { $not: /1/ } },
      { ownerId: owner, $or: [{ code: { $regex: "2" } }, { i: 0 }] },
    ];
    // By position in `values`: strings only match, and $not matches everything else.
    const expected = [[7, 8], [7, 8], [0, 7], [0, 1, 2, 3, 4, 5, 6, 9], [0, 7]];
    const codes = (rows: object[]) => rows.map((r) => (r as { i: number }).i).sort((a, b) => a - b);
    for (const [n, filter] of filters.entries()) {
      const label = String(n);
      const want = expected[n];
      expect(codes(await collection.find({ $and: [filter] }).toArray()), label).toEqual(want);
      expect(codes(await collection.find(filter).toArray()), label).toEqual(want);
      const covered = await collection.find(filter, { projection: { _id: 0, ownerId: 1, code: 1 } }).toArray();
      expect(covered.length, label).toBe(want.length);
      expect(await collection.countDocuments(filter), label).toBe(want.length);
      expect(await collection.countDocuments({ $and: [filter] }), label).toBe(want.length);
    }
    // An array: a string element matches, a number element never does.
    await collection.insertMany([{ ownerId: owner, code: [1, "x"] }, { ownerId: owner, code: ["z1"] }]);
    for (const filter of [{ ownerId: owner, code: /1/ }, { $and: [{ ownerId: owner, code: /1/ }] }]) {
      const found = (await collection.find(filter).sort({ _id: 1 }).toArray()).map((r) => r.code);
      expect(found, JSON.stringify(filter)).toEqual(["12", "a1", ["z1"]]);
    }
  });

  it("adds a plain $sum exactly, whatever the order the documents come in", async () => {
    const owner = new ObjectId();
    const collection = db().collection("summed");
    await collection.createIndex({ ownerId: 1, estimatedCost: 1 });
    // Added in _id order 0.3 + 0.2 + 0.1 is 0.6; in index order 0.1 + 0.2 + 0.3 is 0.6000000000000001.
    await collection.insertMany([0.3, 0.2, 0.1].map((estimatedCost) => ({ ownerId: owner, estimatedCost: new Double(estimatedCost) })));
    const total = [{ $group: { _id: null, total: { $sum: "$estimatedCost" } } }];
    const covered = await collection.aggregate([{ $match: { ownerId: owner } }, ...total]).toArray();
    const scanned = await collection.aggregate([{ $match: { $and: [{ ownerId: owner }] } }, ...total]).toArray();
    expect(covered).toEqual([{ _id: null, total: 0.6 }]);
    expect(scanned).toEqual(covered);
    await collection.insertMany([{ ownerId: owner, estimatedCost: 2 }, { ownerId: owner, estimatedCost: new Long("5000000000") }]);
    expect(await collection.aggregate([{ $match: { ownerId: owner, estimatedCost: { $gte: 1 } } }, ...total]).toArray()).toEqual([
      { _id: null, total: 5000000002 },
    ]);
  });

  it("orders and compares a long beyond an int and a fractional double by value in an index and a sort", async () => {
    const owner = new ObjectId();
    const collection = db().collection("longs");
    await collection.createIndex({ ownerId: 1, n: 1 });
    // The double first: a tie (upstream's truncation) would put it first by _id.
    await collection.insertOne({ ownerId: owner, n: new Double(3000000000.5), label: "double" });
    await collection.insertOne({ ownerId: owner, n: Long.fromNumber(3000000000), label: "long" });
    await collection.insertOne({ ownerId: owner, n: new Double(3000000000), label: "whole" });
    const labels = (rows: object[]) => rows.map((r) => (r as { label: string }).label);
    for (const filter of [{ ownerId: owner }, { $and: [{ ownerId: owner }] }]) {
      const label = JSON.stringify(filter);
      expect(labels(await collection.find(filter).sort({ n: 1, _id: 1 }).toArray()), label).toEqual(["long", "whole", "double"]);
      expect(labels(await collection.find(filter).sort({ n: -1, _id: -1 }).toArray()), label).toEqual(["double", "whole", "long"]);
    }
    for (const [n, count] of [[new Double(3000000000.5), 1], [Long.fromNumber(3000000000), 2], [3000000000, 2]] as const) {
      expect(await collection.countDocuments({ ownerId: owner, n }), String(n)).toBe(count);
      expect((await collection.find({ ownerId: owner, n }, { projection: { _id: 0, n: 1 } }).toArray()).length, String(n)).toBe(count);
      expect(await collection.countDocuments({ $and: [{ ownerId: owner, n }] }), String(n)).toBe(count);
    }
  });

  it("refuses a document with arrays under two keys of one index (171) before storing or indexing anything", async () => {
    const owner = new ObjectId();
    const collection = db().collection("parallel");
    await collection.createIndex({ ownerId: 1, b: 1 });
    await collection.createIndex({ a: 1, b: 1 });
    await expect(collection.insertOne({ ownerId: owner, a: [1, 2], b: [3, 4] })).rejects.toMatchObject({ code: 171 });
    expect(await collection.countDocuments({ $and: [{}] })).toBe(0);
    expect(await collection.countDocuments({ ownerId: owner })).toBe(0);
    const { insertedId } = await collection.insertOne({ ownerId: owner, a: [1], b: 2 });
    await expect(collection.updateOne({ _id: insertedId }, { $set: { b: [5, 6] } })).rejects.toMatchObject({ code: 171 });
    expect(await collection.findOne({ _id: insertedId })).toMatchObject({ b: 2 });
    expect(await collection.countDocuments({ ownerId: owner, b: 2 })).toBe(1);
    expect((await collection.find({ ownerId: owner, b: 2 }).toArray()).length).toBe(1);
    expect(await collection.countDocuments({ ownerId: owner, b: 5 })).toBe(0);
  });

  it("refuses an invalid regular expression on every path, also when nothing would be tested", async () => {
    const owner = new ObjectId();
    const collection = db().collection("badregex");
    await collection.createIndex({ ownerId: 1, title: 1 });
    await collection.insertOne({ ownerId: new ObjectId(), title: "Car" });
    const invalid = { $regex: "(", $options: "i" };
    for (const filter of [{ ownerId: owner, title: invalid }, { $and: [{ ownerId: owner, title: invalid }] }, { title: invalid }]) {
      const label = JSON.stringify(filter);
      await expect(collection.countDocuments(filter), label).rejects.toMatchObject({ code: 51091 });
      await expect(collection.find(filter).toArray(), label).rejects.toMatchObject({ code: 51091 });
      await expect(collection.find(filter, { projection: { _id: 0, title: 1 } }).toArray(), label).rejects.toMatchObject({ code: 51091 });
      await expect(collection.deleteMany(filter), label).rejects.toMatchObject({ code: 51091 });
    }
    await expect(collection.countDocuments({ title: { $regex: "a", $options: "g" } })).rejects.toMatchObject({ code: 51108 });
    expect(await collection.countDocuments({})).toBe(1);
  });
});
