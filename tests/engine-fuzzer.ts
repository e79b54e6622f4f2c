// A differential fuzzer for the embedded engine's planner (docs/decisions/0005): every operation runs
// twice, on a collection through the planner and on a twin with the same documents and indexes through
// the scan, and the answers must be the same. The scan: the filter wrapped as {$and: [filter]}, which
// names no field at the top level, so no index can serve it (IndexedH2Collection.plan, best and
// uniquePlan look only at top-level field names). Seeded and deterministic in what it sends; a
// mismatch comes back minimised (the fewest documents that still give two answers) with the seed.
import mongoose from "mongoose";

const { ObjectId, Long, Double } = mongoose.mongo;
const { EJSON } = mongoose.mongo.BSON;
type Doc = Record<string, unknown>;
type Client = InstanceType<typeof mongoose.mongo.MongoClient>;
type Db = ReturnType<Client["db"]>;
type Collection = ReturnType<Db["collection"]>;

export interface FuzzOptions {
  /** Connects to the engine (again after each restart). */
  connect: () => Promise<Client>;
  /** Restarts the engine on the same data directory (between phases). */
  restart: () => Promise<void>;
  seed: number;
  /** Stop after this many comparisons… */
  comparisons: number;
  /** …or after this long, whichever comes first. */
  timeLimitMs: number;
  phases?: number;
  /** Stop after this many mismatches (each is minimised, which takes a while). */
  maxMismatches?: number;
  log?: (line: string) => void;
}

export interface Mismatch {
  seed: number;
  phase: number;
  model: string;
  operation: string;
  indexes: Doc[];
  planner: string;
  scan: string;
  documents: Doc[];
}

export interface FuzzResult {
  comparisons: number;
  byKind: Record<string, number>;
  seconds: number;
  restarts: number;
  mismatches: Mismatch[];
}

/** mulberry32: small, fast and the same everywhere. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = ReturnType<typeof random>;
const pick = <T>(r: Rng, values: readonly T[]): T => values[Math.floor(r() * values.length)];
const chance = (r: Rng, p: number) => r() < p;
const objectId = (r: Rng) =>
  new ObjectId(Array.from({ length: 24 }, () => "0123456789abcdef"[Math.floor(r() * 16)]).join(""));

const MISSING = Symbol("missing");
const T0 = Date.UTC(2026, 0, 1);

/** Values of the wrong type or shape: what import, old data or a careless script leaves behind. */
function adversarial(r: Rng, typical: () => unknown): unknown {
  switch (Math.floor(r() * 16)) {
    case 0:
    case 1:
      return MISSING;
    case 2:
      return null;
    case 3:
    case 4:
      return [];
    case 5:
      return [typical()];
    case 6:
      return [typical(), typical(), typical()];
    case 7:
      return new Double(pick(r, [0.5, 3000000000.5, -0.0, 12]));
    case 8:
      return Long.fromString(pick(r, ["3000000000", "9007199254740993", "12", "-5"]));
    case 9:
      return pick(r, ["12", "", "a1", "Car", "ÉMILE"]);
    case 10:
      return chance(r, 0.5);
    case 11:
      return new Date(T0 + Math.floor(r() * 10) * 86_400_000);
    case 12:
      return objectId(r);
    case 13:
      return { a: pick(r, [1, "x"]) };
    case 14:
      return pick(r, [12, 120, 0, -1]);
    default:
      return typical();
  }
}

interface Field {
  name: string;
  typical: (r: Rng) => unknown;
  /** Arrays by design (mongoose's default []): never given an adversarial scalar. */
  array?: boolean;
  /**
   * Never an array: one array under a key turns an index multikey, and the planner then leaves its
   * null equalities to the scan, so a field whose nulls the app filters on must stay scalar to be tested.
   */
  scalar?: boolean;
}

interface Model {
  name: string;
  owner: string;
  fields: Field[];
  indexes: { key: Doc; unique?: boolean }[];
  /** The app's own query shapes for this model. */
  appQueries: (r: Rng, ctx: Context) => Operation[];
}

interface Context {
  owners: InstanceType<typeof ObjectId>[];
  ids: InstanceType<typeof ObjectId>[];
}

