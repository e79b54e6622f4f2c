import {
  assessmentFigure,
  countAssessments,
  findAssessment,
  findAssessments,
  insertAssessment,
  mediaUrlsInUse,
  newAssessmentId,
  removeAssessment,
  replaceAssessmentFields,
  transitionAssessment,
  type AssessmentRecord,
} from "~/models/assessment.server";
import { asLines, type EstimateLine } from "~/utils/estimate-lines";
import { approvedTotalOf } from "~/utils/approved-total";
import { findContact, findContactsByIds } from "~/models/contact.server";
import { dashboardFigures } from "~/models/dashboard-figures.server";
import { ownerNames, scopeFor } from "~/models/owner-scope.server";
import { imageInUse } from "~/models/training-item.server";
import { findVendor } from "~/models/user.server";
import type {
  AssessmentCreateInput,
  AssessmentListQuery,
  AssessmentStatus,
  AssessmentUpdateInput,
} from "~/schemas/assessment";
import { readSheet, sheetTotals, type Sheet, type SheetTotals } from "~/utils/estimate-sheet";
import { lastPageAtMost, listTotal, pageAndNext, screenCursorsOf, type ListCursor } from "~/schemas/list-cursor";
import { auditActor, isAdmin, type Actor } from "./actor";
import { ANALYSIS_JOB } from "./analysis/types";
import { removeJobs } from "./jobs.server";
import { discardMediaUrl } from "./storage/draft.server";
import { claimUploads } from "./storage/uploads.server";
import { isoDate, ownedJson } from "./owned-json.server";
import { assessmentEventData, emitEvent, estimateOrderKey } from "./webhooks.server";
import { Conflict, DomainError, Invalid, NotFound, onField, Stale } from "~/utils/domain-errors";
import { authorize, authorizeOwnWork, can } from "./permissions.server";

/** An assessment as the API answers it and the screens render it: absent optionals are null. */
export interface AssessmentJson {
  id: string;
  ownerId: string;
  /** Whose assessment it is: only in an admin's answers. */
  owner?: { id: string; name: string | null };
  title: string;
  vehicleYear: number | null;
  vehicleMake: string | null;
  vehicleModel: string | null;
  vin: string | null;
  contactId: string | null;
  /** The assessment's contact (null when none, or since deleted). */
  contact: { id: string; firstName: string; lastName: string; email: string } | null;
  notes: string | null;
  vendorId: string | null;
  mediaUrls: string[];
  status: AssessmentStatus;
  severity: string | null;
  /** Dollars; null = TBD (see costNote). */
  estimatedCost: number | null;
  aiEstimatedCost: number | null;
  costNote: string | null;
  lineItems: EstimateLine[];
  /** The estimate as a shop writes it: lines, rates, tax rates, deductible, language, and its totals (integer cents). */
  sheet: Sheet & { totals: SheetTotals };
  damages: {
    damageType: string;
    location: string;
    severity: string;
    description: string;
    confidence: number;
    mediaUrl: string | null;
  }[];
  damageCategories: string[];
  aiAnalysis: { confidence: number; description: string; provider: "openai" | "embedded" | "none"; model: string | null } | null;
  analysisError: string | null;
  videoFrames: { mediaUrl: string; videoUrl: string; at: number }[]; // Kept by the analysis; a damage found on one names its media URL.
  photoHashes: { mediaUrl: string; hash: string }[];
  photoWarnings: { mediaUrl: string; photoName: string | null; otherAssessmentId: string; otherTitle: string }[]; // photoName: null on warnings from before names were kept
  audit: {
    at: string;
    by: string | null;
    byName: string;
    action: string;
    from: AssessmentStatus | null;
    to: AssessmentStatus | null;
    note: string | null;
    /** An estimate edit's "before → after" lines (empty for other entries). */
    changes: string[];
  }[];
  sentAt: string | null;
  /** A supplement: the id of the sent estimate it revises; null for an original estimate. */
  supplementOf: string | null;
  /** 1 for an original estimate, n + 1 for a supplement of version n. */
  version: number;
  /** The supplement that replaced this version; null for the latest. */
  supersededBy: string | null;
  /** The customer's answer on the public estimate page (null: none yet); the status keeps its values. */
  customerDecision: { decision: "approved" | "declined"; decidedAt: string; decisionId: string; approvedTotalCents: number | null } | null;
  revision: number; // Moves on with every write: the ETag, and what an edit says it read (docs/decisions/0027).
  createdAt: string;
  updatedAt: string;
}

