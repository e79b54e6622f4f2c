import mongoose from "mongoose";

type Id = string | mongoose.Types.ObjectId;

/**
 * An assessment written straight into the database as the app stores one (a walk that needs an
 * estimate in a given state, without the upload and the analysis): the lists empty and the dates now
 * unless given, the references as ObjectIds. Returns its id.
 */
export async function insertAssessment({ ownerId, contactId, vendorId, ...fields }: { ownerId: Id; contactId?: Id; vendorId?: Id } & Record<string, unknown>) {
  const { ObjectId } = mongoose.Types;
  const now = new Date();
  const { insertedId } = await mongoose.connection.collection("assessments").insertOne({
    mediaUrls: [],
    photoHashes: [],
    photoBands: [],
    photoWarnings: [],
    audit: [],
    damages: [],
    damageCategories: [],
    lineItems: [],
    createdAt: now,
    updatedAt: now,
    ...fields,
    ownerId: new ObjectId(ownerId),
    ...(contactId ? { contactId: new ObjectId(contactId) } : {}),
    ...(vendorId ? { vendorId: new ObjectId(vendorId) } : {}),
  });
  return String(insertedId);
}