const STATUSES = ["uploaded", "processing", "completed", "reviewed", "sent"];
const WORDS = ["car", "Car", "toyota", "ford", "é", "1", "x", "dent", "A"];
const text = (prefix: string, n: number) => (r: Rng) => `${prefix} ${pick(r, ["Toyota", "Ford", "BMW", "émile", "car", "X"])} ${Math.floor(r() * n)}`;
const day = (r: Rng) => new Date(T0 + Math.floor(r() * 20) * 3_600_000);
const money = (r: Rng) => (chance(r, 0.5) ? Math.floor(r() * 50) * 10 : Math.floor(r() * 5000) / 100);

const MODELS: Model[] = [
  {
    name: "assessments",
    owner: "ownerId",
    fields: [
      { name: "title", typical: text("Assessment", 30) },
      { name: "status", typical: (r) => pick(r, STATUSES) },
      // Never an array here (other types, yes), so its indexes stay single-key and a range on it is
      // walked from its bound (OrderedIndex.range); contacts' createdAt may be one (the multikey path).
      { name: "createdAt", typical: day, scalar: true },
      { name: "updatedAt", typical: day },
      { name: "estimatedCost", typical: money },
      { name: "aiEstimatedCost", typical: money },
      { name: "vehicleMake", typical: (r) => pick(r, ["Toyota", "Ford", "BMW", "toyota"]) },
      { name: "vehicleModel", typical: (r) => pick(r, ["Camry", "F-150", "X5"]) },
      { name: "vin", typical: (r) => `1HGCM${Math.floor(r() * 100)}` },
      { name: "supplementOf", typical: (r) => (chance(r, 0.7) ? MISSING : objectId(r)) },
      // The latest version is the one without it; mostly missing, sometimes null (an edit that unset it).
      { name: "supersededBy", typical: (r) => (chance(r, 0.7) ? MISSING : chance(r, 0.3) ? null : objectId(r)), scalar: true },
      { name: "photoBands", typical: (r) => (chance(r, 0.5) ? [] : [`0:${Math.floor(r() * 4)}`, `1:${Math.floor(r() * 4)}`]), array: true },
      { name: "mediaUrls", typical: (r) => (chance(r, 0.3) ? [] : [`/media/${Math.floor(r() * 6)}`]), array: true },
    ],
    indexes: [
      { key: { ownerId: 1, createdAt: -1 } },
      { key: { ownerId: 1, status: 1, createdAt: -1 } },
      { key: { ownerId: 1, status: 1, estimatedCost: 1, aiEstimatedCost: 1 } },
      { key: { ownerId: 1, createdAt: -1, _id: -1, title: 1, vehicleMake: 1, vehicleModel: 1, vin: 1 } },
      { key: { ownerId: 1, estimatedCost: 1 } },
      { key: { ownerId: 1, status: 1, updatedAt: 1 } },
      { key: { ownerId: 1, supplementOf: 1 } },
      { key: { ownerId: 1, photoBands: 1 } },
      { key: { ownerId: 1, supersededBy: 1, createdAt: -1 } },
      { key: { ownerId: 1, supersededBy: 1, status: 1, createdAt: -1 } },
      { key: { ownerId: 1, supersededBy: 1, estimatedCost: 1 } },
    ],
    appQueries: (r, { owners, ids }) => {
      const ownerId = pick(r, owners);
      const status = pick(r, STATUSES);
      const word = pick(r, WORDS);
      const search = { $or: ["title", "vehicleMake", "vehicleModel", "vin"].map((f) => ({ [f]: { $regex: word, $options: "i" } })) };
      const newest = { createdAt: -1, _id: -1 };
      // A cursor's position: its older and newer pages are a range after the equality prefix, ties by _id.
      const at = day(r);
      const id = pick(r, ids);
      return [
        { kind: "find", filter: { ownerId }, sort: newest, skip: Math.floor(r() * 10), limit: 20 },
        { kind: "find", filter: { ownerId } },
        { kind: "count", filter: { ownerId } },
        { kind: "count", filter: { ownerId, status } },
        { kind: "find", filter: { ownerId, status }, sort: newest, limit: 5 },
        { kind: "find", filter: { ownerId, $and: [search] }, sort: newest, skip: Math.floor(r() * 3), limit: 10 },
        { kind: "count", filter: { ownerId, $and: [search] } },
        { kind: "count", filter: { ownerId, status, updatedAt: { $gte: day(r) } } },
        { kind: "find", filter: { ownerId, photoBands: { $in: [`0:${Math.floor(r() * 4)}`, "1:2"] }, _id: { $ne: pick(r, ids) } } },
        { kind: "distinct", key: "mediaUrls", filter: { ownerId, _id: { $ne: pick(r, ids) } } },
        { kind: "find", filter: { ownerId, supplementOf: pick(r, ids) } },
        { kind: "find", filter: { ownerId, supersededBy: null }, sort: newest, skip: Math.floor(r() * 5), limit: 20 },
        { kind: "find", filter: { ownerId, supersededBy: null, status }, sort: newest, limit: 10 },
        { kind: "find", filter: { ownerId, supersededBy: { $eq: null } }, sort: { createdAt: 1, _id: 1 }, limit: 10 },
        { kind: "count", filter: { ownerId, supersededBy: null } },
        { kind: "count", filter: { ownerId, supersededBy: null, status } },
        { kind: "find", filter: { ownerId, supersededBy: null, createdAt: { $lte: at }, $or: [{ createdAt: { $lt: at } }, { _id: { $lt: id } }] }, sort: newest, limit: 20 },
        { kind: "find", filter: { ownerId, supersededBy: null, createdAt: { $gte: at }, $or: [{ createdAt: { $gt: at } }, { _id: { $gt: id } }] }, sort: { createdAt: 1, _id: 1 }, limit: 20 },
        { kind: "find", filter: { ownerId, supersededBy: null, status, createdAt: { $lt: at } }, sort: newest, limit: 10 },
        { kind: "find", filter: { ownerId, createdAt: { $gt: at, $lte: day(r) } }, sort: newest },
        {
          kind: "aggregate",
          pipeline: [{ $match: { ownerId, supersededBy: null } }, { $group: { _id: null, total: { $sum: "$estimatedCost" }, n: { $sum: 1 } } }],
        },
        { kind: "find", filter: { _id: pick(r, ids), ownerId } },
        { kind: "find", filter: { _id: { $in: [pick(r, ids), pick(r, ids), pick(r, ids)] }, ownerId } },
        { kind: "find", filter: { ownerId, estimatedCost: { $exists: true } }, projection: { _id: 0, estimatedCost: 1 } },
        {
          kind: "aggregate",
          pipeline: [{ $match: { ownerId } }, { $group: { _id: null, total: { $sum: "$estimatedCost" }, n: { $sum: 1 } } }],
        },
        {
          kind: "aggregate",
          pipeline: [
            { $match: { ownerId, status: { $in: ["completed", "reviewed", "sent"] } } },
            { $group: { _id: null, total: { $sum: "$estimatedCost" }, ai: { $sum: "$aiEstimatedCost" }, n: { $sum: 1 } } },
          ],
        },
        { kind: "aggregate", pipeline: [{ $match: { ownerId } }, { $group: { _id: "$status", n: { $sum: 1 } } }, { $sort: { _id: 1 } }] },
      ];
    },
  },
  {
    name: "contacts",
    owner: "ownerId",
    fields: [
      { name: "firstName", typical: (r) => pick(r, ["Ann", "Bob", "émile", "ÉMILE", "Zoë"]) },
      { name: "lastName", typical: (r) => pick(r, ["Smith", "Jones", "O'Neil"]) },
      { name: "email", typical: (r) => `c${Math.floor(r() * 40)}@example.com` },
      { name: "companyName", typical: (r) => (chance(r, 0.4) ? MISSING : pick(r, ["Acme", "Body Shop", "acme"])) },
      { name: "phone", typical: (r) => (chance(r, 0.4) ? MISSING : `555-01${Math.floor(r() * 10)}`) },
      { name: "createdAt", typical: day },
    ],
    indexes: [
      { key: { ownerId: 1, createdAt: -1 } },
      { key: { ownerId: 1, firstName: 1, lastName: 1, email: 1, companyName: 1, phone: 1, createdAt: -1 } },
    ],
    appQueries: (r, { owners }) => {
      const ownerId = pick(r, owners);
      const word = pick(r, WORDS);
      const search = { $or: ["firstName", "lastName", "email", "companyName", "phone"].map((f) => ({ [f]: { $regex: word, $options: "i" } })) };
      const newest = { createdAt: -1, _id: -1 };
      return [
        { kind: "find", filter: { ownerId }, sort: newest, skip: Math.floor(r() * 5), limit: 50 },
        { kind: "find", filter: { ownerId, createdAt: { $lt: day(r) } }, sort: newest, limit: 50 },
        { kind: "count", filter: { ownerId } },
        { kind: "count", filter: { ownerId, companyName: { $exists: true } } },
        { kind: "count", filter: { ownerId, phone: { $exists: false } } },
        { kind: "find", filter: { ownerId, $and: [search] }, sort: newest, limit: 10 },
        { kind: "count", filter: { ownerId, $and: [search] } },
      ];
    },
  },
  {
    name: "pricingrules",
    owner: "vendorId",
    fields: [
      { name: "isActive", typical: (r) => chance(r, 0.8) },
      { name: "damageType", typical: (r) => pick(r, ["dent", "scratch", "crack"]) },
      { name: "severity", typical: (r) => pick(r, ["minor", "moderate", "major"]) },
      { name: "basePrice", typical: money },
      { name: "createdAt", typical: day },
    ],
    indexes: [
      { key: { vendorId: 1, createdAt: -1 } },
      { key: { vendorId: 1, isActive: 1, damageType: 1, severity: 1 } },
    ],
    appQueries: (r, { owners }) => {
      const vendorId = pick(r, owners);
      const pairs = Array.from({ length: 1 + Math.floor(r() * 3) }, () => ({
        damageType: pick(r, ["dent", "scratch", "crack"]),
        severity: pick(r, ["minor", "moderate", "major"]),
      }));
      return [
        { kind: "find", filter: { vendorId, isActive: true, $or: pairs }, projection: { _id: 0, damageType: 1, severity: 1 } },
        { kind: "find", filter: { vendorId, isActive: true, $or: pairs }, sort: { createdAt: -1, _id: -1 } },
        { kind: "find", filter: { vendorId }, sort: { createdAt: -1, _id: -1 }, limit: 20 },
      ];
    },
  },
];

