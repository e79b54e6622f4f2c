import { Types } from "mongoose";
import { assessmentTitles, type AssessmentRecord } from "~/models/assessment.server";
import type { EstimateLinkRecord } from "~/models/estimate-link.server";
import {
  findQuestion,
  findQuestionsOfEstimate,
  findQuestionsOfLink,
  insertQuestion,
  noteAnswerEmail,
  pushAnswer,
  unansweredOf,
  type EstimateQuestionRecord,
} from "~/models/estimate-question.server";
import { scopeFor } from "~/models/owner-scope.server";
import { findUserById } from "~/models/user.server";
import { answerSchema, type QuestionInput } from "~/schemas/customer-approval";
import { versionLabel } from "~/schemas/version-label";
import { dbNow } from "~/utils/db-clock.server";
import { NotFound } from "~/utils/domain-errors";
import { invalidInput } from "~/utils/http.server";
import { log } from "~/utils/log.server";
import { auditActor, type Actor } from "./actor";
import { estimateChain, linkPath, openLinkToken, sealLinkToken } from "./estimate-links.server";
import { linkOrigin, notifyCustomerQuestion, sendQuestionAnswer } from "./outbox.server";
import { emitEvent, estimateEventData, estimateOrderKey } from "./webhooks.server";
import { authorize } from "./permissions.server";

/**
 * Conversations are records (issue 40 item 4, docs/decisions/0058): a customer's question on their
 * estimate page is stored on the estimate first; the dealer's notice, the webhook event and the
 * answer's email only tell of it, so a mail server that refuses loses nothing. The dealer reads the
 * thread and answers on the estimate (screen and API); the dashboard counts what waits for an answer.
 */

export interface QuestionCustomer {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
}

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

/** Where the answer goes: the address the customer typed, else the link's recipient's; null when neither is known. */
const answerAddress = (q: Pick<EstimateQuestionRecord, "replyEmail" | "customer">) => q.replyEmail || q.customer?.email || null;

export function questionJson(q: EstimateQuestionRecord) {
  return {
    id: String(q._id),
    /** The version it was asked on. */
    estimateId: String(q.assessmentId),
    version: q.version,
    versionLabel: versionLabel(q.version),
    linkId: String(q.linkId),
    customer: q.customer ? { firstName: q.customer.firstName ?? "", lastName: q.customer.lastName ?? "", email: q.customer.email ?? "" } : null,
    replyEmail: q.replyEmail ?? null,
    /** Where an answer is emailed: `replyEmail`, else the link's recipient; null: the answer is only stored. */
    answerTo: answerAddress(q),
    message: q.message,
    askedAt: new Date(q.askedAt).toISOString(),
    answered: q.answeredAt !== null && q.answeredAt !== undefined,
    answeredAt: iso(q.answeredAt),
    answers: q.answers.map((a) => ({
      id: String(a._id),
      message: a.message,
      at: new Date(a.at).toISOString(),
      by: String(a.by),
      byName: a.byName,
      emailLogId: a.emailLogId ? String(a.emailLogId) : null,
    })),
  };
}
export type EstimateQuestionJson = ReturnType<typeof questionJson>;

/**
 * The customer's question through an active link (customer-approval's askQuestion checked the link):
 * stored with the database's time, then the webhook event, then the dealer's notice (Reply-To the
 * customer). A notice that cannot even be queued is logged: the question stands and the dashboard counts it.
 */
export async function recordQuestion({
  link,
  estimate,
  token,
  customer,
  input,
  origin,
}: {
  link: EstimateLinkRecord;
  estimate: AssessmentRecord;
  token: string;
  customer: QuestionCustomer | null;
  input: QuestionInput;
  /** The address the customer's question came to: the dealer's notice links there. */
  origin?: string;
}) {
  const question = await insertQuestion({
    ownerId: link.ownerId,
    assessmentId: estimate._id,
    rootId: link.rootId,
    version: link.version,
    linkId: link._id,
    tokenSealed: sealLinkToken(token),
    ...(customer ? { customer: { firstName: customer.firstName ?? "", lastName: customer.lastName ?? "", email: customer.email ?? "" } } : {}),
    ...(input.replyEmail ? { replyEmail: input.replyEmail } : {}),
    message: input.message,
    askedAt: dbNow(),
  });
  const replyTo = answerAddress(question);
  await emitEvent({
    ownerId: link.ownerId,
    type: "estimate.question_asked",
    data: estimateEventData(estimate, { questionId: String(question._id), askedAt: question.askedAt, message: question.message, replyEmail: replyTo }),
    orderKey: estimateOrderKey(estimate),
    key: `estimate.question_asked:${String(question._id)}`,
  });
  try {
    await notifyCustomerQuestion({
      id: String(question._id),
      ownerId: String(link.ownerId),
      assessmentId: String(estimate._id),
      title: estimate.title,
      version: link.version,
      customer: `${customer?.firstName ?? ""} ${customer?.lastName ?? ""}`.trim() || "Your customer",
      message: question.message,
      replyTo,
      origin,
    });
  } catch (error) {
    log.error({ err: error, questionId: String(question._id) }, "customer question stored, its notice not queued");
  }
  return question;
}

