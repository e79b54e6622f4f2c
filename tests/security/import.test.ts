import { once } from "node:events";
import { createGzip, gzipSync } from "node:zlib";
import mongoose from "mongoose";
import tar from "tar-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Assessment } from "../../app/models/assessment.server";
import { Contact } from "../../app/models/contact.server";
import { EmailTemplate } from "../../app/models/email-template.server";
import { LearningRecord } from "../../app/models/learning-record.server";
import { ServicePackage } from "../../app/models/package.server";
import { PricingRule } from "../../app/models/pricing-rule.server";
import { Upload } from "../../app/models/upload.server";
import { User } from "../../app/models/user.server";
import { VendorPackage } from "../../app/models/vendor-package.server";
import { startApp, type RunningApp } from "../app-server";
import { useTestDb } from "../test-db";
import { call, documentCounts, seedWorld, type Account, type World } from "./world";

// Account import as an attack surface: archives generated for every importable collection × every
// hostile shape (another account's ids and media, missing timestamps, oversize records, duplicate
// ids, link schemes, lists where text belongs), plus archive-level attacks (path traversal names,
// symlinks, compression bombs, too many records, a manifest claiming the importer's account),
// imported by a dealer, a vendor and an admin. Invariants: no 5xx; a refused archive stores
// nothing; after every import nothing of another account is referenced, readable or deletable
// through the importer's documents; the report reads the same whether an id exists elsewhere or not.

let app: RunningApp;
let world: World;
const figures = { archives: 0, requests: 0, fiveHundreds: 0, storedOnRefusal: 0, leaks: 0 };

beforeAll(async () => {
  await useTestDb();
  app = await startApp();
  world = await seedWorld(app);
}, 120_000);
afterAll(() => app?.stop());

type Doc = Record<string, unknown>;
type TarFile = { name: string; body?: string | Buffer; type?: "file" | "symlink" | "directory"; linkname?: string };

const oid = () => new mongoose.Types.ObjectId().toHexString();
const ndjson = (docs: unknown[]) => docs.map((d) => (typeof d === "string" ? d : JSON.stringify(d))).join("\n") + "\n";
const manifest = (accountId = oid()) =>
  JSON.stringify({ format: "damageiq-export", version: 1, exportedAt: new Date().toISOString(), account: { id: accountId, username: "someone", role: "dealer" }, collections: {} });