type Operation =
  | { kind: "find"; filter: Doc; sort?: Doc; skip?: number; limit?: number; projection?: Doc }
  | { kind: "count"; filter: Doc }
  | { kind: "distinct"; key: string; filter: Doc }
  | { kind: "aggregate"; pipeline: Doc[] }
  | { kind: "updateMany"; filter: Doc; update: Doc }
  | { kind: "deleteMany"; filter: Doc }
  | { kind: "findOneAndUpdate"; filter: Doc; update: Doc; sort: Doc; after: boolean }
  | { kind: "findOneAndDelete"; filter: Doc; sort: Doc };

const isWrite = (op: Operation) => ["updateMany", "deleteMany", "findOneAndUpdate", "findOneAndDelete"].includes(op.kind);

function document(r: Rng, model: Model, ctx: Context): Doc {
  const doc: Doc = { _id: objectId(r), [model.owner]: pick(r, ctx.owners) };
  for (const field of model.fields) {
    const typical = () => field.typical(r);
    let value = !field.array && chance(r, 0.15) ? adversarial(r, typical) : typical();
    if (field.scalar && Array.isArray(value)) value = typical();
    if (value !== MISSING) doc[field.name] = value;
  }
  return doc;
}

/** A value to compare a field with: mostly one its documents hold, sometimes another type. */
function operand(r: Rng, field: Field): unknown {
  const value = chance(r, 0.2) ? adversarial(r, () => field.typical(r)) : field.typical(r);
  if (value === MISSING) return null;
  if (Array.isArray(value) && field.array) return value.length ? value[0] : "0:1";
  return value;
}