/** The public page's thread: the questions asked through this link, and their answers (the dealer's name, not the person's). */
export async function questionsOfLink(link: Pick<EstimateLinkRecord, "_id" | "ownerId">) {
  const questions = await findQuestionsOfLink({ ownerId: link.ownerId, linkId: link._id });
  return questions.map((q) => ({
    id: String(q._id),
    message: q.message,
    askedAt: new Date(q.askedAt).toISOString(),
    answers: q.answers.map((a) => ({ message: a.message, at: new Date(a.at).toISOString() })),
  }));
}

/** `GET /api/assessments/{id}/questions`: the questions on every version of the estimate, oldest first. 404: not in scope. */
export async function listEstimateQuestions(actor: Actor, assessmentId: string) {
  const { scope, rootId } = await estimateChain(actor, assessmentId);
  const questions = await findQuestionsOfEstimate({ scope, rootId });
  return { questions: questions.map(questionJson) };
}

async function dealerName(ownerId: Types.ObjectId) {
  const owner = await findUserById(String(ownerId));
  if (!owner) return "Your dealer";
  return owner.companyName || `${owner.firstName} ${owner.lastName}`.trim() || owner.username;
}

/**
 * `POST /api/assessments/{id}/questions/{questionId}/answer` and the estimate screen's form: the
 * answer is stored on the question (with the database's time and who answered), then emailed to the
 * customer through the outbox (the email log shows it) with the link to the page they asked on. 404
 * for a question that is not one of this estimate's in scope; 400 naming `message`.
 */
export async function answerQuestion(actor: Actor, assessmentId: string, questionId: string, body: unknown) {
  authorize(actor, "assessments.edit");
  const { scope, record, rootId } = await estimateChain(actor, assessmentId);
  const question = await findQuestion({ scope, rootId, id: questionId });
  if (!question) throw new NotFound("Question not found");
  const parsed = answerSchema.safeParse(body);
  if (!parsed.success) throw invalidInput(parsed.error);
  const by = auditActor(actor);
  const answerId = new Types.ObjectId();
  const updated = await pushAnswer({
    ownerId: question.ownerId,
    id: question._id,
    answer: { _id: answerId, message: parsed.data.message, at: dbNow(), by: new Types.ObjectId(actor.id), byName: by?.name ?? "" },
  });
  if (!updated) throw new NotFound("Question not found");
  const to = answerAddress(question);
  let emailLogId: string | null = null;
  if (to) {
    const token = question.tokenSealed ? openLinkToken(question.tokenSealed) : null;
    const email = await sendQuestionAnswer({
      ownerId: String(question.ownerId),
      requestedBy: actor.id,
      questionId: String(question._id),
      answerId: String(answerId),
      assessmentId: String(question.assessmentId),
      title: record.title,
      version: question.version,
      dealer: await dealerName(question.ownerId),
      to,
      question: question.message,
      message: parsed.data.message,
      pageUrl: token ? `${linkOrigin()}${linkPath(token)}` : null,
    });
    emailLogId = String(email._id);
    await noteAnswerEmail({ ownerId: question.ownerId, id: question._id, answerId, emailLogId: email._id });
  }
  // Told after the answer is stored and its email queued (a receiver that is down loses nothing);
  // keyed by the answer, so a retried answer (its Idempotency-Key) emits once.
  const answer = updated.answers.find((a) => String(a._id) === String(answerId));
  await emitEvent({
    ownerId: question.ownerId,
    type: "estimate.question_answered",
    data: {
      ...estimateEventData(record),
      questionId: String(question._id),
      answerId: String(answerId),
      answeredAt: answer?.at ?? dbNow(),
      question: question.message,
      message: parsed.data.message,
      answeredBy: answer?.byName ?? by?.name ?? "",
      answerTo: to,
      emailLogId,
    },
    orderKey: estimateOrderKey(record),
    key: `estimate.question_answered:${String(answerId)}`,
  });
  const json = questionJson(updated);
  return { ...json, answers: json.answers.map((a) => (a.id === String(answerId) ? { ...a, emailLogId } : a)), emailLogId };
}

/** The dashboard's figure: questions waiting for an answer in the actor's scope, and the newest few with their estimates' titles. */
export async function unansweredQuestions(actor: Actor, limit = 5) {
  const scope = scopeFor(actor);
  const { count, latest } = await unansweredOf({ scope, limit });
  const titles = await assessmentTitles({ scope, ids: latest.map((q) => q.assessmentId) });
  return {
    count,
    latest: latest.map((q) => ({
      id: String(q._id),
      estimateId: String(q.assessmentId),
      title: titles.get(String(q.assessmentId)) ?? "Deleted estimate",
      versionLabel: versionLabel(q.version),
      message: q.message.length > 140 ? `${q.message.slice(0, 139)}…` : q.message,
      askedAt: new Date(q.askedAt).toISOString(),
    })),
  };
}
export type UnansweredQuestions = Awaited<ReturnType<typeof unansweredQuestions>>;
