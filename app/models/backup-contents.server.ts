import mongoose from "mongoose";
import { EstimateLink } from "./estimate-link.server";
import { Upload } from "./upload.server";

/**
 * What a backup holds (docs/decisions/0066): the engine's point-in-time snapshot, and, read from a copy
 * of that snapshot opened by an engine of its own, each collection's count and the objects its records
 * name. The same reads verify a restore.
 */

const { MongoClient } = mongoose.mongo;
type Db = mongoose.mongo.Db;

/** Asks the app's embedded engine for a snapshot of its store; answers the file's path and how long writes waited. */
export async function takeSnapshot(name: string) {
  const db = mongoose.connection.db;
  if (!db) throw new Error("the database is not connected");
  const answer = await db.admin().command({ damageiqSnapshot: 1, name });
  return { path: String(answer.path), bytes: Number(answer.bytes), pauseMs: Number(answer.millis) };
}

/** The database name the app uses (the same in a snapshot of it). */
export function appDbName() {
  const name = mongoose.connection.db?.databaseName;
  if (!name) throw new Error("the database is not connected");
  return name;
}

/** Runs `read` against a database served at `uri` (an engine opened on a snapshot or a restore). */
export async function withDatabase<T>(uri: string, dbName: string, read: (db: Db) => Promise<T>) {
  const client = await new MongoClient(uri, { serverSelectionTimeoutMS: 60_000 }).connect();
  try {
    return await read(client.db(dbName));
  } finally {
    await client.close();
  }
}

/** Each collection's document count, by name (the database counts them). */
export async function collectionCounts(db: Db) {
  const counts: Record<string, number> = {};
  for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
    if (name.startsWith("system.")) continue;
    counts[name] = await db.collection(name).countDocuments({});
  }
  return counts;
}

/**
 * Every object key the records name: completed uploads (photos, videos, logos, training images) and
 * the PDFs customers' links serve. Read a page at a time; yields keys.
 */
export async function* referencedObjects(db: Db) {
  const sources = [
    { collection: Upload.collection.collectionName, filter: { state: "complete" }, field: "key" },
    { collection: EstimateLink.collection.collectionName, filter: {}, field: "pdfKey" },
  ];
  for (const { collection, filter, field } of sources) {
    const cursor = db.collection(collection).find(filter, { projection: { [field]: 1 }, batchSize: 500 });
    for await (const doc of cursor) {
      const key: unknown = doc[field];
      if (typeof key === "string" && key) yield key;
    }
  }
}
