import { Types } from "mongoose";
import type { z } from "zod";
import { assessmentTitles, claimCustomerDecision, findAssessment, releaseCustomerDecision, type AssessmentRecord } from "~/models/assessment.server";
import { findContactsByIds } from "~/models/contact.server";
import { findDecisionOf, findRecentDecisions, insertDecision, type CustomerDecisionRecord } from "~/models/customer-decision.server";
import { recordLinkView, type EstimateLinkRecord } from "~/models/estimate-link.server";
import { scopeFor } from "~/models/owner-scope.server";
import { countRequest } from "~/models/rate-counter.server";
import { findUserById } from "~/models/user.server";
import { approveSchema, declineSchema, LINE_CHOICE_UNKNOWN, questionSchema, type ApproveInput, type DeclineInput } from "~/schemas/customer-approval";
import { partialApprovalTotal } from "~/utils/approved-total";
import { approvalOf, decisionLines, unknownChoices } from "~/utils/estimate-approval";
import { Invalid } from "~/utils/domain-errors";
import { dbNow, dbNowMs } from "~/utils/db-clock.server";
import { env } from "~/utils/env.server";
import { readSheet, sheetTotalCents, sheetTotals } from "~/utils/estimate-sheet";
import { estimateNumber } from "~/schemas/version-label";
import { fieldErrors, type FieldErrors } from "~/utils/http.server";
import type { Actor } from "./actor";
import { notifyCustomerDecision } from "./outbox.server";
import { questionsOfLink, recordQuestion } from "./estimate-questions.server";
import { decisionJson, findLinkByToken, hashToken, linkState, newerVersionPath, type LinkState } from "./estimate-links.server";
import { storage } from "./storage/backend.server";
import { changesSinceCustomerVersion, versionNaming, type SupplementChanges } from "./supplement-changes.server";
import { thumbnailBytes } from "./storage/serving.server";
import { readMedia } from "./storage/uploads.server";
import { estimateSettingsOf } from "./estimate-settings.server";
import { estimatePictures, type EstimatePicture } from "./video-frames.server";
import { emitEvent, estimateEventData, estimateOrderKey } from "./webhooks.server";

/**
 * The customer's side of an estimate link (/e/{token}, docs/decisions/0019): no account, only the
 * token. Everything is reached from the link's own record (its owner and its one version), never
 * from anything the request names, so a token reaches one version of one account's estimate.
 */

/** Why a link shows no estimate: 404 not one of ours, 410 revoked/expired/superseded/gone, 429 throttled. */
export class PublicLinkError extends Error {
  constructor(
    readonly status: 404 | 409 | 410 | 429,
    readonly reason: Exclude<LinkState, "active"> | "not-found" | "gone" | "rate-limited" | "decided",
    readonly detail: { retryAfter?: number; dealer?: DealerCard | null; decision?: CustomerDecisionRecord; newer?: string | null } = {},
  ) {
    super(reason);
    this.name = "PublicLinkError";
  }
}

export interface DealerCard {
  name: string;
  phone: string | null;
  email: string | null;
  address: string | null;
}

export interface PublicClient {
  ip: string;
  userAgent: string;
  /** The address the request came to (publicOrigin): the dealer's notice links back through it. */
  origin?: string;
}

async function dealerCard(ownerId: Types.ObjectId): Promise<DealerCard | null> {
  const owner = await findUserById(String(ownerId));
  if (!owner) return null;
  return {
    name: owner.companyName || `${owner.firstName} ${owner.lastName}`.trim() || owner.username,
    phone: owner.phone || null,
    email: owner.email || null,
    address: owner.address || null,
  };
}

/**
 * Counts the request against the caller's address, then the token (and, for a customer's answer, the
 * token's answers) in the current window of the database's clock; over a limit: 429 with the
 * seconds until the window ends. Only a token of a link we have gets counters of its own: a throttled
 * request or a guessed token adds no document (one per address and window at most), so guessing
 * cannot grow the database (docs/decisions/0034).
 */