const withTotals = (sheet: Sheet) => ({ ...sheet, totals: sheetTotals(sheet) });

export const assessmentNotFound = () => new NotFound("Assessment not found");

type ContactJson = NonNullable<AssessmentJson["contact"]>;
/** How a record becomes JSON, given the contacts of its page (keyed `owner:contact`) and, for an admin, owners' names. */
export type AssessmentShape<T> = (record: AssessmentRecord, contacts: Map<string, ContactJson>, owners?: Map<string, string>) => T;
export const contactOf = (record: AssessmentRecord, contacts: Map<string, ContactJson>) =>
  (record.contactId && contacts.get(`${record.ownerId}:${String(record.contactId)}`)) || null;
/** The customer's answer on the public page, as JSON (null: none yet). */
export const decisionOf = ({ customerDecision: d, _id, estimatedCost }: AssessmentRecord): AssessmentJson["customerDecision"] =>
  d ? { decision: d.decision, decidedAt: isoDate(d.decidedAt, _id), decisionId: String(d.decisionId), approvedTotalCents: approvedTotalOf(d, estimatedCost ?? null) } : null;

function toJson(record: AssessmentRecord, contacts: Map<string, ContactJson>, owners?: Map<string, string>): AssessmentJson {
  const contactId = record.contactId ? String(record.contactId) : null;
  return ownedJson(record, owners, {
    title: record.title,
    vehicleYear: record.vehicleYear ?? null,
    vehicleMake: record.vehicleMake ?? null,
    vehicleModel: record.vehicleModel ?? null,
    vin: record.vin ?? null,
    contactId,
    contact: contactOf(record, contacts),
    notes: record.notes ?? null,
    vendorId: record.vendorId ? String(record.vendorId) : null,
    mediaUrls: record.mediaUrls ?? [],
    status: record.status,
    severity: record.severity ?? null,
    estimatedCost: record.estimatedCost ?? null,
    aiEstimatedCost: record.aiEstimatedCost ?? null,
    costNote: record.costNote ?? null,
    lineItems: asLines(record.lineItems),
    sheet: withTotals(readSheet(record)),
    damages: (record.damages ?? []).map((d) => ({
      damageType: d.damageType,
      location: d.location,
      severity: d.severity,
      description: d.description,
      confidence: d.confidence,
      mediaUrl: d.mediaUrl ?? null,
    })),
    damageCategories: record.damageCategories ?? [],
    aiAnalysis: record.aiAnalysis
      ? {
          confidence: record.aiAnalysis.confidence,
          description: record.aiAnalysis.description,
          provider: record.aiAnalysis.provider,
          model: record.aiAnalysis.model ?? null,
        }
      : null,
    analysisError: record.analysisError ?? null,
    videoFrames: (record.videoFrames ?? []).map((f) => ({ mediaUrl: f.mediaUrl, videoUrl: f.videoUrl, at: f.at })),
    photoHashes: (record.photoHashes ?? []).map((p) => ({ mediaUrl: p.mediaUrl, hash: p.hash })),
    photoWarnings: (record.photoWarnings ?? []).map((w) => ({
      mediaUrl: w.mediaUrl,
      photoName: w.photoName ?? null,
      otherAssessmentId: String(w.otherAssessmentId),
      otherTitle: w.otherTitle,
    })),
    audit: (record.audit ?? []).map((entry) => ({
      at: isoDate(entry.at, record._id),
      by: entry.by ? String(entry.by) : null,
      byName: entry.byName,
      action: entry.action,
      from: entry.from ?? null,
      to: entry.to ?? null,
      note: entry.note ?? null,
      changes: entry.changes ?? [],
    })),
    sentAt: record.sentAt ? isoDate(record.sentAt, record._id) : null,
    supplementOf: record.supplementOf ? String(record.supplementOf) : null,
    version: record.version ?? 1,
    supersededBy: record.supersededBy ? String(record.supersededBy) : null,
    customerDecision: decisionOf(record),
    revision: record.revision ?? 0,
  });
}