function condition(r: Rng, field: Field): unknown {
  const v = operand(r, field);
  switch (Math.floor(r() * 14)) {
    case 0:
    case 1:
      return v;
    case 2:
      return { $eq: v };
    case 3:
      return { $ne: v };
    case 4:
      return { [pick(r, ["$gt", "$gte", "$lt", "$lte"])]: v };
    case 5:
      return { $gte: v, $lt: operand(r, field) };
    case 6:
      return { $in: [v, operand(r, field), ...(chance(r, 0.2) ? [null] : [])] };
    case 7:
      return { $nin: [v, operand(r, field)] };
    case 8:
      return { $exists: chance(r, 0.5) };
    case 9:
      return { $regex: pick(r, [...WORDS, "^C", "a|1", "^$", "\\d"]), $options: pick(r, ["i", ""]) };
    case 10:
      return { $not: new RegExp(pick(r, WORDS), "i") };
    case 11:
      return { $size: pick(r, [0, 1, 2]) };
    case 12:
      return null;
    default:
      return { $in: [new RegExp(pick(r, WORDS)), v] };
  }
}

function filter(r: Rng, model: Model, ctx: Context): Doc {
  const result: Doc = {};
  if (chance(r, 0.75)) result[model.owner] = chance(r, 0.95) ? pick(r, ctx.owners) : objectId(r);
  const n = Math.floor(r() * 3);
  for (let i = 0; i < n; i++) {
    if (chance(r, 0.2)) {
      const clauses = Array.from({ length: 1 + Math.floor(r() * 3) }, () => {
        const field = pick(r, model.fields);
        return { [field.name]: condition(r, field) };
      });
      result[chance(r, 0.8) ? "$or" : "$nor"] = clauses;
    } else {
      const field = pick(r, model.fields);
      result[field.name] = condition(r, field);
    }
  }
  if (chance(r, 0.05)) result._id = { $in: [pick(r, ctx.ids), pick(r, ctx.ids)] };
  return result;
}