export async function admitPublicRequest({ ip, token, answer = false }: { ip: string; token: string; answer?: boolean }) {
  const windowMs = env.ESTIMATE_LINK_RATE_WINDOW_S * 1000;
  const now = dbNowMs();
  const windowStart = new Date(Math.floor(now / windowMs) * windowMs);
  const expiresAt = new Date(windowStart.getTime() + 2 * windowMs);
  const admit = async (limits: { key: string; max: number }[]) => {
    const counts = await Promise.all(limits.map(({ key }) => countRequest({ key, windowStart, expiresAt })));
    if (counts.some((count, i) => count > limits[i].max)) {
      throw new PublicLinkError(429, "rate-limited", { retryAfter: Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now) / 1000)) });
    }
  };
  // The address's count and the link's look-up in one round trip; the token's counts after, for a link only.
  const [, link] = await Promise.all([admit([{ key: `estimate-link-ip|${ip}`, max: env.ESTIMATE_LINK_RATE_IP }]), findLinkByToken(token)]);
  if (!link) return;
  const tokenKey = hashToken(token);
  await admit([
    { key: `estimate-link-token|${tokenKey}`, max: env.ESTIMATE_LINK_RATE_TOKEN },
    ...(answer ? [{ key: `estimate-link-answer|${tokenKey}`, max: env.ESTIMATE_LINK_RATE_POSTS }] : []),
  ]);
}

/** The active link behind a token and the version it shows; a PublicLinkError otherwise. */
async function activeLink(token: string) {
  const link = await findLinkByToken(token);
  if (!link) throw new PublicLinkError(404, "not-found");
  const state = linkState(link);
  if (state === "revoked" || state === "expired") throw new PublicLinkError(410, state, { dealer: await dealerCard(link.ownerId) });
  // The link's owner is part of the filter: its version, in its account, or nothing.
  const estimate = await findAssessment({ scope: { ownerId: String(link.ownerId) }, id: String(link.assessmentId) });
  if (!estimate) throw new PublicLinkError(410, "gone", { dealer: await dealerCard(link.ownerId) });
  // A link serves one version: once a newer one exists (a supplement), this one is revised, whether or not the newer one has a link yet.
  if (state === "superseded" || estimate.supersededBy) throw await revised(link.ownerId, estimate);
  return { link, estimate };
}

/** 410 "revised", pointing to the page of the link sent for the current version, if one was sent. */
async function revised(ownerId: Types.ObjectId, estimate: Pick<AssessmentRecord, "_id" | "supersededBy">) {
  const [dealer, newer] = await Promise.all([dealerCard(ownerId), newerVersionPath(ownerId, estimate)]);
  return new PublicLinkError(410, "superseded", { dealer, newer });
}

/**
 * Whom the link speaks to: the person it was emailed to (docs/decisions/0035), else (a link made by
 * the API) the estimate's customer.
 */
async function customerOf(link: EstimateLinkRecord, estimate: AssessmentRecord) {
  if (link.recipient) return { firstName: link.recipient.firstName, lastName: link.recipient.lastName, email: link.recipient.email };
  if (!estimate.contactId) return null;
  const [contact] = await findContactsByIds({ scope: { ownerId: String(estimate.ownerId) }, ids: [String(estimate.contactId)] });
  return contact ? { firstName: contact.firstName, lastName: contact.lastName, email: contact.email } : null;
}

/** The version's total as the page and the PDF print it (cents; null: TBD). */
function versionTotalCents(estimate: AssessmentRecord, sheet = readSheet(estimate)) {
  const estimatedCost = estimate.estimatedCost ?? null;
  return estimatedCost === null ? null : (sheetTotalCents(sheet, (estimate.damages ?? []).length) ?? Math.round(estimatedCost * 100));
}

/**
 * What the public page shows of the version: as the estimate holds it, the sheet read and totalled
 * as the API's `sheet` and the PDF do (the lines component renders it).
 */
