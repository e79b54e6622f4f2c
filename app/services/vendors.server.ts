import type { Types } from "mongoose";
import { findValidatedRecords, learningRecords, type LearningRecordRecord } from "~/models/learning-record.server";
import { findActiveRuleFor, findActiveRules, labourRatesByVendor, pricingRules, type PricingRuleRecord } from "~/models/pricing-rule.server";
import { verifiedFigures } from "~/models/training-item.server";
import { isObjectIdHex } from "~/models/owner-scope.server";
import { findVendor, findVendors } from "~/models/user.server";
import { vendorPackages, type VendorPackageRecord } from "~/models/vendor-package.server";
import type { DamageType, Severity } from "~/schemas/damage";
import type { LearningRecordInput, PricingRuleInput, QuoteRequest, VendorPackageInput } from "~/schemas/vendor-pricing";
import { isAdmin, type Actor } from "./actor";
import { quote } from "./pricing-engine.server";
import { Conflict, Forbidden, Invalid, NotFound } from "~/utils/domain-errors";
import type { WholeListQuery } from "~/schemas/list-query";
import { authorize } from "./permissions.server";

/**
 * Vendors and what they price with: pricing rules, vendor packages, learning records.
 * Who may do what (design.md, tenancy): a vendor its own; an admin any vendor's; a dealer reads
 * vendors and their active rules (to price estimates). Another vendor's document answers 404.
 */

export interface VendorJson {
  id: string;
  name: string;
  address: string | null;
}

type VendorRow = NonNullable<Awaited<ReturnType<typeof findVendor>>>;

function vendorJson(v: VendorRow): VendorJson {
  return {
    id: String(v._id),
    name: v.companyName || [v.firstName, v.lastName].filter(Boolean).join(" ") || v.username,
    address: v.address ?? null,
  };
}

/** A stored document's fields as JSON carries them: dates as ISO text, ids as hex. */
type AsJson<T> = {
  [K in keyof T]: T[K] extends Date | Types.ObjectId ? string : T[K] extends Date | Types.ObjectId | undefined ? string | undefined : T[K];
};

/** Dates as ISO text, ids as hex, `_id` as `id`: the API's shape of a stored document. */
function documentJson<T extends { _id: unknown }>(record: T): { id: string } & AsJson<Omit<T, "_id">> {
  const { _id, ...rest } = record as T & { __v?: number };
  delete (rest as { __v?: number }).__v;
  return { id: String(_id), ...(JSON.parse(JSON.stringify(rest)) as AsJson<Omit<T, "_id">>) };
}

export type PricingRuleJson = ReturnType<typeof documentJson<PricingRuleRecord>>;
export type VendorPackageJson = ReturnType<typeof documentJson<VendorPackageRecord>>;
export type LearningRecordJson = ReturnType<typeof documentJson<LearningRecordRecord>>;

export const vendorNotFound = () => new NotFound("Vendor not found");
const forbidden = () => new Forbidden("Forbidden");

export async function listVendors(): Promise<VendorJson[]> {
  return (await findVendors()).map(vendorJson);
}

/** The dashboard's Vendor Pricing: vendors with active rules and their labour rates (hourly, dollars). */
export async function vendorLabourRates(limit: number) {
  const rows = await labourRatesByVendor({ limit });
  const vendors = new Map((await findVendors({ ids: rows.map((row) => row._id) })).map((v) => [String(v._id), vendorJson(v)]));
  return rows.flatMap((row) => {
    const vendor = vendors.get(String(row._id));
    return vendor ? [{ vendorId: vendor.id, name: vendor.name, minRate: row.minRate, maxRate: row.maxRate, rules: row.rules }] : [];
  });
}

/** Dealers read vendors' active rules but write nothing of theirs: checked before a body is read. */
export function requireVendorWriter(actor: Actor) {
  if (actor.role === "dealer") throw forbidden();
  return actor;
}

type Access = "read" | "readActiveRules" | "write";

/**
 * The vendor a call acts for. A vendor: itself (another vendor's id is not found). An admin or a
 * dealer: the `vendorId` given, which must be a vendor account. Dealers only read active rules.
 */
