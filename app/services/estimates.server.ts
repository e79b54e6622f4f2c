import { findAssessment, newAssessmentId, revisionOf, type AssessmentRecord } from "~/models/assessment.server";
import { estimateNumber, LINE_NOT_ON_ESTIMATE, versionLabel } from "~/schemas/estimate-sheet";
import { findEarlierVersions, findSupplements, insertSupplement, writeEstimateEdit } from "~/models/estimate.server";
import { findContact, findContactsByIds } from "~/models/contact.server";
import { learningRecords } from "~/models/learning-record.server";
import { scopeFor } from "~/models/owner-scope.server";
import type { AssessmentStatus } from "~/schemas/assessment";
import type { ListCursor } from "~/schemas/list-cursor";
import { CONTACT_NOT_FOUND, REASON_REQUIRED_MESSAGE, type EstimateEditInput } from "~/schemas/estimate";
import { assessmentNotFound, assessmentsPage, contactOf, decisionOf, presentOne, type AssessmentShape } from "./assessments.server";
import { auditActor, type Actor } from "./actor";
import { planEdit, versionDifferences, type ContactChange } from "./estimate-edit.server";
import { estimateSettingsOf } from "./estimate-settings.server";
import { emitEvent, estimateEventData, estimateOrderKey } from "./webhooks.server";
import { Conflict, Invalid, Stale } from "~/utils/domain-errors";
import { isoDate, ownership } from "./owned-json.server";
import { authorize } from "./permissions.server";

/**
 * The Estimates screen: one page of the search and status filter, how many matched, and the four
 * summary cards over every assessment in scope, read from the dashboard's counters (docs/decisions/0031):
 * Total Estimates and Pending Review (status completed), Total Value (the sum of estimated costs; TBD
 * adds nothing), Sent Today (status sent, updated since midnight in the server's time zone, `TZ`).
 */
export async function estimatesPage(
  actor: Actor,
  params: { q?: string; status?: AssessmentStatus; cursor?: ListCursor; offset?: number; pageSize: number },
) {
  const page = await assessmentsPage(actor, { ...params, fields: CARD_FIELDS, shape: estimateCard });
  const { total, pendingReview, assessments, figures: { totalValue, sentToday }, ...list } = page;
  return { ...list, assessments, summary: { total, pendingReview, totalValue, sentToday } };
}

/**
 * What a card is made from: the page reads only these from the database (the lines, damages, audit
 * trail and photo hashes of 24 estimates were most of a page's decoding and presenting work).
 */
const CARD_FIELDS = [
  "ownerId",
  "title",
  "status",
  "vehicleYear",
  "vehicleMake",
  "vehicleModel",
  "contactId",
  "estimatedCost",
  "damageCategories",
  "createdAt",
  "version",
  "customerDecision",
] as const satisfies readonly (keyof AssessmentRecord)[];

/**
 * What a card shows, and no more, made from CARD_FIELDS as the whole assessment's JSON makes them:
 * the page's data travels in the HTML (24 cards), so the lines, damages, audit trail and photo
 * hashes stay for the detail dialog, and their totals are not computed for a list.
 */
const estimateCard = ((record, contacts, owners) => {
  const { id, owner } = ownership(record, owners);
  const card = {
    id,
    title: record.title,
    status: record.status,
    vehicleYear: record.vehicleYear ?? null,
    vehicleMake: record.vehicleMake ?? null,
    vehicleModel: record.vehicleModel ?? null,
    contactId: record.contactId ? String(record.contactId) : null,
    contact: contactOf(record, contacts),
    estimatedCost: record.estimatedCost ?? null,
    damageCategories: record.damageCategories ?? [],
    createdAt: isoDate(record.createdAt, record._id),
    version: record.version ?? 1,
    customerDecision: decisionOf(record),
  };
  return owner ? { ...card, owner } : card;
}) satisfies AssessmentShape<unknown>;
export type EstimateCardJson = ReturnType<typeof estimateCard>;

/** One estimate with its supplements and the earlier versions it replaced (id, version, status) for the detail dialog. */
export async function getEstimate(actor: Actor, id: string) {
  const scope = scopeFor(actor);
  const record = await findAssessment({ scope, id });
  if (!record) throw assessmentNotFound();
  const [estimate, supplements, earlier, previous] = await Promise.all([
    presentOne(actor, record),
    findSupplements({ scope, id }),
    findEarlierVersions({ scope, record }),
    record.supplementOf ? findAssessment({ scope, id: String(record.supplementOf) }) : null,
  ]);
  // The original's number, kept by every version with its label after it (docs/decisions/0053).
  const rootId = String(earlier.at(-1)?._id ?? record._id);
  const version = (v: { _id: unknown; version?: number; status: AssessmentStatus }, fallback: number) => {
    const n = v.version ?? fallback;
    return { id: String(v._id), version: n, label: versionLabel(n), estimateNumber: estimateNumber(rootId, n), status: v.status };
  };
  return {
    ...estimate,
    versionLabel: versionLabel(estimate.version),
    estimateNumber: estimateNumber(rootId, estimate.version),
    supplements: supplements.map((s) => version(s, 2)),
    earlierVersions: earlier.map((v) => version(v, 1)),
    /** A supplement: what changed from the version it revises (lines, rates, taxes, damages, totals). */
    differences: previous ? { from: version(previous, 1), changes: versionDifferences(previous, record) } : null,
  };
}
export type EstimateJson = Awaited<ReturnType<typeof getEstimate>>;