function estimateView(
  estimate: AssessmentRecord,
  pictures: EstimatePicture[],
  naming: { versionLabel: string; estimateNumber: string },
  changes: SupplementChanges | null,
) {
  const sheet = readSheet(estimate);
  const estimatedCost = estimate.estimatedCost ?? null;
  const damages = (estimate.damages ?? []).map((d) => ({ damageType: d.damageType, location: d.location, severity: d.severity, description: d.description ?? "" }));
  return {
    title: estimate.title,
    version: estimate.version ?? 1,
    versionLabel: naming.versionLabel,
    estimateNumber: naming.estimateNumber,
    /** A supplement: what changed since the version the customer approved, else the one last sent to them. */
    changes,
    vehicle: [estimate.vehicleYear, estimate.vehicleMake, estimate.vehicleModel].filter(Boolean).join(" ") || null,
    vin: estimate.vin ?? null,
    createdAt: estimate.createdAt.toISOString(),
    estimatedCost,
    costNote: estimate.costNote ?? null,
    sheet: { ...sheet, totals: sheetTotals(sheet) },
    // As the PDF prints it: TBD while the estimate's cost is, else the sheet's total.
    totalCents: versionTotalCents(estimate, sheet),
    damages,
    // Its photos and its videos' frames (`/e/{token}/photos/{n}`), each with the damages seen on it.
    photos: pictures.map(({ label, alt, damages, frame }) => ({ label, alt, damages, frame: frame ?? null })),
  };
}

/**
 * `GET /e/{token}`: the estimate version behind an active link, its dealer, and the customer's
 * decision if there is one. Records the opening (first and last viewed, on the database's clock).
 */
export async function openEstimatePage(token: string) {
  const { link, estimate } = await activeLink(token);
  const [dealer, customer, decision, pictures, naming, changes, questions, settings] = await Promise.all([
    dealerCard(link.ownerId),
    customerOf(link, estimate),
    findDecisionOf({ assessmentId: estimate._id }),
    estimatePictures(String(estimate.ownerId), estimate),
    versionNaming(estimate),
    changesSinceCustomerVersion(estimate),
    questionsOfLink(link),
    estimateSettingsOf(String(link.ownerId)),
    recordLinkView({ id: link._id, at: dbNow() }),
  ]);
  return {
    dealer,
    /** The account has a logo (served at `/e/{token}/logo`), as the PDF prints it. */
    logo: settings.logoUrl !== null,
    customer,
    /** The terms the link's PDF prints; null for a link made before the page showed them. */
    terms: link.terms ?? null,
    /** The language its PDF is printed in: the page's dates and amounts read the same (a link made before it was kept: the estimate's). */
    language: link.language ?? readSheet(estimate).language ?? "en",
    estimate: estimateView(estimate, pictures, naming, changes),
    expiresAt: link.expiresAt.toISOString(),
    decision: decision ? decisionJson(decision) : null,
    /** The questions asked through this link, with the dealer's answers (the customer's own thread). */
    questions,
  };
}
export type PublicEstimatePage = Awaited<ReturnType<typeof openEstimatePage>>;

/** `GET /e/{token}/pdf`: the PDF stored when the link was made (the bytes whose SHA-256 a decision records). */
export async function linkPdf(token: string) {
  const { link } = await activeLink(token);
  const stream = await storage().read(link.pdfKey);
  return { stream, bytes: link.pdfBytes, number: estimateNumber(String(link.rootId), link.version), sha256: link.pdfSha256 };
}

/** The logo's types (Settings takes a PNG or a JPEG): anything else stored there is not served as an image. */
const LOGO_TYPES = new Set(["image/png", "image/jpeg"]);

/** `GET /e/{token}/logo`: the link owner's logo (the one the PDF prints), read in the owner's scope; null when it has none. */
export async function linkLogo(token: string) {
  const { link } = await activeLink(token);
  const ownerId = String(link.ownerId);
  const { logoUrl } = await estimateSettingsOf(ownerId);
  if (!logoUrl) return null;
  const media = await readMedia(logoUrl, { ownerId });
  if (!media || !LOGO_TYPES.has(media.contentType)) return null;
  return { bytes: media.bytes, contentType: media.contentType };
}

/**
 * `GET /e/{token}/photos/{n}`: the n-th picture of the link's version (a photo or a video's frame,
 * as the page lists them), as a small JPEG, read in the link owner's scope (a media URL naming
 * another account's upload resolves to nothing). Null: no such picture.
 */
