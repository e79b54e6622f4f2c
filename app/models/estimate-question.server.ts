import { Schema, Types } from "mongoose";
import { defineModel, type EmbeddedRecordOf, type RecordOf } from "./define-model.server";
import { isObjectIdHex, ownerFilter, type OwnerScope } from "./owner-scope.server";

// A customer's question on their estimate page (/e/{token}) and the dealer's answers
// (docs/decisions/0058): stored before anyone is told, so a mail server that refuses the notice
// loses nothing. Owned by the dealer's account, like the link it was asked through.

const answerSchema = new Schema(
  {
    _id: { type: Schema.Types.ObjectId, required: true },
    message: { type: String, required: true },
    /** Database clock. */
    at: { type: Date, required: true },
    /** Who answered (a user of the account, or an admin acting on it) and their name as it was. */
    by: { type: Schema.Types.ObjectId, required: true },
    byName: { type: String, required: true },
    /** The email that took the answer to the customer; absent when no address was known. */
    emailLogId: { type: Schema.Types.ObjectId, allowNull: false },
  },
  { _id: true },
);

const estimateQuestionSchema = new Schema(
  {
    ownerId: { type: Schema.Types.ObjectId, required: true, immutable: true },
    /** The version the question was asked on (the link's), and the estimate's first version. */
    assessmentId: { type: Schema.Types.ObjectId, required: true, immutable: true },
    rootId: { type: Schema.Types.ObjectId, required: true, immutable: true },
    version: { type: Number, required: true, min: 1, immutable: true },
    linkId: { type: Schema.Types.ObjectId, required: true, immutable: true },
    /**
     * The link's token sealed with the server's secret (secret-box, as an emailed link's): the
     * answer's email takes the customer back to the page they asked on.
     */
    tokenSealed: { type: String, immutable: true, allowNull: false },
    /** Whom the link speaks to (its recipient, else the estimate's customer), as they were. */
    customer: {
      type: new Schema({ firstName: String, lastName: String, email: String }, { _id: false }),
      default: undefined,
      immutable: true,
    },
    /** The address the customer typed for the answer (optional on the page). */
    replyEmail: { type: String, immutable: true, allowNull: false },
    message: { type: String, required: true, immutable: true },
    /** Database clock. */
    askedAt: { type: Date, required: true, immutable: true },
    answers: { type: [answerSchema], default: [] },
    /** The first answer's time: null while the question is unanswered (the dashboard counts those). */
    answeredAt: { type: Date, default: null },
  },
  { timestamps: false },
);
// An estimate's thread (every version), oldest first; a link's own questions (the public page).
estimateQuestionSchema.index({ ownerId: 1, rootId: 1, askedAt: 1 });
estimateQuestionSchema.index({ linkId: 1, askedAt: 1 });
// The dashboard's unanswered questions of an account, newest first.
estimateQuestionSchema.index({ ownerId: 1, answeredAt: 1, askedAt: -1 });

export const EstimateQuestion = defineModel("EstimateQuestion", estimateQuestionSchema);

export type EstimateQuestionRecord = RecordOf<typeof estimateQuestionSchema>;
export type QuestionAnswerRecord = EmbeddedRecordOf<typeof answerSchema> & { _id: Types.ObjectId };

export async function insertQuestion(fields: Omit<EstimateQuestionRecord, "_id" | "answers" | "answeredAt">): Promise<EstimateQuestionRecord> {
  const doc = await EstimateQuestion.create({ _id: new Types.ObjectId(), ...fields, answers: [], answeredAt: null });
  return doc.toObject();
}

/** The questions on every version of an estimate, in scope, oldest first. */
export function findQuestionsOfEstimate({ scope, rootId }: { scope: OwnerScope; rootId: Types.ObjectId }) {
  return EstimateQuestion.find({ ...ownerFilter(scope), rootId }).sort({ askedAt: 1, _id: 1 }).limit(500).lean<EstimateQuestionRecord[]>();
}

/** The questions asked through one link (its owner's), oldest first. */
export function findQuestionsOfLink({ ownerId, linkId }: { ownerId: Types.ObjectId; linkId: Types.ObjectId }) {
  return EstimateQuestion.find({ ownerId, linkId }).sort({ askedAt: 1, _id: 1 }).limit(100).lean<EstimateQuestionRecord[]>();
}

/** One question of an estimate, in scope; null for an id that is not one of its questions. */
export function findQuestion({ scope, rootId, id }: { scope: OwnerScope; rootId: Types.ObjectId; id: string }) {
  if (!isObjectIdHex(id)) return Promise.resolve(null);
  return EstimateQuestion.findOne({ ...ownerFilter(scope), rootId, _id: new Types.ObjectId(id) }).lean<EstimateQuestionRecord>();
}

/** Adds an answer (the first one also marks the question answered); the question as it is now. */
export async function pushAnswer({ ownerId, id, answer }: { ownerId: Types.ObjectId; id: Types.ObjectId; answer: Omit<QuestionAnswerRecord, "emailLogId"> }) {
  await EstimateQuestion.updateOne({ ownerId, _id: id, answeredAt: null }, { $set: { answeredAt: answer.at } });
  return EstimateQuestion.findOneAndUpdate({ ownerId, _id: id }, { $push: { answers: answer } }, { new: true }).lean<EstimateQuestionRecord>();
}

/** Notes the email that took an answer to the customer. */
export async function noteAnswerEmail({ ownerId, id, answerId, emailLogId }: { ownerId: Types.ObjectId; id: Types.ObjectId; answerId: Types.ObjectId; emailLogId: Types.ObjectId }) {
  await EstimateQuestion.updateOne({ ownerId, _id: id, "answers._id": answerId }, { $set: { "answers.$.emailLogId": emailLogId } });
}

/** How many of the scope's questions wait for an answer, and the newest few of them. */
export async function unansweredOf({ scope, limit }: { scope: OwnerScope; limit: number }) {
  const filter = { ...ownerFilter(scope), answeredAt: null };
  const [count, latest] = await Promise.all([
    EstimateQuestion.countDocuments(filter),
    EstimateQuestion.find(filter).sort({ askedAt: -1 }).limit(limit).lean<EstimateQuestionRecord[]>(),
  ]);
  return { count, latest };
}

/** The account is being deleted: its customers' questions go with it. */
export async function removeQuestionsOf({ ownerId }: { ownerId: string }) {
  await EstimateQuestion.deleteMany({ ownerId });
}
