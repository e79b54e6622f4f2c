import { Types } from "mongoose";
import { EXPORTABLE, ownedIds } from "~/models/account-data.server";
import { ownedCompleteUploadIds } from "~/models/upload.server";
import { findVendors } from "~/models/user.server";
import { mediaIdOf } from "~/schemas/media-url";
import type { Actor } from "./actor";
import { printBands } from "./photo-prints.server";

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

  return {
    async resolve(collection: string, batch: Pending[], drop: (line: number, message: string) => void) {
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
      }
      return docs;
    },
  };
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
