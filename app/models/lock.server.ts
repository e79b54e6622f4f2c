import { defineModel } from "./define-model.server";
import { Schema } from "mongoose";
import { errorCode } from "~/utils/db-errors.server";

/**
 * One-off claims made atomic by the unique _id (no multi-document transactions: not on every engine):
 * e.g. "admin-setup" so two concurrent set-up requests cannot both create an admin.
 */
const lockSchema = new Schema({ _id: { type: String } }, { timestamps: true });
export const Lock = defineModel("Lock", lockSchema);

export async function claimLock(id: string) {
  try {
    await Lock.create({ _id: id });
    return true;
  } catch (error) {
    if (errorCode(error) === 11000) return false;
    throw error;
  }
}

export async function releaseLock(id: string) {
  await Lock.deleteOne({ _id: id });
}
