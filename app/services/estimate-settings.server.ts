import { User } from "~/models/user.server";
import { DEFAULT_VALIDITY_DAYS, type EstimateSettingsInput } from "~/schemas/estimate-settings";
import { NO_TAX, type TaxRates } from "~/utils/estimate-sheet";
import type { Actor } from "./actor";
import { parseTerms } from "./estimate-terms.server";
import { discardMediaUrl } from "./storage/draft.server";
import { receiveFormUploads } from "./storage/form-uploads.server";
import { mediaUrl } from "./storage/names.server";
import { readMediaBytes } from "./storage/uploads.server";
import { Invalid, NotFound } from "~/utils/domain-errors";
import { authorize } from "./permissions.server";

/** An account's estimate settings as the API answers them and the screens and the PDF use them. */
export interface EstimateSettings {
  taxRates: TaxRates;
  terms: string;
  validityDays: number;
  logoUrl: string | null;
}

type Stored = { taxParts?: number; taxLabour?: number; taxMaterials?: number; terms?: string; validityDays?: number; logoUrl?: string };

function present(stored: Stored | undefined | null): EstimateSettings {
  return {
    taxRates: stored ? { parts: stored.taxParts ?? 0, labour: stored.taxLabour ?? 0, materials: stored.taxMaterials ?? 0 } : NO_TAX,
    terms: stored?.terms ?? "",
    validityDays: stored?.validityDays ?? DEFAULT_VALIDITY_DAYS,
    logoUrl: stored?.logoUrl ?? null,
  };
}

/** The settings of the account that owns an estimate (its owner's, whoever is looking). */
export async function estimateSettingsOf(ownerId: string) {
  const user = await User.findById(ownerId).select({ estimateSettings: 1 }).lean<{ estimateSettings?: Stored }>();
  return present(user?.estimateSettings);
}

/** Saves the settings; 400 on `terms` when they do not compile or nest blocks too deep (docs/decisions/0034). */
export async function updateEstimateSettings(actor: Actor, input: EstimateSettingsInput) {
  authorize(actor, "settings.write");
  parseTerms(input.terms);
  const user = await User.findOneAndUpdate(
    { _id: actor.id },
    {
      $set: {
        "estimateSettings.taxParts": input.taxParts,
        "estimateSettings.taxLabour": input.taxLabour,
        "estimateSettings.taxMaterials": input.taxMaterials,
        "estimateSettings.terms": input.terms,
        "estimateSettings.validityDays": input.validityDays,
      },
    },
    { returnDocument: "after", runValidators: true },
  )
    .select({ estimateSettings: 1 })
    .lean<{ estimateSettings?: Stored }>();
  if (!user) throw new NotFound("User not found");
  return present(user.estimateSettings);
}

/**
 * The account's logo from a multipart post (field `logo`): stored in object storage like other media
 * (one PNG or JPEG, 2 MB), the previous one removed. 400 with the uploader's message otherwise.
 */
export async function uploadLogo(actor: Actor, request: Request) {
  authorize(actor, "settings.write");
  // The multipart parser throws on any other body (a 500 before): say what this call reads.
  if (!/^multipart\/form-data\s*;.*\bboundary=/i.test(request.headers.get("Content-Type") ?? "")) {
    throw new Invalid("Send the logo as multipart/form-data in the field logo", { kind: "unsupportedType" });
  }
  const { stored, errors } = await receiveFormUploads(actor, request, "logo");
  const [logo, ...extra] = stored;
  for (const record of extra) await discardMediaUrl(mediaUrl(String(record._id)), { ownerId: actor.id });
  if (!logo) throw new Invalid(errors[0] ?? "Choose a PNG or JPEG logo", { fields: { logo: errors[0] ?? "Choose a PNG or JPEG logo" } });
  logo.set({ draft: false });
  await logo.save();
  const url = mediaUrl(String(logo._id));
  const before = await User.findOneAndUpdate({ _id: actor.id }, { $set: { "estimateSettings.logoUrl": url } })
    .select({ estimateSettings: 1 })
    .lean<{ estimateSettings?: Stored }>();
  const previous = before?.estimateSettings?.logoUrl;
  if (previous && previous !== url) await discardMediaUrl(previous, { ownerId: actor.id });
  return estimateSettingsOf(actor.id);
}

export async function removeLogo(actor: Actor) {
  authorize(actor, "settings.write");
  const before = await User.findOneAndUpdate({ _id: actor.id }, { $unset: { "estimateSettings.logoUrl": "" } })
    .select({ estimateSettings: 1 })
    .lean<{ estimateSettings?: Stored }>();
  const previous = before?.estimateSettings?.logoUrl;
  if (previous) await discardMediaUrl(previous, { ownerId: actor.id });
  return estimateSettingsOf(actor.id);
}

/** The logo's bytes, resolved in the owner's scope: a URL naming another account's upload gives nothing. */
export async function logoBytes(settings: EstimateSettings, ownerId: string) {
  if (!settings.logoUrl) return null;
  return readMediaBytes(settings.logoUrl, { ownerId });
}