const fullName = (c: { firstName: string; lastName: string }) => `${c.firstName} ${c.lastName}`.trim();

/**
 * The customer an edit asks for, when it differs from the estimate's: one of the estimate owner's
 * contacts (an admin editing a dealer's estimate picks from the dealer's), else 400 on the field.
 */
async function contactChange(current: AssessmentRecord, contactId: string | undefined): Promise<ContactChange | undefined> {
  const before = current.contactId ? String(current.contactId) : null;
  if (!contactId || contactId === before) return undefined;
  const scope = { ownerId: String(current.ownerId) };
  const [chosen, previous] = await Promise.all([
    findContact({ scope, id: contactId }),
    before ? findContactsByIds({ scope, ids: [before] }) : [],
  ]);
  if (!chosen) throw new Invalid(CONTACT_NOT_FOUND, { fields: { contactId: CONTACT_NOT_FOUND } });
  return { id: contactId, before: previous[0] ? fullName(previous[0]) : null, after: fullName(chosen) };
}

/** A new line's id: ours, unguessable enough and unique (an ObjectId's hex). */
const newLineId = () => newAssessmentId().toHexString();

const NOT_EDITABLE: readonly AssessmentStatus[] = ["processing", "analyzing"];

export const STALE_ESTIMATE = "The estimate changed since it was read: nothing was saved";

/** The refusal of a write from a version that is no longer the stored one: the estimate as it stands. */
export const staleEstimate = async (actor: Actor, now: AssessmentRecord) => new Stale(STALE_ESTIMATE, await presentOne(actor, now));

/**
 * `PUT /api/assessments/{id}/estimate` and the Edit Estimate form. Saving recomputes the total,
 * records who changed what (before → after) with the reason, moves the estimate to reviewed and
 * gives the vendor one pending learning record per line whose amount moved away from the engine's
 * (original = the engine's line, final = the reviewer's). A sent estimate is not changed: the edit
 * becomes a supplement (a new version linked to it). Nothing changed: the estimate as it is.
 * `readAt` (If-Match, the form's revision): the revisions the editor may have read; the estimate at
 * another one is refused with it as it stands (Stale, 412), checked again by the write itself.
 */
export async function editEstimate(actor: Actor, id: string, input: EstimateEditInput, { readAt }: { readAt?: number[] } = {}) {
  authorize(actor, "assessments.edit");
  const scope = scopeFor(actor);
  const current = await findAssessment({ scope, id });
  if (!current) throw assessmentNotFound();
  if (readAt && !readAt.includes(revisionOf(current))) throw await staleEstimate(actor, current);
  if (NOT_EDITABLE.includes(current.status)) {
    throw new Conflict("The estimate is being analyzed: edit it when the analysis is done");
  }
  const by = auditActor(actor);
  const contact = await contactChange(current, input.contactId);
  const { taxRates } = await estimateSettingsOf(String(current.ownerId));
  const plan = planEdit(current, input, by?.name ?? "a reviewer", contact, { taxRates, newId: newLineId });
  if (plan.unknownLine !== null) {
    const message = "This line is not on the estimate";
    throw new Invalid(message, { fields: { [`damages.${plan.unknownLine}.line`]: message } });
  }
  if (plan.unknownSheetLine !== null) {
    throw new Invalid(LINE_NOT_ON_ESTIMATE, { fields: { [`lines.${plan.unknownSheetLine}.id`]: LINE_NOT_ON_ESTIMATE } });
  }
  if (plan.change.changes.length === 0) return presentOne(actor, current);
  if (plan.totalBefore !== plan.totalAfter && !input.reason) {
    throw new Invalid(REASON_REQUIRED_MESSAGE, { fields: { reason: REASON_REQUIRED_MESSAGE } });
  }

  const record =
    current.status === "sent"
      ? await insertSupplement({ sent: current, change: plan.change, by, readAt: readAt && revisionOf(current) })
      : await writeEstimateEdit({ scope, current, change: plan.change, by });
  if (!record) {
    const now = await findAssessment({ scope, id });
    if (!now) throw assessmentNotFound();
    if (readAt) throw await staleEstimate(actor, now);
    if (now.supersededBy) throw new Conflict("A newer version of this estimate exists: edit the latest version");
    throw new Conflict("The estimate changed while you were editing it: open it again and repeat your change");
  }
  if (current.vendorId) {
    for (const line of plan.learning) {
      await learningRecords.insert({
        vendorId: String(current.vendorId),
        fields: {
          ...line,
          adminAdjustment: Math.round((line.finalCost - line.originalEstimate) * 100) / 100,
          adjustmentReason: input.reason,
          vehicleMake: current.vehicleMake,
          learningWeight: 1,
          isValidated: false,
          assessmentId: record._id,
        },
      });
    }
  }
  await emitEvent({ ownerId: record.ownerId, type: "estimate.updated", data: estimateEventData(record, { changes: plan.change.changes }), orderKey: estimateOrderKey(record) });
  return presentOne(actor, record);
}
