import { createHash, randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { Types } from "mongoose";
import { findAssessment, findCurrentVersion, type AssessmentRecord } from "~/models/assessment.server";
import { findDecisionsOfEstimate, removeDecisionsOf, type CustomerDecisionRecord } from "~/models/customer-decision.server";
import { findEarlierVersions } from "~/models/estimate.server";
import { removeQuestionsOf } from "~/models/estimate-question.server";
import {
  findLinkByTokenHash,
  findLinksOfEstimate,
  findSentLinkOf,
  insertEstimateLink,
  linkPdfKeysOf,
  newLinkId,
  removeEstimateLinksOf,
  revokeLink,
  supersedeEarlierLinks,
  type EstimateLinkRecord,
  type LinkRecipient,
} from "~/models/estimate-link.server";
import { scopeFor } from "~/models/owner-scope.server";
import { findUserById } from "~/models/user.server";
import { dbNow } from "~/utils/db-clock.server";
import { decisionLines } from "~/utils/estimate-approval";
import { assessmentNotFound } from "./assessments.server";
import type { Actor } from "./actor";
import { estimatePdfWithTerms } from "./estimate-pdf.server";
import { open, seal } from "./secret-box.server";
import { storage } from "./storage/backend.server";
import { Conflict, NotFound } from "~/utils/domain-errors";
import { authorize } from "./permissions.server";

/**
 * The customer's link to one version of an estimate (docs/decisions/0019): 256 random bits, only
 * their SHA-256 stored; it expires after the account's "estimate link" days, can be revoked, and is
 * superseded when a later version of the estimate gets a link. The PDF it serves is rendered and
 * stored when it is created, and its SHA-256 kept, so a decision records the hash of what was served.
 */

/** Versions a customer may be shown: as for sending (a person could have looked at it). */
const LINKABLE = new Set(["completed", "reviewed", "sent"]);
export const DEFAULT_LINK_DAYS = 30;
const DAY_MS = 24 * 3600 * 1000;

/** 32 random bytes, base64url: 43 characters. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const isTokenShaped = (token: unknown): token is string => typeof token === "string" && TOKEN_PATTERN.test(token);

/** The account an estimate belongs to, as the actor its PDF is rendered for. */
export async function ownerActor(ownerId: string): Promise<Actor | null> {
  const user = await findUserById(ownerId);
  if (!user) return null;
  const role = user.role;
  return { id: ownerId, user, role, realRole: role, via: "session" };
}

/** The first version of the estimate a version belongs to (itself for an original). */
async function rootOf(record: AssessmentRecord) {
  if (!record.supplementOf) return record._id;
  const earlier = await findEarlierVersions({ scope: { ownerId: String(record.ownerId) }, record });
  return earlier.at(-1)?._id ?? record.supplementOf;
}

export type LinkState = "active" | "expired" | "revoked" | "superseded";

export function linkState(link: Pick<EstimateLinkRecord, "revokedAt" | "supersededAt" | "expiresAt">, now = dbNow()): LinkState {
  if (link.revokedAt) return "revoked";
  if (link.supersededAt) return "superseded";
  if (link.expiresAt.getTime() <= now.getTime()) return "expired";
  return "active";
}

const iso = (d: Date | undefined | null) => (d ? new Date(d).toISOString() : null);

export function decisionJson(d: CustomerDecisionRecord) {
  return {
    id: String(d._id),
    estimateId: String(d.assessmentId),
    version: d.version,
    linkId: String(d.linkId),
    decision: d.decision,
    signatureName: d.signatureName ?? null,
    termsAccepted: d.termsAccepted ?? null,
    reason: d.reason ?? null,
    decidedAt: iso(d.decidedAt),
    ip: d.ip,
    userAgent: d.userAgent,
    pdfSha256: d.pdfSha256,
    estimatedCost: d.estimatedCost ?? null,
    ...decisionLines(d),
  };
}

export function linkJson(link: EstimateLinkRecord, now = dbNow()) {
  return {
    id: String(link._id),
    estimateId: String(link.assessmentId),
    version: link.version,
    state: linkState(link, now),
    via: link.via,
    createdAt: iso(link.createdAt),
    expiresAt: iso(link.expiresAt),
    revokedAt: iso(link.revokedAt),
    supersededAt: iso(link.supersededAt),
    firstViewedAt: iso(link.firstViewedAt),
    lastViewedAt: iso(link.lastViewedAt),
    views: link.views ?? 0,
    pdfSha256: link.pdfSha256,
  };
}
export type EstimateLinkJson = ReturnType<typeof linkJson>;
export type EstimateDecisionJson = ReturnType<typeof decisionJson>;

/** The public page's address for a token. */
export const linkPath = (token: string) => `/e/${token}`;

/** secret-box label of an emailed link's sealed token. */
const TOKEN_LABEL = "estimate-link-token";

/** A link's token sealed with the server's secret (a question keeps its page's address so), and opened again (null: it does not open). */
export const sealLinkToken = (token: string) => seal(TOKEN_LABEL, token);
export const openLinkToken = (sealed: string) => open(TOKEN_LABEL, sealed);

/**
 * The page of the link sent (by email) for the current version of the estimate `estimate` belongs
 * to; null when none was sent, or it is no longer open (docs/decisions/0035).
 */
export async function newerVersionPath(ownerId: Types.ObjectId, estimate: Pick<AssessmentRecord, "_id" | "supersededBy">) {
  const current = await findCurrentVersion({ ownerId, record: estimate });
  if (!current || current._id.equals(estimate._id)) return null;
  const sent = await findSentLinkOf({ ownerId, assessmentId: current._id, now: dbNow() });
  const token = sent?.tokenSealed ? open(TOKEN_LABEL, sent.tokenSealed) : null;
  return token ? linkPath(token) : null;
}

/**
 * A new link to the estimate version `assessmentId` (in the actor's scope): the latest version of a
 * completed, reviewed or sent estimate. Renders and stores its PDF, marks the links of earlier
 * versions superseded, and answers the link with its token and URL (shown this once; only the
 * hash is kept).
 */
export async function createEstimateLink(
  actor: Actor,
  assessmentId: string,
  { via, origin, recipient }: { via: "email" | "api"; origin: string; recipient?: LinkRecipient },
) {
  const record = await findAssessment({ scope: scopeFor(actor), id: assessmentId });
  if (!record) throw assessmentNotFound();
  if (record.supersededBy) throw new Conflict("A newer version of this estimate exists: send or link the latest version");
  if (!LINKABLE.has(record.status)) throw new Conflict("Only a completed, reviewed or sent estimate can be shown to a customer");
  const ownerId = String(record.ownerId);
  const owner = await ownerActor(ownerId);
  if (!owner) throw assessmentNotFound();

  const printed = await estimatePdfWithTerms(owner, assessmentId);
  const pdf = Buffer.from(await printed.pdf.arrayBuffer());
  const _id = newLinkId();
  const pdfKey = `estimate-links/${ownerId}/${_id.toHexString()}.pdf`;
  await storage().putStream(pdfKey, Readable.from([pdf]), "application/pdf", pdf.length);

  const token = randomBytes(32).toString("base64url");
  const now = dbNow();
  const days = owner.user.estimateLinkDays ?? DEFAULT_LINK_DAYS;
  const rootId = await rootOf(record);
  const version = record.version ?? 1;
  const link = await insertEstimateLink({
    _id,
    ownerId: record.ownerId,
    assessmentId: record._id,
    rootId,
    version,
    tokenHash: hashToken(token),
    ...(via === "email" ? { tokenSealed: seal(TOKEN_LABEL, token) } : {}),
    createdAt: now,
    expiresAt: new Date(now.getTime() + days * DAY_MS),
    via,
    ...(recipient ? { recipient } : {}),
    createdBy: new Types.ObjectId(actor.id),
    pdfKey,
    pdfSha256: createHash("sha256").update(pdf).digest("hex"),
    pdfBytes: pdf.length,
    terms: printed.terms,
    language: printed.language,
  });
  if (version > 1) await supersedeEarlierLinks({ ownerId: record.ownerId, rootId, version, at: now });
  return { ...linkJson(link, now), token, url: `${origin}${linkPath(token)}` };
}

/** The estimate in scope and the first version of it (whose chain the links are listed by). */
export async function estimateChain(actor: Actor, assessmentId: string) {
  const scope = scopeFor(actor);
  const record = await findAssessment({ scope, id: assessmentId });
  if (!record) throw assessmentNotFound();
  return { scope, record, rootId: await rootOf(record) };
}

/** `GET /api/assessments/{id}/links`: the links of every version of the estimate, and the customer's decisions. */
export async function listEstimateLinks(actor: Actor, assessmentId: string) {
  const { scope, rootId } = await estimateChain(actor, assessmentId);
  const [links, decisions] = await Promise.all([findLinksOfEstimate({ scope, rootId }), findDecisionsOfEstimate({ scope, rootId })]);
  const now = dbNow();
  return { links: links.map((l) => linkJson(l, now)), decisions: decisions.map(decisionJson) };
}

/** `DELETE /api/assessments/{id}/links/{linkId}`: the link answers 410 from now on. */
export async function revokeEstimateLink(actor: Actor, assessmentId: string, linkId: string) {
  authorize(actor, "assessments.edit");
  const { scope, rootId } = await estimateChain(actor, assessmentId);
  const link = await revokeLink({ scope, rootId, id: linkId, at: dbNow() });
  if (!link) throw new NotFound("Link not found");
  return linkJson(link);
}

/** Revokes a link just made whose email was not queued (a repeated idempotency key answered an earlier send). */
export async function revokeUnsentLink(actor: Actor, assessmentId: string, linkId: string) {
  await revokeEstimateLink(actor, assessmentId, linkId).catch(() => undefined);
}

/** The link behind a token, whatever its state; null for a token that is not one of ours. */
export async function findLinkByToken(token: unknown) {
  if (!isTokenShaped(token)) return null;
  return findLinkByTokenHash(hashToken(token));
}

/** The account is being deleted: its links, their stored PDFs, its customers' decisions and questions. */
export async function removeCustomerApprovalsOf(ownerId: string) {
  for (const { pdfKey } of await linkPdfKeysOf({ ownerId })) await storage().delete(pdfKey).catch(() => undefined);
  await Promise.all([removeEstimateLinksOf({ ownerId }), removeDecisionsOf({ ownerId }), removeQuestionsOf({ ownerId })]);
}