/**
 * A page of records as JSON (`shape`, by default the whole assessment): their contacts (each its
 * owner's) in one query, and for admins every owner's name.
 */
export async function present<T = AssessmentJson>(actor: Actor, records: AssessmentRecord[], shape: AssessmentShape<T> = toJson as AssessmentShape<T>) {
  const contactIds = records.flatMap((r) => (r.contactId ? [String(r.contactId)] : []));
  const [contactRows, owners] = await Promise.all([
    findContactsByIds({ scope: scopeFor(actor), ids: contactIds }),
    isAdmin(actor) ? ownerNames(records.map((r) => String(r.ownerId))) : undefined,
  ]);
  // Keyed by owner too: an assessment shows its own account's contact only (an admin's scope holds every account's).
  const contacts = new Map(
    contactRows.map((c) => [`${c.ownerId}:${c._id}`, { id: String(c._id), firstName: c.firstName, lastName: c.lastName, email: c.email }]),
  );
  return records.map((r) => shape(r, contacts, owners));
}

export const presentOne = async (actor: Actor, record: AssessmentRecord) => (await present(actor, [record]))[0];

/** The references of a body must be the owner's contact and a vendor account: else 400 on that field. */
async function assertReferences(ownerId: string, input: Pick<AssessmentUpdateInput, "contactId" | "vendorId">) {
  const [contact, vendor] = await Promise.all([
    input.contactId ? findContact({ scope: { ownerId }, id: input.contactId }) : undefined,
    input.vendorId ? findVendor(input.vendorId) : undefined,
  ]);
  if (input.contactId && !contact) throw new Invalid("Contact not found", { fields: { contactId: "Contact not found" } });
  if (input.vendorId && !vendor) throw new Invalid("Vendor not found", { fields: { vendorId: "Vendor not found" } });
}

/** The caller's uploads behind the URLs as app media URLs; a refusal names the mediaUrls field. */
async function claimMedia(actor: Actor, urls: string[], assessmentId: string) {
  try {
    return [...new Set(await claimUploads(actor, urls, assessmentId))];
  } catch (error) {
    if (!(error instanceof DomainError) || error.status >= 500) throw error;
    throw onField(error, "mediaUrls");
  }
}

/**
 * `POST /api/assessments`: a new assessment of the caller in status uploaded. The contact must be
 * the caller's, the vendor a vendor account, and every media URL one of the caller's complete
 * uploads (taken off the wizard's list by it).
 */
export async function createAssessment(actor: Actor, input: AssessmentCreateInput) {
  authorize(actor, "assessments.create");
  const { mediaUrls, ...fields } = input;
  await assertReferences(actor.id, fields);
  const _id = newAssessmentId();
  const claimed = await claimMedia(actor, mediaUrls, String(_id));
  const record = await insertAssessment({ _id, ownerId: actor.id, input: fields, mediaUrls: claimed, by: auditActor(actor) });
  await emitEvent({ ownerId: actor.id, type: "assessment.created", data: assessmentEventData(record), orderKey: estimateOrderKey(record), key: `assessment.created:${String(_id)}` });
  return presentOne(actor, record);
}

