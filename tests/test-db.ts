import mongoose from "mongoose";
import { db } from "../app/utils/db.server";

/** Connects this test file to its fresh database and empties it. */
export async function useTestDb() {
  await db().ready;
  await mongoose.connection.db?.dropDatabase();
  await Promise.all(Object.values(mongoose.models).map((m) => m.createIndexes()));
  return mongoose.connection;
}