export async function linkPhoto(token: string, n: number) {
  const { estimate } = await activeLink(token);
  const picture = (await estimatePictures(String(estimate.ownerId), estimate))[n];
  if (picture === undefined) return null;
  return thumbnailBytes(picture.url, { ownerId: String(estimate.ownerId) });
}

export type DecisionResult =
  | { ok: true; decision: ReturnType<typeof decisionJson> }
  | { ok: false; errors: FieldErrors };

function parsed<S extends z.ZodTypeAny>(schema: S, body: unknown): { data: z.infer<S> } | { errors: FieldErrors } {
  const result = schema.safeParse(body);
  return result.success ? { data: result.data } : { errors: fieldErrors(result.error) };
}

/**
 * Records the customer's decision on the link's version, once: insert-only, with the database's time,
 * the caller's address and user agent, the version and the SHA-256 of the PDF the link served; copies
 * it onto the estimate (customerDecision, beside its status) and tells the dealer (email through the
 * outbox; the dashboard lists it). A version already decided: 409 with that decision. Exported for the
 * integrations that announce decisions (webhooks): the one place a decision is made.
 */
export async function recordCustomerDecision(
  token: string,
  input: { decision: "approved"; fields: Omit<ApproveInput, "optionalLines"> & { optionalLines?: string[] } } | { decision: "declined"; fields: DeclineInput },
  client: PublicClient,
) {
  const { link, estimate } = await activeLink(token);
  // Line by line (docs/decisions/0063): the version's own lines decide; a choice naming a line the
  // version does not have (another version's, a made-up one) is refused before anything is written.
  const sheet = readSheet(estimate);
  const chosen = input.decision === "approved" ? (input.fields.optionalLines ?? []) : [];
  if (unknownChoices(sheet, chosen).length > 0) throw new Invalid(LINE_CHOICE_UNKNOWN, { fields: { optionalLines: LINE_CHOICE_UNKNOWN } });
  const approval = approvalOf(sheet, input.decision, chosen, versionTotalCents(estimate, sheet));
  const decidedAt = dbNow();
  const decisionId = new Types.ObjectId();
  // The claim on the version is the decision's moment: written only while the version is still the
  // current one and undecided, in one conditional write, so a supplement marking it replaced at the
  // same instant is either before (410 here) or after (the decision stands), never both.
  const claimed = await claimCustomerDecision({ ownerId: link.ownerId, record: estimate, decision: {
      decision: input.decision,
      decidedAt,
      decisionId,
      // The dashboard's revenue counts what was approved (docs/decisions/0063).
      ...partialApprovalTotal({ decision: input.decision, ...approval }),
    },
  });
  if (!claimed) throw await refusal(link.ownerId, estimate._id);
  const decision = await insertDecision({
    _id: decisionId,
    ownerId: link.ownerId,
    assessmentId: estimate._id,
    rootId: link.rootId,
    version: link.version,
    linkId: link._id,
    decision: input.decision,
    ...(input.decision === "approved"
      ? { signatureName: input.fields.signatureName, termsAccepted: true }
      : input.fields.reason
        ? { reason: input.fields.reason }
        : {}),
    decidedAt,
    ip: client.ip,
    userAgent: client.userAgent.slice(0, 500),
    pdfSha256: link.pdfSha256,
    estimatedCost: estimate.estimatedCost ?? null,
    ...(approval.approvedTotalCents === null ? {} : { approvedTotalCents: approval.approvedTotalCents }),
    lines: approval.lines,
  }).catch(async (error: unknown) => {
    await releaseCustomerDecision({ ownerId: link.ownerId, id: estimate._id, decisionId });
    throw error;
  });
  if (!decision) {
    // A decision recorded before the claim existed (its copy never written): that one stands.
    await releaseCustomerDecision({ ownerId: link.ownerId, id: estimate._id, decisionId });
    const first = await findDecisionOf({ assessmentId: estimate._id });
    throw new PublicLinkError(409, "decided", { ...(first ? { decision: first } : {}) });
  }
  await emitEvent({
    ownerId: link.ownerId,
    type: decision.decision === "approved" ? "estimate.approved" : "estimate.declined",
    data: estimateEventData(estimate, {
      decision: decision.decision,
      decidedAt: decision.decidedAt,
      pdfSha256: decision.pdfSha256,
      ...decisionLines(decision),
      ...(decision.signatureName ? { signatureName: decision.signatureName } : {}),
      ...(decision.reason ? { reason: decision.reason } : {}),
    }),
    orderKey: estimateOrderKey(estimate),
    key: `estimate.${decision.decision}:${String(decision._id)}`,
  });
  const customer = await customerOf(link, estimate);
  await notifyCustomerDecision({
    id: String(decision._id),
    ownerId: String(link.ownerId),
    assessmentId: String(estimate._id),
    title: estimate.title,
    version: link.version,
    decision: decision.decision,
    signatureName: decision.signatureName,
    reason: decision.reason,
    customer: customer ? `${customer.firstName} ${customer.lastName}`.trim() : "The customer",
    origin: client.origin,
    ...decisionLines(decision),
  });
  return { decision, link, estimate };
}

