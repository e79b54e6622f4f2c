import mongoose, { type Schema } from "mongoose";

/** mongoose.model() that tolerates the module being evaluated again (dev reload), keeping full types. */
export function defineModel<S extends Schema>(name: string, schema: S) {
  if (mongoose.models[name]) mongoose.deleteModel(name);
  return mongoose.model(name, schema);
}
