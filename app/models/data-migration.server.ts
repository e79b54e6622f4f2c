import { Schema, trusted } from "mongoose";
import { defineModel } from "./define-model.server";

/**
 * The data migrations this database has had (app/services/data-migrations.server.ts): one document
 * per step, written when the step finished over the whole database. A restored older database
 * brings its own (or none), so what it lacks runs again.
 */
const dataMigrationSchema = new Schema({ _id: { type: String }, changed: { type: Number, required: true } }, { timestamps: true });
const DataMigration = defineModel("DataMigration", dataMigrationSchema);

export async function migrationsDone(names: string[]) {
  const done = await DataMigration.find({ _id: trusted({ $in: names }) }).select({ _id: 1 }).lean<{ _id: string }[]>();
  return new Set(done.map((d) => d._id));
}

export async function recordMigrationDone(name: string, changed: number) {
  await DataMigration.updateOne({ _id: name }, { $set: { changed } }, { upsert: true });
}