/** The caller's assessments (an admin's: everyone's), newest first: a page, and the next one's cursor when there is more. */
export const listAssessments = async (actor: Actor, query: Partial<AssessmentListQuery> = {}) => (await listAssessmentsPage(actor, query)).items;
export async function listAssessmentsPage<T = AssessmentJson>(
  actor: Actor,
  { q, status, limit, offset = 0, cursor, updatedSince: since, fields, shape }: Partial<AssessmentListQuery> & { fields?: readonly (keyof AssessmentRecord)[]; shape?: AssessmentShape<T> },
  { total = false } = {},
) {
  const scope = scopeFor(actor);
  const records = await findAssessments({ scope, q, status, skip: offset, limit: limit && limit + 1, cursor, since, fields });
  const { page, next } = pageAndNext(records, limit, cursor, since);
  const count = total ? await listTotal({ limit, offset, cursor }, records, () => countAssessments({ scope, q, status, since })) : undefined;
  return { items: await present(actor, page, shape), next, records: page, total: count };
}

/**
 * The Estimates screen: how many assessments the scope holds and how many wait for review (the
 * dashboard's counters), how many the filters matched, and one page by cursor — the API list's own
 * read (same query, same index) — with the cursors of the Older and Newer pages when there are any.
 * `offset` is an old bookmark's `?page=`.
 */
export async function assessmentsPage<T = AssessmentJson>(
  actor: Actor,
  {
    q,
    status,
    cursor,
    offset = 0,
    pageSize,
    fields,
    shape,
  }: { q?: string; status?: AssessmentStatus; cursor?: ListCursor; offset?: number; pageSize: number; fields?: readonly (keyof AssessmentRecord)[]; shape?: AssessmentShape<T> },
) {
  const scope = scopeFor(actor);
  const [figures, filtered] = await Promise.all([
    dashboardFigures(scope),
    // Without a search the status's count, or the total, is the answer.
    q || (status && status !== "completed")
      ? assessmentFigure(scope, `matched ${JSON.stringify([status ?? null, q ?? null])}`, () => countAssessments({ scope, q, status }))
      : undefined,
  ]);
  const { total, byStatus: { completed: pendingReview } } = figures;
  const matched = filtered ?? (status ? pendingReview : total);
  const from = lastPageAtMost(offset, matched, pageSize);
  const list = await listAssessmentsPage(actor, { q, status, limit: pageSize, offset: from, cursor, fields, shape });
  const cursors = await screenCursorsOf(list, cursor, from, (back) => findAssessments({ scope, q, status, limit: 1, cursor: back, fields: ["createdAt"] }));
  return { assessments: list.items, matched, ...cursors, total, pendingReview, figures };
}

/** One assessment in scope; 404 "Assessment not found" for another account's or a malformed id. */
export async function getAssessment(actor: Actor, id: string) {
  const record = await findAssessment({ scope: scopeFor(actor), id });
  if (!record) throw assessmentNotFound();
  return presentOne(actor, record);
}

/** `PUT /api/assessments/{id}`: replaces the editable fields; status, costs and AI results stay; `readAt`: If-Match's revisions. */
export async function updateAssessment(actor: Actor, id: string, input: AssessmentUpdateInput, { readAt }: { readAt?: number[] } = {}) {
  authorize(actor, "assessments.edit");
  const scope = scopeFor(actor);
  // The contact must be the owner's: an admin editing another account's assessment checks that account's.
  let ownerId = actor.id;
  if (input.contactId && isAdmin(actor)) {
    const current = await findAssessment({ scope, id });
    if (!current) throw assessmentNotFound();
    ownerId = String(current.ownerId);
  }
  await assertReferences(ownerId, input);
  const record = await replaceAssessmentFields({ scope, id, input, by: auditActor(actor), revisions: readAt });
  const now = record || !readAt ? null : await findAssessment({ scope, id });
  if (!record) throw now ? new Stale("The assessment changed since it was read: nothing was saved", await presentOne(actor, now)) : assessmentNotFound();
  return presentOne(actor, record);
}

/** Deletes one assessment in scope and answers it as it was. Its media objects and its videos' kept
 * frames go too, unless another assessment of the account or a training item still shows them. */
