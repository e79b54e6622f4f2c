import {
  ESTIMATE_LANGUAGES,
  LABOUR_CATEGORIES,
  OPERATION_LABELS,
  OPERATIONS,
  PART_TYPE_LABELS,
  PART_TYPES,
  type EstimateLanguage,
  type LabourCategory,
  type Operation,
  type PartType,
} from "~/schemas/estimate-sheet";
import { engineBasis, readBasis, type LineBasis } from "./estimate-basis";
import { asLines, formatCents, humanizeType, type EstimateLine } from "./estimate-lines";

// The estimate as a shop writes it (lines, rates, taxes) and its money rules, shared by the edit
// service, the API's answers, the screens and the PDF. Integer cents; rounding is decided in one
// place (docs/decisions/0021-estimate-money.md): a fraction of a cent appears only in hours × rate
// (each line's labour and paint materials) and in tax × base (each tax category); each is rounded
// half up once, where it appears, and sums are exact.

export interface SheetLine {
  id: string;
  /** The index of the damage it repairs; null: the whole vehicle. */
  damage: number | null;
  operation: Operation;
  description: string;
  /** `amountCents`: the labour's amount when a reviewer's total for the damage set it (absent: hours × rate). */
  labour: { category: LabourCategory; hours: number; rateCents: number; amountCents?: number } | null;
  /** `amountCents`: the part's amount when a reviewer's total for the damage set it (absent: quantity × unit price). */
  part: { type: PartType; number: string; description: string; quantity: number; unitPriceCents: number; amountCents?: number } | null;
  /** Sublet: its price; any other operation: the operation's flat amount (the vendor's base price, modifiers, markup, minimum, learning; a price set by hand). */
  amountCents: number;
  note: string;
  /** Why this price: the steps that gave the line its figure (app/utils/estimate-basis.ts); absent on lines written before issue 37. */
  basis?: LineBasis[];
  /** Recommended, not required: the customer may leave it out when approving (issue 40 item 6). Absent: required. */
  optional?: true;
}

export type LabourRates = Record<LabourCategory, number>;
/** Percent with at most 3 decimals (8.875). */
export interface TaxRates {
  parts: number;
  labour: number;
  materials: number;
}
export const NO_TAX: TaxRates = { parts: 0, labour: 0, materials: 0 };

export interface Sheet {
  lines: SheetLine[];
  rates: LabourRates;
  materialsRateCents: number;
  taxRates: TaxRates;
  /** With a deductible the insurer pays the rest; null: the customer pays all. */
  deductibleCents: number | null;
  language: EstimateLanguage | null;
  mileage: number | null;
}

export interface SheetTotals {
  partsCents: number;
  labourCents: LabourRates;
  labourTotalCents: number;
  materialsCents: number;
  subletCents: number;
  otherCents: number;
  subtotalCents: number;
  taxCents: TaxRates;
  taxTotalCents: number;
  totalCents: number;
  deductibleCents: number | null;
  customerPaysCents: number;
  insurerPaysCents: number;
}

/** n ÷ d rounded half away from zero, exactly (integers, d > 0). */
export function roundDiv(n: number, d: number) {
  const sign = n < 0 ? -1 : 1;
  return sign * Math.floor((2 * Math.abs(n) + d) / (2 * d));
}

const hundredths = (hours: number) => Math.round(hours * 100);
/** hours × rate in cents, rounded once. */
export const hoursCents = (hours: number, rateCents: number) => roundDiv(hundredths(hours) * rateCents, 100);
/** base × percent (≤ 3 decimals), rounded once. */
export const taxOf = (baseCents: number, percent: number) => roundDiv(baseCents * Math.round(percent * 1000), 100_000);

export const labourCentsOf = (line: SheetLine) => (line.labour ? (line.labour.amountCents ?? hoursCents(line.labour.hours, line.labour.rateCents)) : 0);
export const materialsCentsOf = (line: SheetLine, materialsRateCents: number) =>
  line.labour?.category === "refinish" ? hoursCents(line.labour.hours, materialsRateCents) : 0;
