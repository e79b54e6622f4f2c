import { Schema, type Types } from "mongoose";
import type { DeletedKind } from "~/schemas/deletions";
import type { ListCursor } from "~/schemas/list-cursor";
import { defineModel } from "./define-model.server";
import { keysetFilter, keysetSort } from "./keyset.server";
import { ownerFilter, type OwnerScope } from "./owner-scope.server";
import { deleteInBatches } from "./batch-delete.server";

/**
 * What a sync cannot see by itself: a record that was deleted (docs/decisions/0056). One small
 * record per deletion, written by the model function that deleted it, read by `GET /api/deletions`
 * in the order of a sync (updatedAt, then _id). Records without an account (AI training items, user
 * accounts) have no owner: only an admin reads them.
 */
const deletionSchema = new Schema(
  {
    ownerId: { type: Schema.Types.ObjectId, immutable: true },
    kind: { type: String, required: true, immutable: true },
    recordId: { type: Schema.Types.ObjectId, required: true, immutable: true },
  },
  { timestamps: true },
);
deletionSchema.index({ ownerId: 1, updatedAt: 1, _id: 1 });
deletionSchema.index({ updatedAt: 1, _id: 1 });

export const Deletion = defineModel("Deletion", deletionSchema);

export interface DeletionRecord {
  _id: Types.ObjectId;
  ownerId?: Types.ObjectId;
  kind: DeletedKind;
  recordId: Types.ObjectId;
  createdAt: Date;
  updatedAt: Date;
}

/** Notes that a record is gone (after its delete was acknowledged); nothing for a delete that found nothing. */
export async function recordDeletion(kind: DeletedKind, removed: { _id: Types.ObjectId | string; ownerId?: Types.ObjectId | string } | null | undefined) {
  if (!removed) return;
  await Deletion.create({ kind, recordId: removed._id, ...(removed.ownerId ? { ownerId: removed.ownerId } : {}) });
}

/** The same for several records deleted together. */
export async function recordDeletions(kind: DeletedKind, removed: { _id: Types.ObjectId | string; ownerId?: Types.ObjectId | string }[]) {
  if (removed.length === 0) return;
  await Deletion.insertMany(removed.map((r) => ({ kind, recordId: r._id, ...(r.ownerId ? { ownerId: r.ownerId } : {}) })));
}

/** The scope's deletions from `since` or past a sync's cursor, oldest first (one more than `limit` when given). */
export function findDeletions({ scope, since, cursor, limit }: { scope: OwnerScope; since: Date; cursor?: ListCursor; limit?: number }) {
  const query = Deletion.find({ ...ownerFilter(scope), ...keysetFilter(cursor, since) }).sort(keysetSort(cursor, since));
  return (limit === undefined ? query : query.limit(limit)).lean<DeletionRecord[]>();
}

export const countDeletions = ({ scope, since }: { scope: OwnerScope; since: Date }) =>
  Deletion.countDocuments({ ...ownerFilter(scope), ...keysetFilter(undefined, since) });

/** Every deletion noted for an account (the account is being deleted). */
export async function removeDeletionsOf({ ownerId }: { ownerId: string }) {
  await deleteInBatches(Deletion, { ownerId });
}
