import { User } from "~/models/user.server";
import { estimateSettingsSchema } from "~/schemas/estimate-settings";
import type { Actor } from "./actor";
import { badArchive } from "./account-archive.server";
import { updateEstimateSettings } from "./estimate-settings.server";
import { parseTerms } from "./estimate-terms.server";

/**
 * The account's estimate settings in an archive (docs/decisions/0064): one JSON object,
 * `estimateSettings.json` (tax rates, terms, validity; the logo is an upload and stays behind).
 * Imported only into an account that never saved its own: an import adds, it never overwrites.
 */
export const ESTIMATE_SETTINGS_ENTRY = "estimateSettings.json";

type Stored = { taxParts?: number; taxLabour?: number; taxMaterials?: number; terms?: string; validityDays?: number; logoUrl?: string };
const FIELDS = ["taxParts", "taxLabour", "taxMaterials", "terms", "validityDays"] as const;

async function storedSettings(ownerId: string) {
  const user = await User.findById(ownerId).select({ estimateSettings: 1 }).lean<{ estimateSettings?: Stored }>();
  const stored = user?.estimateSettings;
  return stored && FIELDS.some((f) => stored[f] !== undefined && stored[f] !== null) ? stored : null;
}

/** The export's entry: the saved settings without the logo, or null when the account never saved any. */
export async function exportedEstimateSettings(ownerId: string) {
  const stored = await storedSettings(ownerId);
  return stored ? Object.fromEntries(FIELDS.flatMap((f) => (stored[f] === undefined ? [] : [[f, stored[f]]]))) : null;
}

/** A small JSON entry of the archive (at most 64 KB). */
export async function smallJson(stream: AsyncIterable<Buffer>, name: string): Promise<unknown> {
  let text = "";
  for await (const chunk of stream) {
    text += chunk.toString("utf8");
    if (text.length > 64 * 1024) throw badArchive(`The archive's ${name} is too large`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw badArchive(`The archive's ${name} is not valid JSON`);
  }
}

/** The settings of an archive into the importer's account, reported as a collection of one record (an import report's row). */
export async function importEstimateSettings(actor: Actor, raw: unknown, dryRun: boolean, fail: (collection: string, line: number, message: string) => void) {
  const report = { name: "estimateSettings", records: 1, valid: 0, invalid: 0, existing: 0, notForAccount: 0, droppedReferences: 0, imported: 0 };
  const parsed = estimateSettingsSchema.safeParse(raw && typeof raw === "object" ? raw : {});
  let problem: string | null = parsed.success ? null : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
  if (parsed.success) {
    try {
      parseTerms(parsed.data.terms);
    } catch (error) {
      problem = `terms: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  if (problem !== null || !parsed.success) {
    report.invalid = 1;
    fail("estimateSettings", 1, problem ?? "Not estimate settings");
    return report;
  }
  report.valid = 1;
  if (await storedSettings(actor.id)) {
    report.existing = 1;
    return report;
  }
  if (!dryRun) {
    await updateEstimateSettings(actor, parsed.data);
    report.imported = 1;
  }
  return report;
}
