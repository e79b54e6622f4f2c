import mongoose, { type Schema } from "mongoose";
import { isDbUnavailableError, serviceUnavailable } from "~/utils/db-errors.server";

/**
 * A write that collides on a unique key (an id another account's import claimed, a name taken
 * meanwhile) answers 409, never 500. The Response keeps the driver's `code: 11000`, so the writes
 * that expect a duplicate (a lock, an idempotency key, a username) still recognise it.
 */
function duplicateKey() {
  const response = new Response(JSON.stringify({ message: "This record conflicts with one already stored; please try again" }), {
    status: 409,
    headers: { "Content-Type": "application/json; charset=utf-8" },
  });
  return Object.assign(response, { code: 11000 });
}

const isDuplicateKey = (error: unknown) => (error as { code?: unknown } | null)?.code === 11000 && !(error instanceof Response);

/**
 * A database outage surfaces from any model call as a thrown 503 Response, so every screen and
 * API route answers 503 (with Retry-After) instead of 500 without wrapping each one; a duplicate
 * key as a 409 (above).
 */
function unavailableAs503(schema: Schema) {
  const handler = (error: mongoose.CallbackError, _res: unknown, next: (err?: mongoose.CallbackError) => void) => {
    // A Response is what Remix turns into the reply; mongoose passes it through untouched.
    if (isDbUnavailableError(error)) next(serviceUnavailable() as unknown as Error);
    else if (isDuplicateKey(error)) next(duplicateKey() as unknown as Error);
    else next(error);
  };
  schema.post(/.*/, { document: false, query: true }, handler);
  schema.post("save", handler);
  schema.post("insertMany", handler);
  schema.post("aggregate", handler);
}

/** Schema `toJSON` option: the API shape (`id`, no `_id`/`__v`) minus fields that must never leave the server. */
export function jsonWithout(...hidden: string[]) {
  return {
    virtuals: true,
    versionKey: false,
    transform: (_doc: unknown, ret: Record<string, unknown>) => {
      delete ret._id;
      for (const field of hidden) delete ret[field];
      return ret;
    },
  };
}

/** mongoose.model() that tolerates the module being evaluated again (dev reload), keeping full types. */
export function defineModel<S extends Schema>(name: string, schema: S) {
  if (mongoose.models[name]) mongoose.deleteModel(name);
  schema.plugin(unavailableAs503);
  return mongoose.model(name, schema);
}