export const partsCentsOf = (line: SheetLine) => (line.part ? (line.part.amountCents ?? line.part.quantity * line.part.unitPriceCents) : 0);

/** A line's amount before tax: labour, its paint materials, its part and its amount. */
export const lineTotalCents = (line: SheetLine, materialsRateCents: number) =>
  labourCentsOf(line) + materialsCentsOf(line, materialsRateCents) + partsCentsOf(line) + line.amountCents;

export function sheetTotals(sheet: Pick<Sheet, "lines" | "materialsRateCents" | "taxRates" | "deductibleCents">): SheetTotals {
  const labourCents: LabourRates = { body: 0, refinish: 0, mechanical: 0, frame: 0 };
  let partsCents = 0;
  let materialsCents = 0;
  let subletCents = 0;
  let otherCents = 0;
  for (const line of sheet.lines) {
    if (line.labour) labourCents[line.labour.category] += labourCentsOf(line);
    materialsCents += materialsCentsOf(line, sheet.materialsRateCents);
    partsCents += partsCentsOf(line);
    if (line.operation === "sublet") subletCents += line.amountCents;
    else otherCents += line.amountCents;
  }
  const labourTotalCents = LABOUR_CATEGORIES.reduce((sum, c) => sum + labourCents[c], 0);
  const subtotalCents = partsCents + labourTotalCents + materialsCents + subletCents + otherCents;
  const taxCents: TaxRates = {
    parts: taxOf(partsCents, sheet.taxRates.parts),
    labour: taxOf(labourTotalCents, sheet.taxRates.labour),
    materials: taxOf(materialsCents, sheet.taxRates.materials),
  };
  const taxTotalCents = taxCents.parts + taxCents.labour + taxCents.materials;
  const totalCents = subtotalCents + taxTotalCents;
  const deductible = sheet.deductibleCents === null ? null : Math.max(0, Math.min(sheet.deductibleCents, totalCents));
  return {
    partsCents,
    labourCents,
    labourTotalCents,
    materialsCents,
    subletCents,
    otherCents,
    subtotalCents,
    taxCents,
    taxTotalCents,
    totalCents,
    deductibleCents: sheet.deductibleCents,
    customerPaysCents: deductible === null ? totalCents : deductible,
    insurerPaysCents: deductible === null ? 0 : totalCents - deductible,
  };
}

/** Damages that have no line yet: the estimate's total is to be determined while there are any. */
export function unpricedDamages(sheet: Pick<Sheet, "lines">, damageCount: number) {
  const priced = new Set(sheet.lines.map((l) => l.damage));
  return Array.from({ length: damageCount }, (_, i) => i).filter((i) => !priced.has(i));
}

/** The estimate's total in cents, or null (TBD) when nothing is priced or a damage has no line. */
export function sheetTotalCents(sheet: Sheet, damageCount: number) {
  if (sheet.lines.length === 0 || unpricedDamages(sheet, damageCount).length > 0) return null;
  return sheetTotals(sheet).totalCents;
}

// ---------------------------------------------------------------------------------------------
// Reading what is stored. A stored sheet is not trusted to have its shape (an import, an older
// release): a field of the wrong type reads as absent and nothing rendering it can fail.

type Fields = Record<string, unknown>;
const isFields = (v: unknown): v is Fields => typeof v === "object" && v !== null && !Array.isArray(v);
const int = (v: unknown, fallback = 0) => (typeof v === "number" && Number.isSafeInteger(v) ? v : fallback);
const num = (v: unknown, fallback = 0) => (typeof v === "number" && Number.isFinite(v) ? v : fallback);
const str = (v: unknown) => (typeof v === "string" ? v : "");
const oneOf = <T extends string>(values: readonly T[], v: unknown, fallback: T) => values.find((value) => value === v) ?? fallback;
const OPERATION_KEYS: readonly Operation[] = OPERATIONS;
const PART_KEYS: readonly PartType[] = PART_TYPES;