/** A total order (ties broken by _id), so the planner and the scan must agree on every position. */
function sort(r: Rng, model: Model): Doc {
  const result: Doc = {};
  for (let i = Math.floor(r() * 3); i > 0; i--) result[pick(r, model.fields).name] = pick(r, [1, -1]);
  result._id = pick(r, [1, -1]);
  return result;
}

function projection(r: Rng, model: Model): Doc | undefined {
  const roll = r();
  if (roll < 0.5) return undefined;
  if (roll < 0.8) {
    // Keys of one index without _id: a covered query when the filter is covered too.
    const keys = Object.keys(pick(r, model.indexes).key).filter((k) => k !== "_id");
    const chosen = keys.filter(() => chance(r, 0.5));
    return { _id: 0, ...Object.fromEntries((chosen.length ? chosen : [keys[0]]).map((k) => [k, 1])) };
  }
  return { [pick(r, model.fields).name]: pick(r, [0, 1]) };
}

function update(r: Rng, model: Model): Doc {
  // Scalars only into fields that are not arrays by design: an update never makes two array keys
  // (171 part-way through an updateMany would leave a different part done in each order).
  const field = pick(r, model.fields);
  if (field.array) return { $set: { [field.name]: field.typical(r) } };
  if (chance(r, 0.2)) return { $unset: { [field.name]: "" } };
  let value = chance(r, 0.15) ? adversarial(r, () => field.typical(r)) : field.typical(r);
  if (value === MISSING || Array.isArray(value)) value = null;
  return { $set: { [field.name]: value } };
}

function aggregate(r: Rng, model: Model, ctx: Context): Doc[] {
  const number = pick(r, model.fields).name;
  const other = pick(r, model.fields).name;
  const groups: Doc[] = [
    { _id: null, total: { $sum: `$${number}` }, n: { $sum: 1 } },
    { _id: `$${other}`, total: { $sum: `$${number}` }, low: { $min: `$${number}` }, high: { $max: `$${number}` }, n: { $sum: 1 } },
    { _id: null, first: { $first: `$${number}` }, all: { $push: `$${other}` } },
  ];
  return [{ $match: filter(r, model, ctx) }, { $group: pick(r, groups) }, { $sort: { _id: 1 } }];
}

