import { createHash, randomBytes } from "node:crypto";
import { Types } from "mongoose";
import { EXPORTABLE, ownedIds } from "~/models/account-data.server";
import { countEndpoints } from "~/models/webhook.server";
import { MAX_WEBHOOK_ENDPOINTS } from "~/schemas/webhooks";
import { ownedCompleteUploadIds } from "~/models/upload.server";
import { findVendors } from "~/models/user.server";
import { mediaIdOf } from "~/schemas/media-url";
import type { Actor } from "./actor";
import { printBands } from "./photo-prints.server";
import { newSealedSecret } from "./webhooks.server";

/** Why an imported endpoint is off (docs/decisions/0064): its receiver knows the old secret, not the new one. */
export const IMPORTED_ENDPOINT_OFF = "Imported: its signing secret is new. Rotate the secret, give it to the receiver, then turn the endpoint on.";

/**
 * An import's references (docs/decisions/0012), resolved inside the importer's account: the plan
 * of each collection's ids (account-import.server.ts makes it) and each batch's references to
 * contacts, assessments, vendors and media.
 */

/** How an archive's ids become this account's: each record's target id, and which are here already. */
export interface IdPlan {
  /** Source id → the id the record has (or gets) in the importer's account. */
  target: Map<string, string>;
  /** Source ids whose record is in the account already (its own id, or an earlier import's copy). */
  existing: Set<string>;
  /** Source ids this import stored already, before it was interrupted (decision 0059). */
  applied: Set<string>;
}

/** A parsed record waiting for its references to be resolved (a batch at a time). */
export interface Pending {
  line: number;
  sourceId: string;
  doc: Record<string, unknown>;
}

const mediaIds = (urls: unknown[]) => urls.flatMap((u) => (typeof u === "string" && mediaIdOf(u) ? [mediaIdOf(u)!] : []));

/**
 * Resolves a batch's references inside the importer's account: a reference to a record of the
 * archive takes that record's id here; one to the importer's own document stays; anything else
 * (another account's, or nothing at all: the two read the same) is dropped with a report line.
 * Media must be the importer's own complete uploads; a vendor, an existing vendor account.
 */
