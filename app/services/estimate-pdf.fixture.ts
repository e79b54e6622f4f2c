import sharp from "sharp";
import type { SheetLine } from "~/utils/estimate-sheet";
import { readSheet, sheetTotals } from "~/utils/estimate-sheet";
import type { EstimateLanguage, LabourCategory, Operation, PartType } from "~/schemas/estimate-sheet";
import type { EstimateDocument } from "./estimate-pdf-layout.server";

// A long estimate as a body shop writes one (60 lines over 3 damages, parts, refinish, sublet,
// tax, a deductible), with a logo and photos: the PDF test's reference and the bench's load. More
// damages are hail dents on the hood, all seen on the first photo (hail leaves 40-60 of them).

const OPS: Operation[] = ["repair", "replace", "refinish", "blend", "remove_install", "sublet"];
const CATS: LabourCategory[] = ["body", "refinish", "mechanical", "frame"];
const PARTS: PartType[] = ["oem", "aftermarket", "used", "reconditioned"];
const PANELS = ["Front bumper cover", "Hood", "Fender LF", "Door shell LF", "Mirror LF", "Headlamp assy LF", "Grille", "Radiator support", "Bumper reinforcement", "Energy absorber"];

/** A small solid picture with a band, deterministic. */
async function picture(width: number, height: number, color: { r: number; g: number; b: number }, band: { r: number; g: number; b: number }) {
  const base = sharp({ create: { width, height, channels: 3, background: color } });
  const stripe = await sharp({ create: { width, height: Math.round(height / 4), channels: 3, background: band } }).png().toBuffer();
  return base.composite([{ input: stripe, top: Math.round(height / 3), left: 0 }]).jpeg({ quality: 80 }).toBuffer();
}

const TERMS =
  "This estimate for {{customer.name}} is valid until {{estimate.validUntil}}. {{account.name}} guarantees its workmanship for as long as you own the vehicle. Hidden damage found during repairs is quoted as a supplement before any work is done. Total: {{estimate.total}}.";
const HAIL_TERMS = [
  "Paintless dent repair restores the panel's shape without refinishing; a dent whose paint is cracked, or that cannot be reached, is repaired conventionally and quoted as a supplement.",
  "Parts are ordered once this estimate is signed. Returned parts carry the supplier's restocking fee. Storage is free for three days after the repairs are finished, then charged at the posted daily rate.",
].join("\n\n");

const FIRST_DAMAGES: EstimateDocument["damages"] = [
  { damageType: "dent", location: "left", severity: "major", mediaUrl: "/media/a" },
  { damageType: "bumper_damage", location: "front", severity: "moderate", mediaUrl: "/media/a" },
  { damageType: "headlight_damage", location: "front", severity: "severe", mediaUrl: "/media/b" },
];

/**
 * `damages` past the first three are hail dents on the first photo; `hail` adds a repair note to
 * every line (a hail estimate explains each panel's dents) and the shop's full terms.
 */
export async function longEstimate({
  lines = 60,
  damages = 3,
  hail = false,
  language = "en",
}: { lines?: number; damages?: number; hail?: boolean; language?: EstimateLanguage } = {}): Promise<EstimateDocument> {
  const dents = Array.from({ length: Math.max(0, damages - FIRST_DAMAGES.length) }, () => ({ damageType: "dent", location: "top", severity: "minor", mediaUrl: "/media/a" }));
  const allDamages = [...FIRST_DAMAGES, ...dents].slice(0, damages);
  const sheetLines: SheetLine[] = Array.from({ length: lines }, (_, i) => {
    const operation = OPS[i % OPS.length];
    const panel = PANELS[i % PANELS.length];
    const category = operation === "refinish" || operation === "blend" ? "refinish" : CATS[i % CATS.length] === "refinish" ? "body" : CATS[i % CATS.length];
    return {
      id: `line-${i}`,
      damage: i % 4 === 3 || damages === 0 ? null : i % Math.min(3, damages),
      operation,
      description: `${panel}${i >= PANELS.length ? ` (${Math.floor(i / PANELS.length) + 1})` : ""}`,
      labour: operation === "sublet" ? null : { category, hours: ((i * 7) % 40) / 10 + 0.5, rateCents: category === "refinish" ? 6200 : 5800 },
      part:
        operation === "replace"
          ? { type: PARTS[i % PARTS.length], number: `52119-${String(10000 + i * 37).slice(0, 5)}`, description: panel, quantity: 1 + (i % 2), unitPriceCents: 4999 + i * 1731 }
          : null,
      amountCents: operation === "sublet" ? 8500 + i * 100 : 0,
      note: hail ? `PDR, ${3 + (i % 9)} dents of 10-30 mm, access through the inner panel${i % 2 === 0 ? "; trim and lamps removed for access, refitted after" : ""}` : i % 9 === 0 ? "Per OEM repair procedure" : "",
    };
  });
  const sheet = {
    ...readSheet({}),
    lines: sheetLines,
    rates: { body: 5800, refinish: 6200, mechanical: 5800, frame: 7500 },
    materialsRateCents: 3800,
    taxRates: { parts: 8.25, labour: 0, materials: 8.25 },
    deductibleCents: 50000,
    language,
    mileage: 48210,
  };
  const totals = sheetTotals(sheet);
  const logo = await sharp({ create: { width: 220, height: 80, channels: 3, background: { r: 30, g: 58, b: 138 } } })
    .composite([{ input: await sharp({ create: { width: 60, height: 60, channels: 3, background: { r: 250, g: 204, b: 21 } } }).png().toBuffer(), top: 10, left: 10 }])
    .png()
    .toBuffer();
  return {
    id: "6650f1c2a9d3e4b5c6d7e8f9",
    title: "Silver Camry, front left collision",
    version: 2,
    account: { name: "Northside Collision Center", lines: ["1200 Harbor Blvd, Oakland CA 94607", "(510) 555-0142", "estimates@northside.example"], logo },
    customer: { name: "Ana García", email: "ana.garcia@example.com" },
    vehicle: { description: "2019 Toyota Camry", vin: "4T1B11HK5KU123456", mileage: 48210 },
    damages: allDamages,
    photos: [
      { bytes: await picture(480, 320, { r: 120, g: 130, b: 140 }, { r: 200, g: 40, b: 40 }), damages: allDamages.flatMap((d, i) => (d.mediaUrl === "/media/a" ? [i] : [])) },
      { bytes: await picture(480, 320, { r: 90, g: 110, b: 90 }, { r: 240, g: 240, b: 240 }), damages: allDamages.flatMap((d, i) => (d.mediaUrl === "/media/b" ? [i] : [])) },
      { bytes: await picture(480, 320, { r: 60, g: 60, b: 70 }, { r: 30, g: 120, b: 200 }), damages: [] },
    ],
    sheet,
    totals,
    totalCents: totals.totalCents,
    costNote: null,
    issuedAt: new Date("2026-11-20T15:00:00Z"),
    validUntil: new Date("2026-12-20T15:00:00Z"),
    terms: hail ? `${TERMS}\n\n${HAIL_TERMS}` : TERMS,
    language,
  };
}