function randomOperation(r: Rng, model: Model, ctx: Context): Operation {
  const roll = r();
  if (roll < 0.3) return pick(r, model.appQueries(r, ctx));
  if (roll < 0.6) {
    const sorted = chance(r, 0.6);
    return {
      kind: "find",
      filter: filter(r, model, ctx),
      projection: projection(r, model),
      ...(sorted ? { sort: sort(r, model), skip: chance(r, 0.3) ? Math.floor(r() * 5) : undefined, limit: chance(r, 0.5) ? 1 + Math.floor(r() * 10) : undefined } : {}),
    };
  }
  if (roll < 0.72) return { kind: "count", filter: filter(r, model, ctx) };
  if (roll < 0.77) return { kind: "distinct", key: pick(r, model.fields).name, filter: filter(r, model, ctx) };
  if (roll < 0.86) return { kind: "aggregate", pipeline: aggregate(r, model, ctx) };
  if (roll < 0.92) return { kind: "updateMany", filter: filter(r, model, ctx), update: update(r, model) };
  if (roll < 0.94) return { kind: "deleteMany", filter: filter(r, model, ctx) };
  if (roll < 0.98) return { kind: "findOneAndUpdate", filter: filter(r, model, ctx), update: update(r, model), sort: sort(r, model), after: chance(r, 0.5) };
  return { kind: "findOneAndDelete", filter: filter(r, model, ctx), sort: sort(r, model) };
}

/** The operation with every filter wrapped so that no index can serve it. */
function scanned(op: Operation): Operation {
  const wrap = (f: Doc) => ({ $and: [f] });
  if (op.kind === "aggregate") {
    const [first, ...rest] = op.pipeline;
    return { ...op, pipeline: [{ $match: wrap(first.$match as Doc) }, ...rest] };
  }
  return { ...op, filter: wrap(op.filter) };
}

const canonical = (value: unknown) => EJSON.stringify(value as Doc, { relaxed: false });

async function run(collection: Collection, op: Operation): Promise<string> {
  try {
    switch (op.kind) {
      case "find": {
        const rows = await collection
          .find(op.filter, { sort: op.sort as never, skip: op.skip, limit: op.limit, projection: op.projection })
          .toArray();
        // Without a sort MongoDB promises no order: compare the same set.
        return canonical(op.sort ? rows : rows.map(canonical).sort());
      }
      case "count":
        return canonical(await collection.countDocuments(op.filter));
      case "distinct":
        return canonical(await collection.distinct(op.key, op.filter));
      case "aggregate":
        return canonical(await collection.aggregate(op.pipeline).toArray());
      case "updateMany": {
        const result = await collection.updateMany(op.filter, op.update);
        return canonical([result.matchedCount, result.modifiedCount]);
      }
      case "deleteMany":
        return canonical((await collection.deleteMany(op.filter)).deletedCount);
      case "findOneAndUpdate":
        return canonical(await collection.findOneAndUpdate(op.filter, op.update, { sort: op.sort as never, returnDocument: op.after ? "after" : "before" }));
      case "findOneAndDelete":
        return canonical(await collection.findOneAndDelete(op.filter, { sort: op.sort as never }));
    }
  } catch (error) {
    const e = error as { code?: number; message?: string };
    return `error ${e.code ?? e.message}`;
  }
}

/** Every document, in _id order (an error, e.g. an index that cannot be rebuilt, as its code). */
const everything = (collection: Collection) => collection.find({}, { sort: { _id: 1 } }).toArray();
const contents = (collection: Collection) =>
  everything(collection).then(canonical, (error: { code?: number; message?: string }) => `error ${error.code ?? error.message}`);
const snapshot = (collection: Collection) => everything(collection).catch(() => []);