async function vendorFor(actor: Actor, vendorId: string | undefined, access: Access, { writing = false } = {}) {
  if (actor.role === "dealer" && access !== "readActiveRules") throw forbidden();
  if (actor.role === "vendor") {
    if (vendorId !== undefined && vendorId !== actor.id) throw vendorNotFound();
    // An admin previewing the vendor role is no vendor: its own id is refused below on writes.
    vendorId = actor.id;
  }
  if (vendorId === undefined) {
    const message = "vendorId is required";
    throw new Invalid(message, { fields: { vendorId: message } });
  }
  if (!(await findVendor(vendorId))) {
    if (writing) {
      const message = "vendorId is not a vendor account";
      throw new Invalid(message, { fields: { vendorId: message } });
    }
    throw vendorNotFound();
  }
  return vendorId;
}

// ---------------------------------------------------------------------------------------------
// Pricing rules

const ruleNotFound = () => new NotFound("Pricing rule not found");

async function assertOneActiveRule(vendorId: string, input: PricingRuleInput, exceptId?: string) {
  if (!input.isActive) return;
  const other = await findActiveRuleFor({ vendorId, damageType: input.damageType, severity: input.severity, exceptId });
  if (other) {
    const message = `An active pricing rule for ${input.damageType} (${input.severity}) already exists`;
    throw new Conflict(message, { fields: { damageType: message } });
  }
}

export async function listPricingRules(actor: Actor, vendorId: string | undefined, { updatedSince }: WholeListQuery = {}) {
  const vendor = await vendorFor(actor, vendorId, "readActiveRules");
  const filter: Record<string, boolean> = actor.role === "dealer" ? { isActive: true } : {};
  return (await pricingRules.find({ vendorId: vendor, filter, since: updatedSince })).map(documentJson);
}

export async function createPricingRule(actor: Actor, vendorId: string | undefined, input: PricingRuleInput) {
  authorize(actor, "catalogue.write");
  const vendor = await vendorFor(actor, vendorId, "write", { writing: true });
  await assertOneActiveRule(vendor, input);
  return documentJson(await pricingRules.insert({ vendorId: vendor, fields: input }));
}

/** The rule with this id among the vendors the caller acts for (its own; any for an admin). */
// An admin acts for every vendor: the document is looked up by id alone, then changed under its vendor.
async function ruleInScope(actor: Actor, id: string) {
  if (actor.role === "dealer") throw forbidden();
  const rule = actor.role === "vendor" ? await pricingRules.findOne({ vendorId: actor.id, id }) : await pricingRules.findAny({ id });
  if (!rule) throw ruleNotFound();
  return rule;
}

export async function updatePricingRule(actor: Actor, id: string, input: PricingRuleInput) {
  authorize(actor, "catalogue.write");
  const rule = await ruleInScope(actor, id);
  const vendorId = String(rule.vendorId);
  await assertOneActiveRule(vendorId, input, id);
  const updated = await pricingRules.update({
    vendorId,
    id,
    $set: { ...input, notes: input.notes },
    $unset: input.notes === undefined ? ["notes"] : [],
  });
  if (!updated) throw ruleNotFound();
  return documentJson(updated);
}

export async function deletePricingRule(actor: Actor, id: string) {
  authorize(actor, "catalogue.write");
  const rule = await ruleInScope(actor, id);
  const removed = await pricingRules.remove({ vendorId: String(rule.vendorId), id });
  if (!removed) throw ruleNotFound();
  return documentJson(removed);
}

// ---------------------------------------------------------------------------------------------
// Vendor packages

const packageNotFound = () => new NotFound("Vendor package not found");
const PACKAGE_OPTIONAL = ["description", "basePrice", "hourlyRate", "minimumOrder"] as const;

export async function listVendorPackages(actor: Actor, vendorId: string | undefined, { updatedSince }: WholeListQuery = {}) {
  const vendor = await vendorFor(actor, vendorId, "read");
  return (await vendorPackages.find({ vendorId: vendor, since: updatedSince })).map(documentJson);
}

export async function createVendorPackage(actor: Actor, vendorId: string | undefined, input: VendorPackageInput) {
  authorize(actor, "catalogue.write");
  const vendor = await vendorFor(actor, vendorId, "write", { writing: true });
  return documentJson(await vendorPackages.insert({ vendorId: vendor, fields: input }));
}