/** An optional integer field, present only when stored as one. */
const optionalInt = (key: string, v: unknown) => (typeof v === "number" && Number.isSafeInteger(v) ? { [key]: v } : {});

function readLine(l: Fields, i: number): SheetLine {
  const labour = isFields(l.labour) ? l.labour : null;
  const part = isFields(l.part) ? l.part : null;
  const basis = readBasis(l.basis);
  return {
    id: str(l.id) || `line-${i}`,
    damage: typeof l.damage === "number" && Number.isInteger(l.damage) && l.damage >= 0 ? l.damage : null,
    operation: oneOf(OPERATION_KEYS, l.operation, "repair"),
    description: str(l.description),
    labour: labour && {
      category: oneOf(LABOUR_CATEGORIES, labour.category, "body"),
      hours: num(labour.hours),
      rateCents: int(labour.rateCents),
      ...optionalInt("amountCents", labour.amountCents),
    },
    part: part && {
      type: oneOf(PART_KEYS, part.type, "aftermarket"),
      number: str(part.number),
      description: str(part.description),
      quantity: int(part.quantity, 1),
      unitPriceCents: int(part.unitPriceCents),
      ...optionalInt("amountCents", part.amountCents),
    },
    amountCents: int(l.amountCents),
    note: str(l.note),
    ...(basis ? { basis } : {}),
    ...(l.optional === true ? { optional: true as const } : {}),
  };
}

function readTaxRates(v: unknown): TaxRates {
  if (!isFields(v)) return NO_TAX;
  return { parts: num(v.parts), labour: num(v.labour), materials: num(v.materials) };
}

/** What the engine gave one damage, as lines: its labour (body), its part, the rule's other charges, its refinish. */
function linesFromEngine(line: EstimateLine, damage: number, materialsRateCents: number): SheetLine[] {
  const label = `${humanizeType(line.damageType)}${line.location ? ` (${line.location})` : ""}`;
  const main: SheetLine = {
    id: `d${damage}-1`,
    damage,
    operation: OPERATION_FOR_TYPE[line.damageType] ?? "repair",
    description: label,
    labour: line.labour ? { category: "body", hours: line.labour.hours, rateCents: line.labour.rateCents } : null,
    part: line.partsCents && line.partsCents > 0 ? { type: "aftermarket", number: "", description: `${humanizeType(line.damageType)} parts`, quantity: 1, unitPriceCents: line.partsCents } : null,
    amountCents: 0,
    note: "",
  };
  const lines = [main];
  if (line.refinish && line.refinish.hours > 0) {
    lines.push({
      id: `d${damage}-2`,
      damage,
      operation: "refinish",
      description: label,
      labour: { category: "refinish", hours: line.refinish.hours, rateCents: line.refinish.rateCents },
      part: null,
      amountCents: 0,
      note: "",
    });
  }
  // The rule's base price, modifiers, markup, minimum charge and learning: the main line's flat
  // amount, what makes the lines add up to exactly the engine's figure, explained step by step.
  const total = line.manualCents ?? line.totalCents ?? 0;
  main.amountCents = total - lines.reduce((sum, l) => sum + lineTotalCents(l, materialsRateCents), 0);
  main.basis = engineBasis(line, main.amountCents);
  return lines;
}

/**
 * A stored sheet written before lines said why (issue 37): a damage's main engine line (`d…-1`)
 * whose lines still add up to the engine's figure gets its flat amount explained from the engine's
 * line, read, not stored. Only the explanation is added; no figure moves.
 */