export async function fuzz(options: FuzzOptions): Promise<FuzzResult> {
  const r = random(options.seed);
  const phases = options.phases ?? 4;
  const started = Date.now();
  const log = options.log ?? (() => {});
  const byKind: Record<string, number> = {};
  const mismatches: Mismatch[] = [];
  let comparisons = 0;
  let restarts = 0;
  const done = () => comparisons >= options.comparisons || Date.now() - started > options.timeLimitMs || mismatches.length >= (options.maxMismatches ?? 3);

  let client = await options.connect();
  const dbName = `fuzz${options.seed}`;
  const ctx: Context = { owners: [objectId(r), objectId(r), objectId(r)], ids: [] };
  // Per model, the index order on each side (also used to rebuild a minimal repro).
  const order: Record<string, { planner: Doc[]; scan: Doc[] }> = {};

  const compare = async (phase: number, model: Model, op: Operation, before: Doc[] | null) => {
    const db = client.db(dbName);
    const [planner, scan] = await Promise.all([
      run(db.collection(model.name), op),
      run(db.collection(`${model.name}_scan`), scanned(op)),
    ]);
    comparisons++;
    byKind[op.kind] = (byKind[op.kind] ?? 0) + 1;
    if (planner === scan) return true;
    const documents = before ?? (await snapshot(client.db(dbName).collection(`${model.name}_scan`)));
    const mismatch: Mismatch = {
      seed: options.seed,
      phase,
      model: model.name,
      operation: canonical(op),
      indexes: order[model.name].planner,
      planner,
      scan,
      documents,
    };
    if (!isWrite(op)) await minimise(client, mismatch, model, op);
    mismatches.push(mismatch);
    log(`mismatch (${model.name}, ${op.kind}): ${mismatch.operation}`);
    return false;
  };

  for (let phase = 0; phase < phases && !done(); phase++) {
    if (phase > 0) {
      await client.close();
      await options.restart();
      restarts++;
      client = await options.connect();
    }
    const db = client.db(dbName);
    for (const model of MODELS) {
      const fresh = Array.from({ length: phase === 0 ? 90 : 15 }, () => document(r, model, ctx));
      ctx.ids.push(...fresh.slice(0, 5).map((d) => d._id as InstanceType<typeof ObjectId>));
      // The models' indexes in a random order, some before the documents and some built over them
      // (where an index build refuses parallel arrays, it must on both sides).
      const later: Record<string, Model["indexes"]> = { planner: [], scan: [] };
      if (phase === 0) {
        // The same on both sides: an index built before a document refuses it where one built after
        // fails, so the twins would start apart.
        order[model.name] = { planner: [], scan: [] };
        const shuffled = [...model.indexes].sort(() => r() - 0.5);
        const before = Math.floor(r() * (shuffled.length + 1));
        for (const side of ["planner", "scan"] as const) {
          for (const index of shuffled.slice(0, before)) {
            await db.collection(model.name + (side === "scan" ? "_scan" : "")).createIndex(index.key as never, { unique: index.unique });
            order[model.name][side].push(index.key);
          }
          later[side] = shuffled.slice(before);
        }
      }
      const inserted = await Promise.all(
        [model.name, `${model.name}_scan`].map((name) =>
          db
            .collection(name)
            .insertMany(fresh.map((d) => ({ ...d })), { ordered: false })
            .then(() => "ok")
            .catch((error: { writeErrors?: { index: number; code: number }[] }) =>
              canonical((error.writeErrors ?? []).map((w) => [w.index, w.code])),
            ),
        ),
      );
      comparisons++;
      byKind.insert = (byKind.insert ?? 0) + 1;
      if (inserted[0] !== inserted[1]) {
        mismatches.push({ seed: options.seed, phase, model: model.name, operation: "insertMany", indexes: order[model.name].planner, planner: inserted[0], scan: inserted[1], documents: fresh });
      }
      if (phase === 0) {
        const built: Record<string, string[]> = { planner: [], scan: [] };
        for (const side of ["planner", "scan"] as const) {
          for (const index of later[side]) {
            const outcome = await db
              .collection(model.name + (side === "scan" ? "_scan" : ""))
              .createIndex(index.key as never, { unique: index.unique })
              .then(
                () => {
                  order[model.name][side].push(index.key);
                  return "ok";
                },
                (error: { code?: number }) => `error ${error.code}`,
              );
            built[side].push(`${canonical(index.key)} ${outcome}`);
          }
        }
        comparisons++;
        byKind.createIndex = (byKind.createIndex ?? 0) + 1;
        const [a, b] = [built.planner.sort().join("\n"), built.scan.sort().join("\n")];
        if (a !== b) {
          mismatches.push({ seed: options.seed, phase, model: model.name, operation: "createIndex over the documents", indexes: order[model.name].planner, planner: a, scan: b, documents: fresh });
        }
      }
    }
    // One worker per model, each with a generator of its own (what it sends does not depend on how the
    // workers interleave), so the collections' locks and both cores are used.
    const quota = Math.ceil(options.comparisons / phases / MODELS.length);
    // Each phase its share of the time too, so a slow machine still gets every restart.
    const phaseEnd = started + ((phase + 1) * options.timeLimitMs) / phases;
    await Promise.all(
      MODELS.map(async (model, m) => {
        const w = random(options.seed * 7919 + phase * 101 + m);
        // A fixed number of operations per worker and phase: the same run for a seed, however they interleave.
        for (let operations = 0; operations < quota && !done() && Date.now() < phaseEnd; operations++) {
          const op = randomOperation(w, model, ctx);
          if (isWrite(op)) {
            const before = await snapshot(db.collection(`${model.name}_scan`));
            if (await compare(phase, model, op, before)) {
              const [a, b] = await Promise.all([contents(db.collection(model.name)), contents(db.collection(`${model.name}_scan`))]);
              comparisons++;
              byKind.contents = (byKind.contents ?? 0) + 1;
              if (a !== b) {
                mismatches.push({ seed: options.seed, phase, model: model.name, operation: `contents after ${canonical(op)}`, indexes: order[model.name].planner, planner: a, scan: b, documents: before });
              }
            }
            if (op.kind === "deleteMany" && chance(w, 0.7)) {
              // Keep the collections from running dry.
              const fresh = Array.from({ length: 20 }, () => document(w, model, ctx));
              for (const name of [model.name, `${model.name}_scan`]) {
                await db.collection(name).insertMany(fresh.map((d) => ({ ...d })), { ordered: false }).catch(() => {});
              }
            }
          } else {
            // Reads of one model in small parallel batches (nothing writes to it meanwhile).
            const batch = [op, ...Array.from({ length: 5 }, () => randomOperation(w, model, ctx)).filter((o) => !isWrite(o))];
            operations += batch.length - 1;
            await Promise.all(batch.map((o) => compare(phase, model, o, null)));
          }
        }
      }),
    );
  }
  await client.close();
  return { comparisons, byKind, seconds: (Date.now() - started) / 1000, restarts, mismatches };
}