async function packageInScope(actor: Actor, id: string) {
  if (actor.role === "dealer") throw forbidden();
  const pkg =
    actor.role === "vendor" ? await vendorPackages.findOne({ vendorId: actor.id, id }) : await vendorPackages.findAny({ id });
  if (!pkg) throw packageNotFound();
  return pkg;
}

export async function updateVendorPackage(actor: Actor, id: string, input: VendorPackageInput) {
  authorize(actor, "catalogue.write");
  const pkg = await packageInScope(actor, id);
  const updated = await vendorPackages.update({
    vendorId: String(pkg.vendorId),
    id,
    $set: input,
    $unset: PACKAGE_OPTIONAL.filter((k) => input[k] === undefined),
  });
  if (!updated) throw packageNotFound();
  return documentJson(updated);
}

export async function deleteVendorPackage(actor: Actor, id: string) {
  authorize(actor, "catalogue.write");
  const pkg = await packageInScope(actor, id);
  const removed = await vendorPackages.remove({ vendorId: String(pkg.vendorId), id });
  if (!removed) throw packageNotFound();
  return documentJson(removed);
}

// ---------------------------------------------------------------------------------------------
// Learning records

const recordNotFound = () => new NotFound("Learning record not found");

export async function listLearningRecords(actor: Actor, vendorId: string | undefined, { updatedSince }: WholeListQuery = {}) {
  const vendor = await vendorFor(actor, vendorId, "read");
  return (await learningRecords.find({ vendorId: vendor, since: updatedSince })).map(documentJson);
}

/**
 * A learning record added by hand (admins; the estimate-edit flow adds its own). The adjustment is
 * what the final cost moved from the estimate. Pending until validated.
 */
export async function createLearningRecord(actor: Actor, vendorId: string | undefined, input: LearningRecordInput) {
  authorize(actor, "catalogue.write");
  if (!isAdmin(actor)) throw forbidden();
  const vendor = await vendorFor(actor, vendorId, "write", { writing: true });
  const adminAdjustment = Math.round((input.finalCost - input.originalEstimate) * 100) / 100;
  return documentJson(await learningRecords.insert({ vendorId: vendor, fields: { ...input, adminAdjustment, isValidated: false } }));
}

/** Validate: the record starts moving the vendor's prices (a vendor its own, an admin any). */
export async function validateLearningRecord(actor: Actor, id: string) {
  authorize(actor, "catalogue.write");
  if (actor.role === "dealer") throw forbidden();
  const record =
    actor.role === "vendor" ? await learningRecords.findOne({ vendorId: actor.id, id }) : await learningRecords.findAny({ id });
  if (!record) throw recordNotFound();
  const updated = await learningRecords.update({
    vendorId: String(record.vendorId),
    id,
    $set: record.isValidated ? {} : { isValidated: true, validatedAt: new Date() },
  });
  if (!updated) throw recordNotFound();
  return documentJson(updated);
}

// ---------------------------------------------------------------------------------------------
// Quotes

/** `POST /api/vendors/{id}/quote`: the pricing engine over the vendor's active rules (any signed-in caller). */
export async function quoteForVendor(vendorId: string, request: QuoteRequest) {
  if (!isObjectIdHex(vendorId)) throw vendorNotFound();
  const pairs = [...new Map(request.damages.map((d) => [`${d.damageType}/${d.severity}`, d])).values()];
  // The vendor check runs beside the lookups: they find nothing for an id that is not a vendor's.
  const [vendor, rules, examples, records] = await Promise.all([
    findVendor(vendorId),
    findActiveRules({ vendorId, pairs }),
    verifiedFigures({ pairs }),
    findValidatedRecords({ vendorId, pairs }),
  ]);
  if (!vendor) throw vendorNotFound();
  const result = quote({
    damages: request.damages,
    rules: rules.map((r) => ({ ...r, id: String(r._id) })),
    trainingExamples: examples.map((e) => ({ ...e, damageType: e.damageType as DamageType, severity: e.severity as Severity })),
    learningRecords: records,
    vehicleMake: request.vehicleMake,
    date: request.date,
  });
  return { vendor: vendorJson(vendor), currency: "USD", ...result, total: result.totalCents / 100 };
}
