import { Types } from "mongoose";
import { findDecisionOf } from "~/models/customer-decision.server";
import { findUserById } from "~/models/user.server";
import { decisionLines } from "~/utils/estimate-approval";
import { estimateAttachmentName } from "~/schemas/email";
import { ESTIMATE_LANGUAGES } from "~/schemas/estimate-sheet";
import { contentDisposition } from "~/utils/content-disposition";
import { sheetTotalCents } from "~/utils/estimate-sheet";
import type { Actor } from "./actor";
import { type AssessmentJson, getAssessment } from "./assessments.server";
import { newEstimateDoc } from "./estimate-pdf-document.server";
import { PDF_PHOTOS, documentTerms, writeEstimate, type EstimateDocument } from "./estimate-pdf-layout.server";
import { printableDocument } from "./estimate-pdf-fonts.server";
import { estimateSettingsOf, logoBytes } from "./estimate-settings.server";
import { thumbnailBytes } from "./storage/serving.server";
import { versionNaming } from "./supplement-changes.server";
import { estimatePictures } from "./video-frames.server";
import { webStreamOf } from "~/utils/web-streams.server";

/** The account whose estimate it is, as its header reads: company (else name), then address, phone, email. */
async function accountHeader(ownerId: string) {
  const owner = await findUserById(ownerId);
  const noLines: string[] = [];
  if (!owner) return { name: "DamageIQ", lines: noLines, language: undefined };
  const name = owner.companyName || `${owner.firstName} ${owner.lastName}`.trim() || owner.username;
  return {
    name,
    lines: [owner.address, owner.phone, owner.email].filter((v): v is string => Boolean(v)),
    language: ESTIMATE_LANGUAGES.find((l) => l === owner.language),
  };
}

const DAY_MS = 24 * 3600 * 1000;

/** The estimate, its account's header, logo, terms and photos, gathered in the owner's scope. */
export async function estimateDocument(a: AssessmentJson, requested?: string | null): Promise<EstimateDocument> {
  const [header, settings, pictures, naming, decision] = await Promise.all([
    accountHeader(a.ownerId),
    estimateSettingsOf(a.ownerId),
    estimatePictures(a.ownerId, a),
    versionNaming({ _id: new Types.ObjectId(a.id), ownerId: new Types.ObjectId(a.ownerId), supplementOf: a.supplementOf ? new Types.ObjectId(a.supplementOf) : undefined, version: a.version }),
    // The customer's decision on this version, printed line by line once made (docs/decisions/0063).
    findDecisionOf({ assessmentId: new Types.ObjectId(a.id) }),
  ]);
  // A video's frames print as its photos, captioned: each with the numbers of the damages seen on it.
  const thumbs = await Promise.all(
    pictures.slice(0, PDF_PHOTOS * 2).map(async (p) => ({ bytes: await thumbnailBytes(p.url, { ownerId: a.ownerId }), damages: p.damages.map((n) => n - 1), frame: p.frame })),
  );
  const logo = await logoBytes(settings, a.ownerId);
  const photos = thumbs.flatMap(({ bytes, ...t }) => (bytes === null ? [] : [{ bytes, ...t }])).slice(0, PDF_PHOTOS);
  // Asked for, else the estimate's (its customer's), else the account's own language.
  const { language: accountLanguage, ...account } = header;
  const language = ESTIMATE_LANGUAGES.find((l) => l === requested) ?? a.sheet.language ?? accountLanguage ?? "en";
  // The version's date: when it was sent, else when it last changed.
  const issuedAt = new Date(a.sentAt ?? a.updatedAt);
  const { totals, ...sheet } = a.sheet;
  return {
    id: a.id,
    number: naming.estimateNumber,
    title: a.title,
    version: a.version,
    account: { ...account, logo },
    customer: a.contact ? { name: `${a.contact.firstName} ${a.contact.lastName}`.trim(), email: a.contact.email } : null,
    vehicle: {
      description: [a.vehicleYear, a.vehicleMake, a.vehicleModel].filter(Boolean).join(" ") || null,
      vin: a.vin,
      mileage: sheet.mileage,
    },
    damages: a.damages,
    photos,
    sheet,
    totals,
    totalCents: a.estimatedCost === null ? null : (sheetTotalCents(sheet, a.damages.length) ?? Math.round(a.estimatedCost * 100)),
    costNote: a.costNote,
    issuedAt,
    validUntil: new Date(issuedAt.getTime() + settings.validityDays * DAY_MS),
    terms: settings.terms,
    language,
    approval: decision
      ? {
          decision: decision.decision,
          decidedAt: decision.decidedAt,
          signatureName: decision.signatureName ?? null,
          ...decisionLines(decision),
          ip: decision.ip,
          pdfSha256: decision.pdfSha256,
        }
      : null,
  };
}

/**
 * `GET /api/assessments/{id}/estimate.pdf[?lang=es]`: the estimate as a shop signs it, in the
 * customer's language (the estimate's, or `lang`). Pages are laid out, numbered, then streamed.
 * Another account's estimate is a 404 like every other read.
 */
export async function estimatePdf(actor: Actor, id: string, lang?: string | null) {
  return (await estimatePdfWithTerms(actor, id, lang)).pdf;
}

/**
 * The PDF, the name it is attached under (its number and vehicle) and the terms it prints (an
 * estimate link keeps them, so its page shows what the PDF says).
 */
export async function estimatePdfWithTerms(actor: Actor, id: string, lang?: string | null) {
  const assessment = await getAssessment(actor, id);
  const data = await estimateDocument(assessment, lang);
  const doc = newEstimateDoc(data);
  writeEstimate(doc, data);
  doc.end();
  const fileName = estimateAttachmentName({ number: data.number ?? data.id, vehicle: data.vehicle.description, customer: data.customer?.name });
  const pdf = new Response(webStreamOf(doc), {
    headers: {
      "Content-Type": "application/pdf",
      // Named by its number and version label (docs/decisions/0053), as the dealer and the customer read it.
      "Content-Disposition": contentDisposition(`estimate-${data.number ?? data.id}.pdf`),
    },
  });
  return { pdf, fileName, terms: documentTerms(printableDocument(data)), language: data.language };
}
