import mongoose, { type InferRawDocTypeFromSchema, type Schema } from "mongoose";
import { errorCode, isDbUnavailableError } from "~/utils/db-errors.server";
import { DatabaseUnavailable, DomainError, DuplicateKey, Unauthenticated } from "~/utils/domain-errors";
import { diskFullError, isDiskFullError } from "~/utils/disk.server";
import { retireIndexes } from "~/utils/retired-indexes.server";
import { isRecord } from "~/utils/unknown-values";

const isDuplicateKey = (error: unknown) => errorCode(error) === 11000 && !(error instanceof DomainError);

/**
 * A database outage surfaces from any model call as a typed DatabaseUnavailable, so every screen and
 * API route answers 503 (with Retry-After) instead of 500 without wrapping each one; a duplicate key
 * as a DuplicateKey (409), a write refused for lack of disk space as a DiskFull (507,
 * docs/decisions/0038). The routes turn them into HTTP (app/utils/http.server.ts).
 */
function typedDatabaseErrors(schema: Schema) {
  const handler = (error: mongoose.CallbackError, _res: unknown, next: (err?: mongoose.CallbackError) => void) => {
    if (isDbUnavailableError(error)) next(new DatabaseUnavailable());
    else if (isDuplicateKey(error)) next(new DuplicateKey());
    else if (isDiskFullError(error)) next(diskFullError());
    else next(error);
  };
  schema.post(/.*/, { document: false, query: true }, handler);
  schema.post("save", handler);
  schema.post("insertMany", handler);
  schema.post("aggregate", handler);
}

const unauthorized = () => new Unauthenticated("Unauthorized");

/**
 * No record of a deleted account may stay behind its deletion (docs/decisions/0016): a request
 * that authenticated just before the account was marked deleted may still be writing, on any
 * instance. After each insert of an owned record the owner is read from the database; if it is
 * marked deleted or gone, the insert is removed again and the request answers 401. The deletion
 * marks the account first and removes what it owns after, so every insert is either seen by that
 * removal or sees the mark itself.
 */
function ownerFence(schema: Schema) {
  const path = schema.path("ownerId") ? "ownerId" : schema.path("vendorId") ? "vendorId" : undefined;
  if (!path) return;
  type Owned = mongoose.Document & Record<string, unknown>;
  const live = async (owners: unknown[]) => {
    const ids = [...new Set(owners.filter(Boolean).map(String))];
    if (ids.length === 0) return new Set<string>();
    const found = await mongoose.connection
      .collection("users")
      .find({ _id: { $in: ids.map((id) => new mongoose.Types.ObjectId(id)) }, deletedAt: null }, { projection: { _id: 1 } })
      .toArray();
    const alive = new Set(found.map((u) => String(u._id)));
    return new Set(ids.filter((id) => !alive.has(id)));
  };
  schema.pre("save", function (this: Owned) {
    this.$locals.inserting = this.isNew;
  });
  schema.post("save", async function (this: Owned) {
    if (!this.$locals.inserting || !this.get(path)) return;
    if ((await live([this.get(path)])).size === 0) return;
    await this.$model().deleteOne({ _id: this._id });
    throw unauthorized();
  });
  schema.post("insertMany", async function (this: mongoose.Model<unknown>, inserted: unknown) {
    const docs = Array.isArray(inserted) ? inserted.filter(isRecord) : [];
    const gone = await live(docs.map((d) => d[path]));
    if (gone.size === 0) return;
    await this.deleteMany({ _id: mongoose.trusted({ $in: docs.filter((d) => gone.has(String(d[path]))).map((d) => d._id) }) });
    throw unauthorized();
  });
}

/**
 * A model's record as it is read (`lean()`, `toObject()`): the plain type mongoose infers from the
 * schema, `_id` included, so a record type cannot drift from its schema. Mongoose types an optional
 * path `T | null`; a path that nothing ever writes null to (input is zod-parsed, and a cleared field is
 * `$unset`) says `allowNull: false`, and reads back as `T | undefined`. A path with `default: null`
 * stays `T | null`.
 */
export type RecordOf<S extends Schema> = InferRawDocTypeFromSchema<S>;
/** An embedded record (a subdocument schema declared `{ _id: false }`). */
export type EmbeddedRecordOf<S extends Schema> = Omit<RecordOf<S>, "_id">;

/** mongoose.model() that tolerates the module being evaluated again (dev reload), keeping full types. */
export function defineModel<S extends Schema>(name: string, schema: S, options: { retiredIndexes?: string[] } = {}) {
  if (mongoose.models[name]) mongoose.deleteModel(name);
  schema.plugin(typedDatabaseErrors);
  schema.plugin(ownerFence);
  const model = mongoose.model(name, schema);
  if (options.retiredIndexes) retireIndexes(model, options.retiredIndexes);
  return model;
}
