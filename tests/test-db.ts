import mongoose from "mongoose";
import { db } from "../app/utils/db.server";

/**
 * Connects this test file to its fresh database and empties it. Documents are deleted rather than
 * the database dropped: the embedded engine's dropDatabase can race with work on other databases
 * (test files run in parallel on one server; docs/decisions/0005).
 */
export async function useTestDb() {
  await db().ready;
  const collections = (await mongoose.connection.db?.collections()) ?? [];
  await Promise.all(collections.map((c) => c.deleteMany({})));
  await Promise.all(Object.values(mongoose.models).map((m) => m.createIndexes()));
  return mongoose.connection;
}