async function tarOf(files: TarFile[]) {
  const pack = tar.pack();
  for (const f of files) {
    if (f.type === "symlink" || f.type === "directory") pack.entry({ name: f.name, type: f.type, linkname: f.linkname });
    else pack.entry({ name: f.name }, f.body ?? "");
  }
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** An export archive: the collections' records, then the manifest (as an export writes it). */
async function archive(collections: Record<string, unknown[]>, { manifestFor, extra = [] }: { manifestFor?: string; extra?: TarFile[] } = {}) {
  const files: TarFile[] = Object.entries(collections).map(([name, docs]) => ({ name: `${name}.ndjson`, body: ndjson(docs) }));
  return gzipSync(await tarOf([...files, ...extra, { name: "manifest.json", body: manifest(manifestFor) }]));
}

async function importAs(who: Account, body: Buffer, dryRun = false) {
  figures.requests += 1;
  const res = await fetch(`${app.url}/api/account/import${dryRun ? "?dryRun=true" : ""}`, {
    method: "POST",
    headers: { Cookie: who.cookie, "Content-Type": "application/gzip", Origin: app.url },
    body: new Uint8Array(body),
  });
  const text = await res.text();
  if (res.status >= 500) figures.fiveHundreds += 1;
  return { status: res.status, json: JSON.parse(text || "{}") as Report & { message?: string } };
}

interface Report {
  collections: { name: string; records: number; valid: number; invalid: number; existing: number; notForAccount: number; droppedReferences: number; imported: number }[];
  errors: { collection: string; line: number; message: string }[];
  dropped: { collection: string; line: number; message: string }[];
  totalErrors: number;
  totalDropped: number;
}
const row = (report: Report, name: string) => report.collections.find((c) => c.name === name)!;

/** A valid record of each importable collection, as an export writes it. */
function valid(collection: string): Doc {
  const at = new Date().toISOString();
  const base = { _id: oid(), createdAt: at, updatedAt: at };
  const docs: Record<string, Doc> = {
    contacts: { firstName: "Imp", lastName: "Orted", email: "imp@example.com" },
    packages: { name: "Imported package", price: 10, features: ["Wash"], isActive: true },
    assessments: { title: "Imported car", status: "completed", mediaUrls: [], lineItems: [], damages: [], audit: [], version: 1 },
    emailTemplates: { name: "Imported", subject: "Hello", htmlContent: "<p>Hi</p>", isDefault: false },
    pricingRules: { damageType: "dent", severity: "major", basePrice: 100, laborRate: 80, isActive: false },
    vendorPackages: { packageName: "Imported", serviceTypes: ["paint"], pricingModel: "flat_rate" },
    learningRecords: { damageType: "dent", severity: "minor", originalEstimate: 100, finalCost: 120, isValidated: true },
  };
  return { ...base, ...docs[collection] };
}
const COLLECTIONS = ["contacts", "packages", "assessments", "emailTemplates", "pricingRules", "vendorPackages", "learningRecords"];
/** The text field a list, an operator or 100,000 characters go into. */
const TEXT_FIELD: Record<string, string> = {
  contacts: "lastName",
  packages: "name",
  assessments: "title",
  emailTemplates: "subject",
  pricingRules: "notes",
  vendorPackages: "packageName",
  learningRecords: "adjustmentReason",
};
/** The first dealer's (or first vendor's) document of each collection: the victim's ids. */
function victimId(collection: string) {
  const { dealer, vendor } = world.accounts;
  const ids: Record<string, string | undefined> = {
    contacts: dealer.docs.contact,
    packages: dealer.docs.package,
    assessments: dealer.docs.assessment,
    emailTemplates: dealer.docs.emailTemplate,
    pricingRules: vendor.docs.pricingRule,
    vendorPackages: vendor.docs.vendorPackage,
    learningRecords: vendor.docs.learningRecord,
  };
  return ids[collection]!;
}

/** The hostile records of one collection, by name: each archive holds one. */
function hostileRecords(collection: string): Record<string, Doc[] | string[]> {
  const { dealer } = world.accounts;
  const foreignMedia = `/media/${dealer.docs.upload}`;
  const field = TEXT_FIELD[collection];
  const variants: Record<string, Doc[] | string[]> = {
    "foreign id": [{ ...valid(collection), _id: victimId(collection) }],
    "missing timestamps": [(({ createdAt: _c, updatedAt: _u, ...rest }) => rest)(valid(collection))],
    "oversize text": [{ ...valid(collection), [field]: "x".repeat(100_000) }],
    "list where text belongs": [{ ...valid(collection), [field]: ["a", "b"] }],
    "operator where text belongs": [{ ...valid(collection), [field]: { $gt: "" } }],
    "bad timestamps": [{ ...valid(collection), createdAt: "yesterday", updatedAt: { $date: 1 } }],
    "duplicate ids": (() => {
      const one = valid(collection);
      return [one, { ...valid(collection), _id: one._id }];
    })(),
    "prototype keys": ['{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}},"_id":"' + oid() + '","firstName":"P","lastName":"Q","email":"p@q.co","title":"T","name":"N","price":1}'],
    "not objects": ["[]", "null", "42", '"text"', "{not json"],
  };
  if (collection === "assessments") {
    Object.assign(variants, {
      "foreign references": [
        {
          ...valid(collection),
          contactId: dealer.docs.contact,
          supplementOf: dealer.docs.assessment,
          vendorId: dealer.id,
          photoWarnings: [{ mediaUrl: foreignMedia, otherAssessmentId: dealer.docs.assessment, otherTitle: "x" }],
          audit: [{ at: new Date().toISOString(), by: dealer.id, byName: "Victim", action: "created" }],
        },
      ],
      "foreign media": [
        {
          ...valid(collection),
          mediaUrls: [foreignMedia, `/media/${oid()}`],
          damages: [{ damageType: "dent", location: "front", severity: "minor", description: "d", confidence: 0.5, mediaUrl: foreignMedia }],
          photoHashes: [{ mediaUrl: foreignMedia, hash: "0f0f0f0f0f0f0f0f" }],
        },
      ],
      "link schemes": ["javascript:alert(1)", "https://evil.example/a.jpg", "//evil.example/a.jpg", "/api/logout", "/media/../api/logout", `/media/${dealer.docs.upload}?x=1`, "data:image/png;base64,AAAA"].map(
        (url) => ({ ...valid(collection), mediaUrls: [url] }),
      ),
      "5000 lines": [{ ...valid(collection), lineItems: Array.from({ length: 5000 }, () => ({ damageType: "dent", severity: "minor", location: null, priced: false, reason: "x" })) }],
      "300 damages": [{ ...valid(collection), damages: Array.from({ length: 300 }, () => ({ damageType: "dent", location: "front", severity: "minor", description: "d", confidence: 0.5 })) }],
      "malformed lines": [{ ...valid(collection), lineItems: [null, "x", { damageType: 5, labour: "x", manualCents: "abc" }] }],
      "malformed sheet": [
        { ...valid(collection), estimateSheet: { lines: [null, { id: "$where", operation: "weld", amountCents: "abc", labour: "x" }], rates: 3, taxRates: { parts: 1e9 } } },
        { ...valid(collection), estimateSheet: { lines: Array.from({ length: 201 }, (_, i) => ({ id: `l${i}`, damage: null, operation: "repair", labour: null, part: null, amountCents: 1 })) } },
      ],
      "stuck analysis": [{ ...valid(collection), status: "analyzing" }],
    });
  }
  if (collection === "contacts") {
    Object.assign(variants, {
      "email list": [
        { ...valid(collection), email: ["a@example.com", "b@example.com"] },
        { ...valid(collection), email: "a@example.com, b@example.com" },
        { ...valid(collection), email: "a@example.com\nBcc: b@example.com" },
      ],
    });
  }
  if (collection === "learningRecords") {
    Object.assign(variants, { "foreign assessment": [{ ...valid(collection), assessmentId: dealer.docs.assessment }] });
  }
  return variants;
}

/** Archive-level attacks: what the tar and the gzip hold around the records. */
async function hostileArchives(): Promise<Record<string, Buffer>> {
  const contact = () => valid("contacts");
  /** A file of `bytes` zeros (not a collection's: only the inflation bound stops it), gzipped while streamed: ~1,000 to 1. */
  const bomb = async (bytes: number) => {
    const pack = tar.pack();
    const out: Buffer[] = [];
    const collecting = (async () => {
      for await (const chunk of pack.pipe(createGzip({ level: 9 }))) out.push(chunk as Buffer);
    })();
    const entry = pack.entry({ name: "padding.bin", size: bytes });
    const zeros = Buffer.alloc(1024 * 1024);
    for (let written = 0; written < bytes; written += zeros.length) {
      if (!entry.write(zeros)) await once(entry, "drain");
    }
    entry.end(() => undefined);
    pack.entry({ name: "manifest.json" }, manifest());
    pack.finalize();
    await collecting;
    return Buffer.concat(out);
  };
  return {
    "path traversal names": await archive({}, {
      extra: [
        { name: "../contacts.ndjson", body: ndjson([contact()]) },
        { name: "/contacts.ndjson", body: ndjson([contact()]) },
        { name: "x/../../contacts.ndjson", body: ndjson([contact()]) },
        { name: "..\\contacts.ndjson", body: ndjson([contact()]) },
      ],
    }),
    "symlink entry": await archive({}, { extra: [{ name: "contacts.ndjson", type: "symlink", linkname: "/etc/passwd" }] }),
    "entry twice": await archive({ contacts: [contact()] }, { extra: [{ name: "contacts.ndjson", body: ndjson([contact()]) }] }),
    "too many files": await archive({}, { extra: Array.from({ length: 100 }, (_, i) => ({ name: `f${i}.txt`, body: "x" })) }),
    "a 2 MB record": await archive({ contacts: [{ ...contact(), notes: "x".repeat(2 * 1024 * 1024) }] }),
    "50,001 contacts": await archive({ contacts: Array.from({ length: 50_001 }, () => ({ _id: oid(), firstName: "a", lastName: "b", email: "a@b.co" })) }),
    "compression bomb (300 MB of zeros)": await bomb(300 * 1024 * 1024),
    "no manifest": gzipSync(await tarOf([{ name: "contacts.ndjson", body: ndjson([contact()]) }])),
    "not gzip": Buffer.from("PK\u0003\u0004 a zip"),
    "gzip of garbage": gzipSync(Buffer.from("x".repeat(10_000))),
  };
}

/**
 * What an importer's documents may name: its own contacts, assessments and uploads, a vendor
 * account. Every reference of another kind is a leak (counted and listed).
 */
async function foreignReferencesOf(importer: Account) {
  const owner = new mongoose.Types.ObjectId(importer.id);
  const own = async (model: mongoose.Model<unknown>, field = "ownerId") => new Set((await model.find({ [field]: owner }).select({ _id: 1 }).lean<{ _id: unknown }[]>()).map((d) => String(d._id)));
  const [contacts, assessments, uploads, vendors] = await Promise.all([
    own(Contact as unknown as mongoose.Model<unknown>),
    own(Assessment as unknown as mongoose.Model<unknown>),
    new Set((await Upload.find({ ownerId: owner }).select({ _id: 1 }).lean()).map((u) => String(u._id))),
    new Set((await User.find({ role: "vendor" }).select({ _id: 1 }).lean()).map((u) => String(u._id))),
  ]);
  const wrong: string[] = [];
  const media = (url: unknown) => typeof url === "string" && !uploads.has(url.replace(/^\/media\//, "")) && wrong.push(`media ${url}`);
  for (const a of await Assessment.find({ ownerId: owner }).lean()) {
    if (a.contactId && !contacts.has(String(a.contactId))) wrong.push(`contact ${a.contactId}`);
    if (a.supplementOf && !assessments.has(String(a.supplementOf))) wrong.push(`supplementOf ${a.supplementOf}`);
    if (a.vendorId && !vendors.has(String(a.vendorId))) wrong.push(`vendor ${a.vendorId}`);
    a.mediaUrls.forEach(media);
    a.damages.forEach((d) => media(d.mediaUrl ?? undefined));
    a.photoHashes.forEach((p) => media(p.mediaUrl));
    for (const w of a.photoWarnings) if (!assessments.has(String(w.otherAssessmentId))) wrong.push(`photo warning ${w.otherAssessmentId}`);
  }
  for (const r of await LearningRecord.find({ vendorId: owner }).lean()) {
    if (r.assessmentId && !assessments.has(String(r.assessmentId))) wrong.push(`learning assessment ${r.assessmentId}`);
    if (r.isValidated) wrong.push(`validated learning record ${r._id}`);
  }
  return wrong;
}

/** The first dealer's and first vendor's documents are all there, theirs, as they were. */
async function victimsIntact() {
  const { dealer, vendor } = world.accounts;
  const missing: string[] = [];
  const checks: [mongoose.Model<unknown>, string | undefined, string, string][] = [
    [Contact as unknown as mongoose.Model<unknown>, dealer.docs.contact, "ownerId", dealer.id],
    [ServicePackage as unknown as mongoose.Model<unknown>, dealer.docs.package, "ownerId", dealer.id],
    [Assessment as unknown as mongoose.Model<unknown>, dealer.docs.assessment, "ownerId", dealer.id],
    [EmailTemplate as unknown as mongoose.Model<unknown>, dealer.docs.emailTemplate, "ownerId", dealer.id],
    [Upload as unknown as mongoose.Model<unknown>, dealer.docs.upload, "ownerId", dealer.id],
    [PricingRule as unknown as mongoose.Model<unknown>, vendor.docs.pricingRule, "vendorId", vendor.id],
    [VendorPackage as unknown as mongoose.Model<unknown>, vendor.docs.vendorPackage, "vendorId", vendor.id],
    [LearningRecord as unknown as mongoose.Model<unknown>, vendor.docs.learningRecord, "vendorId", vendor.id],
  ];
  for (const [model, id, field, owner] of checks) {
    if ((await model.countDocuments({ _id: id, [field]: owner })) !== 1) missing.push(`${model.modelName} ${id}`);
  }
  const media = await call(app, "GET", `/media/${dealer.docs.upload}`, { cookie: dealer.cookie });
  if (media.status !== 200) missing.push(`media ${dealer.docs.upload}: ${media.status}`);
  return missing;
}

const IMPORTERS = ["dealerB", "vendorB", "admin"] as const;

describe("account import as an attack surface", () => {
  it("every collection × hostile record, by a dealer, a vendor and an admin: no 5xx, nothing stored on refusal, nothing of another account reachable", async () => {
    const outcomes: string[] = [];
    for (const name of IMPORTERS) {
      const importer = world.accounts[name];
      for (const collection of COLLECTIONS) {
        for (const [variant, records] of Object.entries(hostileRecords(collection))) {
          const body = await archive({ [collection]: records });
          // The same archive with the manifest claiming the importer's own account changes nothing.
          const spoofed = variant.startsWith("foreign") ? [[`${variant} (manifest says it is this account)`, await archive({ [collection]: records }, { manifestFor: importer.id })] as const] : [];
          for (const [label, bytes] of [[variant, body] as const, ...spoofed]) {
            figures.archives += 1;
            const before = await documentCounts();
            const dry = await importAs(importer, bytes, true);
            const done = await importAs(importer, bytes);
            if (dry.status >= 500 || done.status >= 500) outcomes.push(`${name} ${collection} ${label}: ${dry.status}/${done.status}`);
            if (dry.status !== done.status) outcomes.push(`${name} ${collection} ${label}: dry run ${dry.status}, import ${done.status}`);
            if (done.status >= 400 && JSON.stringify(await documentCounts()) !== JSON.stringify(before)) {
              figures.storedOnRefusal += 1;
              outcomes.push(`${name} ${collection} ${label}: refused (${done.status}) but stored`);
            }
          }
        }
      }
      const foreign = await foreignReferencesOf(importer);
      figures.leaks += foreign.length;
      expect(foreign, `${name}'s documents name another account's`).toEqual([]);
    }
    expect(outcomes).toEqual([]);
    expect(await victimsIntact()).toEqual([]);
  }, 600_000);

  it("archive-level attacks are refused with the reason (400/413) and store nothing", async () => {
    const expectations: Record<string, number> = {
      "path traversal names": 200,
      "symlink entry": 200,
      "entry twice": 400,
      "too many files": 400,
      "a 2 MB record": 413,
      "50,001 contacts": 413,
      "compression bomb (300 MB of zeros)": 413,
      "no manifest": 400,
      "not gzip": 400,
      "gzip of garbage": 400,
    };
    const reasons: Record<string, RegExp> = {
      "a 2 MB record": /^A record in the archive is larger than 1024 KB$/,
      "50,001 contacts": /^The archive holds more than 50,000 contacts$/,
      "compression bomb (300 MB of zeros)": /^The archive inflates to more than 256 MB$/,
      "too many files": /^The archive holds more than 64 files$/,
      "entry twice": /^The archive holds contacts.ndjson twice$/,
    };
    const archives = await hostileArchives();
    const wrong: string[] = [];
    for (const name of IMPORTERS) {
      for (const [label, body] of Object.entries(archives)) {
        figures.archives += 1;
        const before = await documentCounts();
        const res = await importAs(world.accounts[name], body);
        if (res.status !== expectations[label]) wrong.push(`${name} ${label}: ${res.status} ${res.json.message ?? ""}`);
        if (res.status >= 400 && !(reasons[label] ?? /./).test(res.json.message ?? "")) wrong.push(`${name} ${label}: reason "${res.json.message}"`);
        if (JSON.stringify(await documentCounts()) !== JSON.stringify(before)) {
          figures.storedOnRefusal += 1;
          wrong.push(`${name} ${label}: stored something`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(await victimsIntact()).toEqual([]);
  }, 300_000);

  it("after the imports, the importers' answers hold nothing of the first dealer's photo, and deleting their assessments leaves it", async () => {
    const { dealer } = world.accounts;
    const leaks: string[] = [];
    for (const name of IMPORTERS) {
      const importer = world.accounts[name];
      const list = await call(app, "GET", "/api/assessments", { cookie: importer.cookie });
      expect(list.status).toBe(200);
      figures.requests += 1;
      const own = (JSON.parse(list.text) as { id: string; ownerId: string }[]).filter((a) => a.ownerId === importer.id);
      expect(own.length).toBeGreaterThan(1);
      for (const a of own) {
        for (const path of [`/api/assessments/${a.id}/estimate.pdf`, `/estimates?view=${a.id}`, `/api/assessments/${a.id}`]) {
          figures.requests += 1;
          const answer = await call(app, "GET", path, { cookie: importer.cookie, headers: { Accept: path.startsWith("/estimates") ? "text/html" : "*/*" } });
          if (answer.status >= 500) figures.fiveHundreds += 1;
          expect(answer.status, path).toBe(200);
          if (answer.bytes.includes(dealer.thumbMark)) leaks.push(`${name} ${path}`);
          if (/(href|src)="(javascript:|https:\/\/evil|\/\/evil|\/api\/logout)/i.test(answer.text)) leaks.push(`${name} ${path} links outside`);
        }
        figures.requests += 1;
        expect((await call(app, "DELETE", `/api/assessments/${a.id}`, { cookie: importer.cookie, headers: { Origin: app.url } })).status).toBe(200);
      }
    }
    figures.leaks += leaks.length;
    expect(leaks).toEqual([]);
    expect(await victimsIntact()).toEqual([]);
    // And the first dealer still creates (no id of its was claimed).
    figures.requests += 1;
    const created = await call(app, "POST", "/api/contacts", {
      cookie: dealer.cookie,
      body: JSON.stringify({ firstName: "After", lastName: "Import", email: "after@example.com" }),
      headers: { "Content-Type": "application/json", Origin: app.url },
    });
    expect(created.status).toBe(201);
  }, 300_000);

  it("the report reads the same whether an archive's ids exist in another account or nowhere (even when the manifest names the importer)", async () => {
    const importer = world.accounts.dealerB;
    const { dealer } = world.accounts;
    const shaped = (ids: { contact: string; assessment: string; upload: string }) =>
      archive({
        contacts: [{ ...valid("contacts"), _id: ids.contact }],
        assessments: [{ ...valid("assessments"), contactId: ids.contact, supplementOf: ids.assessment, mediaUrls: [`/media/${ids.upload}`] }],
      }, { manifestFor: importer.id });
    const placeholders = (report: Report, ids: string[]) => JSON.stringify(report).replace(new RegExp(ids.join("|"), "g"), "<id>").replace(/[a-f0-9]{24}/g, "<other>").replace(/"exportedAt":"[^"]*"/, "");
    // A contact of the first dealer's that no archive named before (an earlier import of the same id is "already here").
    const fresh = await call(app, "POST", "/api/contacts", {
      cookie: dealer.cookie,
      body: JSON.stringify({ firstName: "Fresh", lastName: "Contact", email: "f@example.com" }),
      headers: { "Content-Type": "application/json", Origin: app.url },
    });
    const foreign = { contact: JSON.parse(fresh.text).id as string, assessment: dealer.docs.assessment!, upload: dealer.docs.upload! };
    const unknown = { contact: oid(), assessment: oid(), upload: oid() };
    const a = await importAs(importer, await shaped(foreign), true);
    const b = await importAs(importer, await shaped(unknown), true);
    expect(a.status).toBe(200);
    expect(placeholders(a.json, Object.values(foreign))).toBe(placeholders(b.json, Object.values(unknown)));
    expect(row(a.json, "contacts").existing).toBe(0);
  });
});

describe("import fixes, each with the attack that worked before", () => {
  it("an imported assessment's photos must be the importer's: another account's is dropped, never embedded in a PDF nor deleted with it", async () => {
    const { dealer, dealerB } = world.accounts;
    const own = `/media/${dealerB.docs.upload}`;
    const body = await archive({ assessments: [{ ...valid("assessments"), title: "Planted", mediaUrls: [`/media/${dealer.docs.upload}`, own] }] }, { manifestFor: dealerB.id });
    const res = await importAs(dealerB, body);
    expect(res.status).toBe(200);
    expect(row(res.json, "assessments")).toMatchObject({ imported: 1, droppedReferences: 1 });
    expect(res.json.dropped[0].message).toBe(`/media/${dealer.docs.upload} is not one of this account's uploads: dropped`);
    const stored = await Assessment.findOne({ ownerId: dealerB.id, title: "Planted" }).lean();
    expect(stored?.mediaUrls).toEqual([own]);
    const pdf = await call(app, "GET", `/api/assessments/${stored!._id}/estimate.pdf`, { cookie: dealerB.cookie });
    expect(pdf.bytes.includes(dealer.thumbMark)).toBe(false);
    expect(pdf.bytes.includes(dealerB.thumbMark)).toBe(true);
  });

  it("ids in an archive are never used: a record gets a fresh id even when the manifest names the importer; importing again stores nothing twice", async () => {
    const { dealerB } = world.accounts;
    const claimed = oid();
    const body = await archive({ contacts: [{ ...valid("contacts"), _id: claimed, lastName: "Claimed" }] }, { manifestFor: dealerB.id });
    expect(row((await importAs(dealerB, body)).json, "contacts")).toMatchObject({ imported: 1 });
    expect(await Contact.countDocuments({ _id: claimed })).toBe(0);
    expect(await Contact.countDocuments({ ownerId: dealerB.id, lastName: "Claimed" })).toBe(1);
    expect(row((await importAs(dealerB, body)).json, "contacts")).toMatchObject({ existing: 1, imported: 0 });
    expect(await Contact.countDocuments({ ownerId: dealerB.id, lastName: "Claimed" })).toBe(1);
  });

  it("a create colliding with an id already stored answers 409, never 500", async () => {
    const { dealerB } = world.accounts;
    const first = await call(app, "POST", "/api/contacts", {
      cookie: dealerB.cookie,
      body: JSON.stringify({ firstName: "Next", lastName: "Id", email: "n@example.com" }),
      headers: { "Content-Type": "application/json", Origin: app.url },
    });
    expect(first.status).toBe(201);
    // The ids the app will give next (ObjectIds count up within a process): claimed by another account, as an import did.
    const id = JSON.parse(first.text).id as string;
    const seconds = parseInt(id.slice(0, 8), 16);
    const counter = parseInt(id.slice(18), 16);
    const claims = [];
    for (let s = 0; s < 8; s++) {
      for (let c = 1; c <= 40; c++) {
        const next = (seconds + s).toString(16).padStart(8, "0") + id.slice(8, 18) + ((counter + c) & 0xffffff).toString(16).padStart(6, "0");
        claims.push({ _id: new mongoose.Types.ObjectId(next), ownerId: new mongoose.Types.ObjectId(world.accounts.dealer.id), firstName: "Pre", lastName: "Claimed", email: "p@example.com" });
      }
    }
    await Contact.collection.insertMany(claims);
    const second = await call(app, "POST", "/api/contacts", {
      cookie: dealerB.cookie,
      body: JSON.stringify({ firstName: "Next", lastName: "Id", email: "n@example.com" }),
      headers: { "Content-Type": "application/json", Origin: app.url },
    });
    expect(second.status).toBe(409);
    await Contact.collection.deleteMany({ _id: { $in: claims.map((c) => c._id) } });
  });

  it("a duplicate id inside the archive refuses the whole import before anything is stored", async () => {
    const { dealerB } = world.accounts;
    const one = { ...valid("contacts"), lastName: "Twice" };
    const before = await Contact.countDocuments({ ownerId: dealerB.id });
    const res = await importAs(dealerB, await archive({ contacts: [one, { ...one, firstName: "Again" }] }));
    expect(res.status).toBe(400);
    expect(res.json.message).toMatch(/twice/);
    expect(await Contact.countDocuments({ ownerId: dealerB.id })).toBe(before);
  });

  it("records are held to the API's limits: 5,000 lines, 300 damages, a list of emails are refused with the reason", async () => {
    const { dealerB } = world.accounts;
    const [lines, damages] = (["5000 lines", "300 damages"] as const).map((k) => hostileRecords("assessments")[k][0]);
    const res = await importAs(dealerB, await archive({ assessments: [lines, damages], contacts: hostileRecords("contacts")["email list"] }));
    expect(res.status).toBe(200);
    expect(row(res.json, "assessments")).toMatchObject({ records: 2, invalid: 2, imported: 0 });
    expect(row(res.json, "contacts")).toMatchObject({ records: 3, invalid: 3, imported: 0 });
    expect(res.json.errors.map((e) => e.message)).toEqual([
      "lineItems: At most 100 line items",
      "damages: At most 100 damages",
      "email: Invalid email address",
      "email: Invalid email address",
      "email: Invalid email address",
    ]);
  });

  it("learning records are imported pending, whatever the archive says (only an admin validates)", async () => {
    const { vendorB } = world.accounts;
    const res = await importAs(vendorB, await archive({ learningRecords: [{ ...valid("learningRecords"), adjustmentReason: "Self-validated", isValidated: true, validatedAt: new Date().toISOString() }] }));
    expect(row(res.json, "learningRecords")).toMatchObject({ imported: 1 });
    expect(await LearningRecord.findOne({ vendorId: vendorB.id, adjustmentReason: "Self-validated" }).lean()).toMatchObject({ isValidated: false });
  });

  it("records already stored without timestamps, with malformed lines or outside media links: lists, dialog and PDF answer 200 and link nothing outside", async () => {
    const { admin, dealerB } = world.accounts;
    const owner = new mongoose.Types.ObjectId(dealerB.id);
    await Contact.collection.insertOne({ ownerId: owner, firstName: "No", lastName: "Timestamps", email: "t@example.com" });
    await ServicePackage.collection.insertOne({ ownerId: owner, name: "No timestamps", price: 1, features: [], isActive: true });
    await EmailTemplate.collection.insertOne({ ownerId: owner, name: "No timestamps", subject: "s", htmlContent: "<p>x</p>", isDefault: false });
    const { insertedId } = await Assessment.collection.insertOne({
      ownerId: owner,
      title: "Broken",
      status: "completed",
      mediaUrls: ["javascript:alert(1)", "https://evil.example/a.jpg", "/api/logout"],
      lineItems: [null, "x", { damageType: 5, labour: "x", manualCents: "abc", learning: [] }],
      estimateSheet: { lines: [null, "x", { id: 5, operation: "weld", labour: "x", part: { quantity: "x" }, amountCents: 1e300 }], rates: 3, taxRates: "x", language: "de" },
      damages: [],
      audit: [],
    });
    const pages = ["/api/contacts", "/api/packages", "/api/email-templates", "/api/assessments", "/contacts", "/packages", "/email", "/estimates", `/estimates?view=${insertedId}`, `/api/assessments/${insertedId}/estimate.pdf`];
    for (const who of [admin, dealerB]) {
      for (const path of pages) {
        const answer = await call(app, "GET", path, { cookie: who.cookie, headers: { Accept: path.startsWith("/api") ? "*/*" : "text/html" } });
        expect(answer.status, `${path} as ${who === admin ? "admin" : "dealer"}`).toBe(200);
        expect(answer.text).not.toMatch(/(href|src)="(javascript:|https:\/\/evil|\/api\/logout)/);
      }
    }
  });
});

afterAll(() => {
  // The figures docs/security.md quotes.
  console.log(
    `[security import] archives ${figures.archives}, requests ${figures.requests}, 5xx ${figures.fiveHundreds}, stored on refusal ${figures.storedOnRefusal}, leaks ${figures.leaks}`,
  );
});