export function referenceResolver(actor: Actor, plans: Map<string, IdPlan>) {
  const owned = new Map<string, Map<string, boolean>>();
  /** Which of `ids` (not in the archive) the importer owns in `collection`, cached. */
  const ownedIn = async (collection: string, candidates: string[]) => {
    const cache = owned.get(collection) ?? owned.set(collection, new Map()).get(collection)!;
    const unknown = [...new Set(candidates.filter((id) => !cache.has(id)))];
    const entry = EXPORTABLE.find((c) => c.name === collection)!;
    const found = await ownedIds(entry, actor.id, unknown);
    for (const id of unknown) cache.set(id, found.has(id));
    return cache;
  };
  const vendors = new Map<string, boolean>();
  let endpointRoom: number | null = null;

  return {
    /**
     * The batch's documents with their references resolved; null for one refused (a reference it
     * cannot stand without names nothing of this account, or no room left), reported through `refuse`.
     */
    async resolve(
      collection: string,
      batch: Pending[],
      drop: (line: number, message: string) => void,
      refuse: (line: number, message: string) => void = drop,
    ): Promise<(Record<string, unknown> | null)[]> {
      const docs = batch.map((p) => p.doc);
      const refTo = async (target: string, pick: (doc: Record<string, unknown>) => unknown[]) => {
        const plan = plans.get(target);
        const outside = docs.flatMap(pick).filter((id): id is string => typeof id === "string" && !plan?.target.has(id));
        const own = await ownedIn(target, outside);
        return (id: string) => plan?.target.get(id) ?? (own.get(id) ? id : null);
      };
      if (collection === "assessments") {
        const contact = await refTo("contacts", (d) => [d.contactId]);
        const assessment = await refTo("assessments", (d) => [d.supplementOf, ...((d.photoWarnings as { otherAssessmentId: string }[]) ?? []).map((w) => w.otherAssessmentId)]);
        const vendorIds = [...new Set(docs.flatMap((d) => (typeof d.vendorId === "string" && !vendors.has(d.vendorId) ? [d.vendorId] : [])))];
        const foundVendors = new Set((await findVendors({ ids: vendorIds.map((id) => new Types.ObjectId(id)) })).map((v) => String(v._id)));
        for (const id of vendorIds) vendors.set(id, foundVendors.has(id));
        const frameUrls = (d: Record<string, unknown>) => ((d.videoFrames as { mediaUrl: string }[]) ?? []).map((f) => f.mediaUrl);
        const media = await ownedCompleteUploadIds({
          ownerId: actor.id,
          ids: [...new Set(docs.flatMap((d) => mediaIds([...(d.mediaUrls as unknown[]), ...frameUrls(d)])))],
        });
        batch.forEach(({ line, doc }) => resolveAssessment(doc, line, { contact, assessment, vendor: (id) => vendors.get(id) === true, media, actorId: actor.id, drop }));
      } else if (collection === "learningRecords") {
        const assessment = await refTo("assessments", (d) => [d.assessmentId]);
        for (const { line, doc } of batch) {
          const source = doc.assessmentId;
          if (typeof source !== "string") continue;
          const id = assessment(source);
          if (id) doc.assessmentId = new Types.ObjectId(id);
          else {
            delete doc.assessmentId;
            drop(line, `assessmentId ${source} is not one of this account's assessments: dropped`);
          }
        }
      } else if (CONVERSATION.has(collection)) {
        const ctx = {
          assessment: await refTo("assessments", (d) => [d.assessmentId, d.rootId]),
          contact: await refTo("contacts", (d) => [inner(d.recipient, "contactId"), d.contactId]),
          template: await refTo("emailTemplates", (d) => [d.templateId]),
          emailLog: await refTo("emailLogs", (d) => [d.emailLogId, inner(d.settlement, "resentAs"), ...records(d.answers).map((a) => a.emailLogId)]),
          link: await refTo("estimateLinks", (d) => [d.linkId]),
          actorId: actor.id,
          now: new Date(),
        };
        return batch.map(({ line, sourceId, doc }) => (resolveConversation(collection, doc, { ...ctx, line, sourceId, drop, refuse }) ? doc : null));
      } else if (collection === "webhookEndpoints") {
        endpointRoom ??= MAX_WEBHOOK_ENDPOINTS - (await countEndpoints({ ownerId: actor.id }));
        return batch.map(({ line, doc }) => {
          if (endpointRoom !== null && endpointRoom <= 0) {
            refuse(line, `You can have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints: not imported`);
            return null;
          }
          endpointRoom = (endpointRoom ?? 0) - 1;
          // A new secret nobody has: the endpoint stays off until the account gives it to its receiver.
          return { ...doc, secretSealed: newSealedSecret(), enabled: false, disabledReason: IMPORTED_ENDPOINT_OFF, disabledAt: new Date() };
        });
      }
      return docs;
    },
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
/** A field of a nested object of a record (undefined when it is not an object). */
const inner = (v: unknown, key: string): unknown => (isRecord(v) ? v[key] : undefined);
const records = (v: unknown) => (Array.isArray(v) ? v.filter(isRecord) : []);

const CONVERSATION = new Set(["emailLogs", "estimateLinks", "customerDecisions", "estimateQuestions"]);

/**
 * A link, decision, question or email's references (docs/decisions/0064): the version and estimate a
 * link, decision or question belongs to are required (refused without them); a link's email, its
 * recipient's contact, an email's estimate, contact, template and resend are dropped when they name
 * nothing of this account. False: refused.
 */
function resolveConversation(
  collection: string,
  doc: Record<string, unknown>,
  ctx: {
    assessment: (id: string) => string | null;
    contact: (id: string) => string | null;
    template: (id: string) => string | null;
    emailLog: (id: string) => string | null;
    link: (id: string) => string | null;
    actorId: string;
    now: Date;
    line: number;
    sourceId: string;
    drop: (line: number, message: string) => void;
    refuse: (line: number, message: string) => void;
  },
) {
  const optional = (holder: Record<string, unknown>, field: string, resolve: (id: string) => string | null, what: string, label = field) => {
    const id = holder[field];
    if (typeof id !== "string") return;
    const target = resolve(id);
    if (target) holder[field] = new Types.ObjectId(target);
    else {
      delete holder[field];
      ctx.drop(ctx.line, `${label} ${id} is not ${what}: dropped`);
    }
  };
  const required = (field: string, resolve: (id: string) => string | null, what: string) => {
    const id = doc[field];
    const target = typeof id === "string" ? resolve(id) : null;
    if (!target) {
      ctx.refuse(ctx.line, `${field} ${String(id)} is not ${what}: not imported`);
      return false;
    }
    doc[field] = new Types.ObjectId(target);
    return true;
  };
  const estimate = () =>
    required("assessmentId", ctx.assessment, "one of this account's assessments") && required("rootId", ctx.assessment, "one of this account's assessments");
  if (collection === "emailLogs") {
    optional(doc, "assessmentId", ctx.assessment, "one of this account's assessments");
    optional(doc, "contactId", ctx.contact, "one of this account's contacts");
    optional(doc, "templateId", ctx.template, "one of this account's email templates");
    if (isRecord(doc.settlement)) optional(doc.settlement, "resentAs", ctx.emailLog, "one of this account's emails", "settlement.resentAs");
    // Its own key (a client's key of the other account never answers here), and nothing to deliver.
    doc.idempotencyKey = `imported:${ctx.sourceId}`;
    doc.inFlight = false;
    return true;
  }
  if (collection === "estimateLinks") {
    if (!estimate()) return false;
    optional(doc, "emailLogId", ctx.emailLog, "one of this account's emails");
    if (isRecord(doc.recipient)) optional(doc.recipient, "contactId", ctx.contact, "one of this account's contacts", "recipient.contactId");
    // Revoked, with a hash no token has: an imported link never opens a page (its token is not in the archive).
    doc.tokenHash = createHash("sha256").update(randomBytes(32)).digest("hex");
    doc.pdfKey = `imported-links/${ctx.actorId}/${String(doc._id)}.pdf`;
    doc.revokedAt ??= ctx.now;
    doc.createdBy = null;
    return true;
  }
  if (collection === "customerDecisions") return estimate() && required("linkId", ctx.link, "one of this account's estimate links");
  // estimateQuestions: the answers keep who answered by name; the account that imports them stands as their author.
  if (!estimate() || !required("linkId", ctx.link, "one of this account's estimate links")) return false;
  doc.answers = records(doc.answers).map((answer) => {
    const kept = { ...answer, _id: new Types.ObjectId(), by: new Types.ObjectId(ctx.actorId) };
    optional(kept, "emailLogId", ctx.emailLog, "one of this account's emails", "answers.emailLogId");
    return kept;
  });
  return true;
}

function resolveAssessment(
  doc: Record<string, unknown>,
  line: number,
  ctx: {
    contact: (id: string) => string | null;
    assessment: (id: string) => string | null;
    vendor: (id: string) => boolean;
    media: Set<string>;
    actorId: string;
    drop: (line: number, message: string) => void;
  },
) {
  const single = (field: string, resolve: (id: string) => string | null, what: string) => {
    const id = doc[field];
    if (typeof id !== "string") return;
    const target = resolve(id);
    if (target) doc[field] = new Types.ObjectId(target);
    else {
      delete doc[field];
      ctx.drop(line, `${field} ${id} is not ${what}: dropped`);
    }
  };
  single("contactId", ctx.contact, "one of this account's contacts");
  single("supplementOf", ctx.assessment, "one of this account's assessments");
  single("vendorId", (id) => (ctx.vendor(id) ? id : null), "a vendor account");

  const urls = doc.mediaUrls as string[];
  const kept = urls.filter((url) => ctx.media.has(mediaIdOf(url)!));
  for (const url of urls) if (!kept.includes(url)) ctx.drop(line, `${url} is not one of this account's uploads: dropped`);
  doc.mediaUrls = [...new Set(kept)];
  // A video's frame stays when it is the importer's upload and its video stayed.
  const frames = (doc.videoFrames as { mediaUrl: string; videoUrl: string; at: number }[]).filter((f) => {
    const own = ctx.media.has(mediaIdOf(f.mediaUrl)!) && kept.includes(f.videoUrl);
    if (!own) ctx.drop(line, `video frame ${f.mediaUrl} is not one of this account's uploads: dropped`);
    return own;
  });
  doc.videoFrames = frames;
  const shown = (url: unknown) => typeof url === "string" && (kept.includes(url) || frames.some((f) => f.mediaUrl === url));
  doc.damages = (doc.damages as { mediaUrl?: string }[]).map(({ mediaUrl, ...damage }) => (shown(mediaUrl) ? { ...damage, mediaUrl } : damage));
  const hashes = (doc.photoHashes as { mediaUrl: string; hash: string; print?: string; aspect?: number }[]).filter((p) => shown(p.mediaUrl));
  doc.photoHashes = hashes;
  // Prints exported before colour-aware matching have none: the start-up migration makes them.
  doc.photoBands = printBands(hashes.flatMap(({ print, aspect }) => (print && aspect ? [{ print, aspect }] : [])));
  doc.photoWarnings = (doc.photoWarnings as { mediaUrl: string; otherAssessmentId: string; otherTitle: string }[]).flatMap((w) => {
    const other = ctx.assessment(w.otherAssessmentId);
    return shown(w.mediaUrl) && other ? [{ ...w, otherAssessmentId: new Types.ObjectId(other) }] : [];
  });
  // Nobody else's id stands in the audit list; an analysis in progress has no job here: uploaded.
  doc.audit = (doc.audit as { by: string | null }[]).map((entry) => ({ ...entry, by: entry.by === ctx.actorId ? new Types.ObjectId(entry.by) : null }));
  if (doc.status === "processing" || doc.status === "analyzing") doc.status = "uploaded";
}