export async function deleteAssessment(actor: Actor, id: string) {
  // An estimator deletes only their own work (the "created" audit entry names them).
  if (!can(actor, "assessments.delete")) authorizeOwnWork(actor, "assessments.delete", (await findAssessment({ scope: scopeFor(actor), id }))?.audit.find((e) => e.action === "created")?.by);
  const record = await removeAssessment({ scope: scopeFor(actor), id });
  if (!record) throw assessmentNotFound();
  await removeJobs({ type: ANALYSIS_JOB, keys: [id] });
  const urls = [...record.mediaUrls, ...(record.videoFrames ?? []).map((f) => f.mediaUrl)];
  const inUse = await mediaUrlsInUse({ ownerId: String(record.ownerId), urls, exceptId: id });
  for (const url of urls) if (!inUse.has(url) && !(await imageInUse({ imageUrl: url }))) await discardMediaUrl(url, { ownerId: String(record.ownerId) });
  return presentOne(actor, record);
}

/** A transition that found nothing: 404 when the assessment is not in scope, else 409 `message`. */
async function refused(actor: Actor, id: string, message: string): Promise<never> {
  if (!(await findAssessment({ scope: scopeFor(actor), id }))) throw assessmentNotFound();
  throw new Conflict(message);
}

/** Review's Approve: completed → reviewed. */
export async function approveAssessment(actor: Actor, id: string) {
  authorize(actor, "assessments.edit");
  const record = await transitionAssessment({
    scope: scopeFor(actor),
    id,
    from: ["completed"],
    to: "reviewed",
    by: auditActor(actor),
    action: "approved",
  });
  if (!record) return refused(actor, id, "Only a completed assessment can be approved");
  return presentOne(actor, record);
}

/** Review's Reject: completed or reviewed → uploaded (to be analysed again or priced by hand). */
export async function rejectAssessment(actor: Actor, id: string, note?: string) {
  authorize(actor, "assessments.edit");
  const record = await transitionAssessment({
    scope: scopeFor(actor),
    id,
    from: ["completed", "reviewed"],
    to: "uploaded",
    by: auditActor(actor),
    action: "rejected",
    note,
  });
  if (!record) return refused(actor, id, "Only a completed or reviewed assessment can be rejected");
  return presentOne(actor, record);
}

const RECENT_COUNT = 5;

/**
 * `GET /api/dashboard/stats`, the figures read from the scope's counters (docs/decisions/0031; each
 * figure's definition is dashboard-tally's tallyOf):
 * - totalAssessments: all of them;
 * - pendingReviews: status completed (the AI is done, a person has not reviewed it yet);
 * - totalRevenue: the sum of estimatedCost (dollars; a TBD cost adds nothing) of the latest versions
 *   that are sent and not declined by the customer, or approved by the customer (docs/decisions/0019);
 * - aiAccuracy: of the reviewed and sent assessments that have both an AI estimate and a final cost,
 *   the share whose final cost stayed within 15 % of the AI's, in percent with one decimal; 0 when none;
 * - recentAssessments: the 5 newest (an index walk of the list's order);
 * - workflow: the board's columns: upload (uploaded), analysis (processing + analyzing),
 *   review (completed), complete (reviewed + sent).
 */
export async function dashboardStats(actor: Actor) {
  const scope = scopeFor(actor);
  const [figures, recent] = await Promise.all([dashboardFigures(scope), findAssessments({ scope, limit: RECENT_COUNT })]);
  const { byStatus, compared, within } = figures;
  return {
    totalAssessments: figures.total,
    pendingReviews: byStatus.completed,
    totalRevenue: figures.totalRevenue,
    aiAccuracy: compared === 0 ? 0 : Math.round((within / compared) * 1000) / 10,
    recentAssessments: await present(actor, recent),
    workflow: {
      upload: byStatus.uploaded,
      analysis: byStatus.processing + byStatus.analyzing,
      review: byStatus.completed,
      complete: byStatus.reviewed + byStatus.sent,
    },
  };
}

export type DashboardStats = Awaited<ReturnType<typeof dashboardStats>>;