/** Why a claim found nothing: the version was replaced meanwhile (410), or it was already decided (409). */
async function refusal(ownerId: Types.ObjectId, id: Types.ObjectId) {
  const now = await findAssessment({ scope: { ownerId: String(ownerId) }, id: String(id) });
  if (!now) return new PublicLinkError(410, "gone", { dealer: await dealerCard(ownerId) });
  if (now.supersededBy) return revised(ownerId, now);
  const first = await findDecisionOf({ assessmentId: id });
  return new PublicLinkError(409, "decided", { ...(first ? { decision: first } : {}) });
}

/** The page's Approve and Decline forms: validated (the schema's messages), then recorded. */
export async function decideFromPage(token: string, kind: "approved" | "declined", body: unknown, client: PublicClient): Promise<DecisionResult> {
  const fields = kind === "approved" ? parsed(approveSchema, body) : parsed(declineSchema, body);
  if ("errors" in fields) return { ok: false, errors: fields.errors };
  const input = kind === "approved" ? { decision: kind, fields: fields.data as ApproveInput } : { decision: kind, fields: fields.data as DeclineInput };
  try {
    const { decision } = await recordCustomerDecision(token, input, client);
    return { ok: true, decision: decisionJson(decision) };
  } catch (error) {
    if (error instanceof Invalid && error.fields) return { ok: false, errors: error.fields };
    throw error;
  }
}

/**
 * The page's question form: validated, then stored on the estimate (the dealer answers it there),
 * then the dealer is told (docs/decisions/0058), with the address the customer came in on.
 */
export async function askQuestion(token: string, body: unknown, client?: PublicClient): Promise<{ ok: true } | { ok: false; errors: FieldErrors }> {
  const fields = parsed(questionSchema, body);
  if ("errors" in fields) return { ok: false, errors: fields.errors };
  const { link, estimate } = await activeLink(token);
  const customer = await customerOf(link, estimate);
  await recordQuestion({ link, estimate, token, customer, input: fields.data, origin: client?.origin });
  return { ok: true };
}

/** The dashboard's latest customer decisions in the actor's scope, with their estimates' titles. */
export async function recentCustomerDecisions(actor: Actor, limit = 5) {
  const scope = scopeFor(actor);
  const decisions = await findRecentDecisions({ scope, limit });
  const titles = await assessmentTitles({ scope, ids: decisions.map((d) => d.assessmentId) });
  return decisions.map((d) => ({
    id: String(d._id),
    estimateId: String(d.assessmentId),
    title: titles.get(String(d.assessmentId)) ?? "Deleted estimate",
    version: d.version,
    decision: d.decision,
    decidedAt: d.decidedAt.toISOString(),
    signatureName: d.signatureName ?? null,
    reason: d.reason ?? null,
    approvedTotalCents: d.approvedTotalCents ?? null,
    estimatedCost: d.estimatedCost ?? null,
  }));
}
export type RecentCustomerDecision = Awaited<ReturnType<typeof recentCustomerDecisions>>[number];