function withEngineBasis(lines: SheetLine[], source: SheetSource, materialsRateCents: number): SheetLine[] {
  const engine = asLines(source.lineItems);
  if (engine.length === 0 || engine.length !== (source.damages?.length ?? 0)) return lines;
  return lines.map((line) => {
    const priced = line.damage === null ? undefined : engine[line.damage];
    if (line.basis || line.amountCents === 0 || line.operation === "sublet" || !/^d\d+-1$/.test(line.id) || !priced?.priced || priced.manualCents !== undefined) return line;
    const sum = lines.filter((l) => l.damage === line.damage).reduce((total, l) => total + lineTotalCents(l, materialsRateCents), 0);
    return sum === priced.totalCents ? { ...line, basis: engineBasis(priced, line.amountCents) } : line;
  });
}

/** The operation a damage type usually takes (the engine's default line; the reviewer changes it). */
export const OPERATION_FOR_TYPE: Record<string, Operation> = {
  scratch: "refinish",
  paint_damage: "refinish",
  dent: "repair",
  crack: "repair",
  rust: "repair",
  bumper_damage: "repair",
  body_panel_damage: "repair",
  wheel_damage: "repair",
  broken_part: "replace",
  missing_part: "replace",
  glass_damage: "replace",
  headlight_damage: "replace",
  taillight_damage: "replace",
  mirror_damage: "replace",
};

export interface SheetSource {
  estimateSheet?: unknown;
  lineItems?: unknown;
  damages?: unknown[];
}

/**
 * The estimate's sheet. One edited since issue 27 stores it (`estimateSheet`); before that, and until
 * the first edit, it is read from the engine's lines (`lineItems`, one per damage): a priced damage
 * gives its labour, part and other charges, an amount a reviewer set gives one line of that amount,
 * a damage still to be priced gives none. No tax was charged then, so none is read. The lines add up
 * to the amounts stored, so an old estimate reads and totals as it always did (decision 0021).
 */
export function readSheet(source: SheetSource, fallback: { taxRates?: TaxRates; language?: EstimateLanguage | null } = {}): Sheet {
  const stored = isFields(source.estimateSheet) ? source.estimateSheet : null;
  if (stored) {
    const rates = isFields(stored.rates) ? stored.rates : {};
    const lines = Array.isArray(stored.lines) ? stored.lines.filter(isFields).map(readLine) : [];
    return {
      lines: withEngineBasis(lines, source, int(stored.materialsRateCents)),
      rates: { body: int(rates.body), refinish: int(rates.refinish), mechanical: int(rates.mechanical), frame: int(rates.frame) },
      materialsRateCents: int(stored.materialsRateCents),
      taxRates: readTaxRates(stored.taxRates),
      deductibleCents: typeof stored.deductibleCents === "number" ? int(stored.deductibleCents) : null,
      language: ESTIMATE_LANGUAGES.find((language) => language === stored.language) ?? null,
      mileage: typeof stored.mileage === "number" && Number.isSafeInteger(stored.mileage) && stored.mileage >= 0 ? stored.mileage : null,
    };
  }
  const engine = asLines(source.lineItems);
  const damageCount = source.damages?.length ?? 0;
  const aligned = engine.length === damageCount ? engine : [];
  const firstPriced = aligned.find((l) => l.priced && l.labour);
  const body = firstPriced?.labour?.rateCents ?? 0;
  const materialsRateCents = firstPriced?.materialsRateCents ?? 0;
  const lines = aligned.flatMap((line, i): SheetLine[] => {
    if (line.manualCents === null) return [];
    if (line.manualCents !== undefined) {
      return [{ id: `d${i}-1`, damage: i, operation: OPERATION_FOR_TYPE[line.damageType] ?? "repair", description: `${humanizeType(line.damageType)}${line.location ? ` (${line.location})` : ""}`, labour: null, part: null, amountCents: line.manualCents, note: "Amount set by a reviewer", basis: [{ kind: "reviewer", fromCents: line.priced ? (line.totalCents ?? null) : null, toCents: line.manualCents }] }];
    }
    if (!line.priced) return [];
    return linesFromEngine(line, i, materialsRateCents);
  });
  return {
    lines,
    rates: { body, refinish: firstPriced?.refinish?.rateCents ?? body, mechanical: body, frame: body },
    materialsRateCents,
    taxRates: fallback.taxRates ?? NO_TAX,
    deductibleCents: null,
    language: fallback.language ?? null,
    mileage: null,
  };
}

