import type { Model, Types } from "mongoose";
import { isObjectIdHex } from "./owner-scope.server";
import type { DeletedKind } from "~/schemas/deletions";
import { recordDeletion } from "./deletion.server";
import { changedSince, keysetSort } from "./keyset.server";
import { deleteInBatches } from "./batch-delete.server";

/**
 * The queries of a vendor's documents (pricing rules, vendor packages, learning records): every one
 * filtered by the vendor, so another vendor's id finds nothing. The service decides which vendor a
 * caller may act for; the model never reads a document outside it.
 */
// Any model with vendorId and createdAt: the filters are built from plain fields.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function vendorOwned<T extends { _id: Types.ObjectId }>(model: Model<any>, kind?: DeletedKind) {
  return {
    /** The vendor's documents matching `filter` (plain equalities), newest first; changed since `since`, oldest change first. */
    find({ vendorId, filter = {}, since }: { vendorId: string; filter?: Record<string, string | boolean>; since?: Date }) {
      return model.find({ ...filter, vendorId, ...changedSince(since) }).sort(keysetSort(undefined, since)).lean<T[]>();
    },
    /** One document of any vendor (for admins, who act for every vendor). */
    findAny({ id }: { id: string }) {
      if (!isObjectIdHex(id)) return Promise.resolve(null);
      return model.findById(id).lean<T>();
    },
    findOne({ vendorId, id }: { vendorId: string; id: string }) {
      if (!isObjectIdHex(id)) return Promise.resolve(null);
      return model.findOne({ _id: id, vendorId }).lean<T>();
    },
    async insert({ vendorId, fields }: { vendorId: string; fields: object }) {
      const doc = await model.create({ ...fields, vendorId });
      // The model is untyped here (any vendor model): the record's type is the caller's T, as for lean<T>().
      const record: T = doc.toObject();
      return record;
    },
    /** Sets `$set` and removes `$unset` fields of one of the vendor's documents; null when not found. */
    update({ vendorId, id, $set, $unset = [] }: { vendorId: string; id: string; $set: object; $unset?: string[] }) {
      if (!isObjectIdHex(id)) return Promise.resolve(null);
      const update = $unset.length ? { $set, $unset: Object.fromEntries($unset.map((k) => [k, 1])) } : { $set };
      return model
        .findOneAndUpdate({ _id: id, vendorId }, update, { returnDocument: "after", runValidators: true })
        .lean<T>();
    },
    async remove({ vendorId, id }: { vendorId: string; id: string }) {
      if (!isObjectIdHex(id)) return null;
      const removed = await model.findOneAndDelete({ _id: id, vendorId }).lean<T>();
      if (kind) await recordDeletion(kind, removed && { _id: removed._id, ownerId: vendorId });
      return removed;
    },
    /** Every document of a vendor (the vendor account is being deleted). */
    async removeAllOf({ vendorId }: { vendorId: string }) {
      await deleteInBatches(model, { vendorId });
    },
  };
}

export interface DamagePair {
  damageType: string;
  severity: string;
}

/**
 * `$or` branches for (damage type, severity) pairs: each an equality on two indexed fields, so the
 * indexes that lead with them (after the vendor and the state) decide it before a document is read.
 */
export const pairFilters = (pairs: DamagePair[]) => pairs.map((p) => ({ damageType: p.damageType, severity: p.severity }));