let trials = 0;

/**
 * The fewest documents (delta debugging: drop chunks while the answers still differ) with which fresh
 * collections, given the same indexes in the same order, still answer the operation differently.
 */
async function minimise(client: Client, mismatch: Mismatch, model: Model, op: Operation) {
  const db = client.db(`fuzzmin${mismatch.seed}`);
  let attempt = 0;
  const differs = async (documents: Doc[]) => {
    attempt++;
    const name = `${model.name}${trials++}`;
    for (const suffix of ["", "_scan"]) {
      for (const key of mismatch.indexes) await db.collection(name + suffix).createIndex(key as never).catch(() => {});
      if (documents.length) await db.collection(name + suffix).insertMany(documents.map((d) => ({ ...d })), { ordered: false }).catch(() => {});
    }
    const [a, b] = await Promise.all([run(db.collection(name), op), run(db.collection(`${name}_scan`), scanned(op))]);
    await Promise.all([db.collection(name).drop(), db.collection(`${name}_scan`).drop()]).catch(() => {});
    return a !== b ? { a, b } : null;
  };
  let documents = mismatch.documents;
  if (!(await differs(documents))) return; // Needs the history (a restart, the writes before): kept whole.
  let chunks = 2;
  // Bounded, so that a failing run still reports within the test's time.
  const deadline = Date.now() + 20_000;
  while (documents.length > 1 && attempt < 200 && Date.now() < deadline) {
    const size = Math.ceil(documents.length / chunks);
    let reduced = false;
    for (let start = 0; start < documents.length; start += size) {
      const rest = [...documents.slice(0, start), ...documents.slice(start + size)];
      if (await differs(rest)) {
        documents = rest;
        chunks = Math.max(chunks - 1, 2);
        reduced = true;
        break;
      }
    }
    if (!reduced) {
      if (size === 1) break;
      chunks = Math.min(chunks * 2, documents.length);
    }
  }
  const last = await differs(documents);
  mismatch.documents = documents;
  if (last) {
    mismatch.planner = last.a;
    mismatch.scan = last.b;
  }
}

/** A mismatch as a self-contained repro for a failure message. */
export function describeMismatch(mismatch: Mismatch) {
  return [
    `seed ${mismatch.seed}, phase ${mismatch.phase}, collection ${mismatch.model}`,
    `indexes (in creation order): ${canonical(mismatch.indexes)}`,
    `operation: ${mismatch.operation}`,
    `through the planner: ${mismatch.planner.slice(0, 2000)}`,
    `by a scan:           ${mismatch.scan.slice(0, 2000)}`,
    `documents (${mismatch.documents.length}): ${canonical(mismatch.documents).slice(0, 6000)}`,
  ].join("\n");
}