// ---------------------------------------------------------------------------------------------
// Differences between two versions (and before → after of an edit), as the audit and the version
// comparison show them.

export const lineLabel = (line: SheetLine) => `${OPERATION_LABELS[line.operation]}${line.description ? ` ${line.description}` : ""}`;

function lineFacts(line: SheetLine, materialsRateCents: number): Record<string, string> {
  return {
    operation: OPERATION_LABELS[line.operation],
    description: line.description || "-",
    labour: line.labour ? `${line.labour.hours} h ${line.labour.category} at ${formatCents(line.labour.rateCents)}/h${line.labour.amountCents === undefined ? "" : ` = ${formatCents(line.labour.amountCents)}`}` : "none",
    part: line.part
      ? `${PART_TYPE_LABELS[line.part.type]} ${line.part.number || "(no number)"} ${line.part.description} × ${line.part.quantity} at ${formatCents(line.part.unitPriceCents)}${line.part.amountCents === undefined ? "" : ` = ${formatCents(line.part.amountCents)}`}`.replace(/\s+/g, " ")
      : "none",
    amount: formatCents(line.amountCents),
    note: line.note || "-",
    required: line.optional ? "optional" : "required",
    "line total": formatCents(lineTotalCents(line, materialsRateCents)),
  };
}

/** What changed from one sheet to another: lines added, removed and changed field by field, then rates and totals. */
export function diffSheets(before: Sheet, after: Sheet, { lines = true }: { lines?: boolean } = {}): string[] {
  const changes: string[] = [];
  if (!lines) return diffSheetSettings(before, after);
  const old = new Map(before.lines.map((l) => [l.id, l]));
  const kept = new Set<string>();
  for (const line of after.lines) {
    const was = old.get(line.id);
    if (!was) {
      changes.push(`Added line ${lineLabel(line)}: ${formatCents(lineTotalCents(line, after.materialsRateCents))}`);
      continue;
    }
    kept.add(line.id);
    const a = lineFacts(was, before.materialsRateCents);
    const b = lineFacts(line, after.materialsRateCents);
    const moved = Object.keys(b).filter((k) => a[k] !== b[k]);
    if (moved.length > 0) changes.push(`Line ${lineLabel(line)}: ${moved.map((k) => `${k} ${a[k]} → ${b[k]}`).join("; ")}`);
  }
  for (const line of before.lines) {
    if (!kept.has(line.id)) changes.push(`Removed line ${lineLabel(line)}: ${formatCents(lineTotalCents(line, before.materialsRateCents))}`);
  }
  return [...changes, ...diffSheetSettings(before, after)];
}

function diffSheetSettings(before: Sheet, after: Sheet) {
  const changes: string[] = [];
  if (before.materialsRateCents !== after.materialsRateCents) {
    changes.push(`Paint materials rate: ${formatCents(before.materialsRateCents)}/h → ${formatCents(after.materialsRateCents)}/h`);
  }
  for (const key of ["parts", "labour", "materials"] as const) {
    if (before.taxRates[key] !== after.taxRates[key]) changes.push(`Tax on ${key}: ${before.taxRates[key]}% → ${after.taxRates[key]}%`);
  }
  if (before.deductibleCents !== after.deductibleCents) {
    const show = (v: number | null) => (v === null ? "none" : formatCents(v));
    changes.push(`Deductible: ${show(before.deductibleCents)} → ${show(after.deductibleCents)}`);
  }
  if (before.mileage !== after.mileage) changes.push(`Mileage: ${before.mileage ?? "not given"} → ${after.mileage ?? "not given"}`);
  if ((before.language ?? "en") !== (after.language ?? "en")) changes.push(`Language: ${before.language ?? "en"} → ${after.language ?? "en"}`);
  return changes;
}
