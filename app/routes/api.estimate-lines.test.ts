import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Assessment } from "~/models/assessment.server";
import { LearningRecord } from "~/models/learning-record.server";
import { client, createTestUser, tokenFor } from "../../tests/accounts";
import { png } from "../../tests/media-files";
import { PDFParse } from "pdf-parse";
import { User } from "~/models/user.server";
import { type RunningApp } from "../../tests/app-server";
import { engineLine } from "../../tests/estimate-lines";
import { startTenancyApp } from "../../tests/signed-in-app";

// Issue 27 over HTTP: estimate lines as shops write them (PUT /api/assessments/{id}/estimate with
// `lines`, and the plain form), totals with tax from the account's settings, old estimates read as
// lines, versions S01… with their differences.

let app: RunningApp;
type Client = ReturnType<typeof client>;
let dealerA: Client;
let dealerB: Client;
let aId: string;
let bId: string;
let vendorId: string;

beforeAll(async () => {
  ({ app, aId, bId, dealerA, dealerB } = await startTenancyApp());
  vendorId = (await createTestUser({ role: "vendor" })).id;
});
afterAll(() => app?.stop());

/** An estimate as stored before issue 27: one amount per damage (dent $300 by the engine, scratch $125.50 set by a reviewer). */
async function oldEstimate(fields: Record<string, unknown> = {}) {
  const doc = await Assessment.create({
    ownerId: aId,
    title: "Grey Civic",
    vehicleMake: "Honda",
    vendorId,
    mediaUrls: [],
    status: "completed",
    estimatedCost: 425.5,
    aiEstimatedCost: 400,
    damages: [
      { damageType: "dent", location: "left", severity: "moderate", description: "Door dent", confidence: 0.8 },
      { damageType: "scratch", location: "front", severity: "minor", description: "Bumper scratch", confidence: 0.7 },
    ],
    damageCategories: ["dent", "scratch"],
    lineItems: [engineLine("dent", "moderate", "left", 30000), { ...engineLine("scratch", "minor", "front", 10000, 0), manualCents: 12550 }],
    ...fields,
  });
  return String(doc._id);
}

type Line = { id: string; damage: number | null; operation: string; description: string; amountCents: number; labour: unknown; part: unknown; note: string };
const asInput = (l: Line) => {
  const labour = l.labour as { category: string; hours: number; rateCents: number } | null;
  const part = l.part as { type: string; number: string; description: string; quantity: number; unitPriceCents: number } | null;
  return {
    id: l.id,
    damage: l.damage,
    operation: l.operation,
    description: l.description,
    amountCents: l.amountCents,
    note: l.note,
    ...(labour ? { labourCategory: labour.category, hours: labour.hours, rateCents: labour.rateCents } : {}),
    ...(part ? { partType: part.type, partNumber: part.number, partDescription: part.description, quantity: part.quantity, unitPriceCents: part.unitPriceCents } : {}),
  };
};
const damages = [
  { line: 0, damageType: "dent", location: "left", severity: "moderate" },
  { line: 1, damageType: "scratch", location: "front", severity: "minor" },
];

describe("an estimate from before lines", () => {
  it("reads as lines that add up to the amounts it had: labour, part and the rule's flat amount with why; a reviewer's amount as one line", async () => {
    const id = await oldEstimate();
    const res = await dealerA.get(`/api/assessments/${id}`);
    expect(res.status).toBe(200);
    const { lines, totals, taxRates } = res.json.sheet;
    expect(lines).toEqual([
      {
        id: "d0-1",
        damage: 0,
        operation: "repair",
        description: "dent (left)",
        labour: { category: "body", hours: 2, rateCents: 5000 },
        part: { type: "aftermarket", number: "", description: "dent parts", quantity: 1, unitPriceCents: 5000 },
        amountCents: 15000,
        note: "",
        // Why this price (issue 37): the rule's base price is the flat amount.
        basis: [
          { kind: "rule", damageType: "dent", severity: "moderate" },
          { kind: "hours", from: "default" },
          { kind: "base", cents: 15000 },
        ],
      },
      {
        id: "d1-1",
        damage: 1,
        operation: "refinish",
        description: "scratch (front)",
        labour: null,
        part: null,
        amountCents: 12550,
        note: "Amount set by a reviewer",
        basis: [{ kind: "reviewer", fromCents: 10000, toCents: 12550 }],
      },
    ]);
    expect(taxRates).toEqual({ parts: 0, labour: 0, materials: 0 });
    expect(totals).toMatchObject({ partsCents: 5000, labourTotalCents: 10000, otherCents: 27550, subtotalCents: 42550, totalCents: 42550 });
    expect(res.json.estimatedCost).toBe(425.5);
    // A damage still to be priced (a reviewer's blank amount) has no line.
    const tbd = await oldEstimate({ estimatedCost: undefined, lineItems: [engineLine("dent", "moderate", "left", 30000), { ...engineLine("scratch", "minor", "front", 10000), manualCents: null }] });
    expect((await dealerA.get(`/api/assessments/${tbd}`)).json.sheet.lines.map((l: Line) => l.id)).toEqual(["d0-1"]);
  });

  it("saving it unchanged keeps every figure (no reason asked, nothing audited)", async () => {
    const id = await oldEstimate();
    const { sheet } = (await dealerA.get(`/api/assessments/${id}`)).json;
    const res = await dealerA.put(`/api/assessments/${id}/estimate`, { damages, lines: sheet.lines.map(asInput) });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.estimatedCost).toBe(425.5);
    expect(res.json.audit).toHaveLength(0);
  });
});

describe("PUT /api/assessments/{id}/estimate with one amount per damage (issue 37)", () => {
  it("spreads a reviewer's amount over the damage's labour: paint materials and the tax on both stay", async () => {
    await dealerA.put("/api/auth/estimate-settings", { taxParts: 6, taxLabour: 8, taxMaterials: 6, terms: "", validityDays: 30 });
    try {
      const id = await oldEstimate();
      const { sheet } = (await dealerA.get(`/api/assessments/${id}`)).json;
      const scratch = sheet.lines.map(asInput).find((l: { damage: number }) => l.damage === 1);
      // The dent as a shop writes it: body 2 h × $50, refinish 1.5 h × $60, paint materials 1.5 h × $30.
      const lined = await dealerA.put(`/api/assessments/${id}/estimate`, {
        reason: "Written as lines",
        materialsRateCents: 3000,
        damages,
        lines: [
          { id: "d0-1", damage: 0, operation: "repair", description: "Door", labourCategory: "body", hours: 2, rateCents: 5000 },
          { damage: 0, operation: "refinish", description: "Door", labourCategory: "refinish", hours: 1.5, rateCents: 6000 },
          scratch,
        ],
      });
      expect(lined.status, JSON.stringify(lined.json)).toBe(200);
      expect(lined.json.sheet.totals.taxCents).toEqual({ parts: 0, labour: 1520, materials: 270 });

      const res = await dealerA.put(`/api/assessments/${id}/estimate`, {
        reason: "Agreed with the customer",
        damages: [{ ...damages[0], amount: 300 }, { ...damages[1], amount: 125.5 }],
      });
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      // $300 = paint materials $45 + labour $255 spread 100 : 90 → body $134.21, refinish $120.79.
      expect(res.json.sheet.totals).toMatchObject({
        labourCents: { body: 13421, refinish: 12079, mechanical: 0, frame: 0 },
        materialsCents: 4500,
        otherCents: 12550,
        subtotalCents: 42550,
        taxCents: { parts: 0, labour: 2040, materials: 270 },
        totalCents: 44860,
      });
      const dent = res.json.sheet.lines.filter((l: { damage: number }) => l.damage === 0);
      expect(dent.map((l: { labour: { category: string } }) => l.labour.category)).toEqual(["body", "refinish"]);
      expect(dent[0].basis).toEqual([{ kind: "reviewer", fromCents: 23500, toCents: 30000 }]);

      // Saved again through the lines as read (a client that does not know the set amounts): nothing moves.
      const again = await dealerA.put(`/api/assessments/${id}/estimate`, { damages, lines: res.json.sheet.lines.map(asInput) });
      expect(again.status, JSON.stringify(again.json)).toBe(200);
      expect(again.json.sheet.totals.totalCents).toBe(44860);
      expect(again.json.audit).toHaveLength(res.json.audit.length);

      // Below the damage's paint materials nothing can be spread: 400 on the amount, nothing changes.
      const low = await dealerA.put(`/api/assessments/${id}/estimate`, { reason: "Too low", damages: [{ ...damages[0], amount: 40 }, { ...damages[1], amount: 125.5 }] });
      expect(low.status).toBe(400);
      expect(low.json.errors).toEqual({ "damages.0.amount": "The amount is below this damage's paint materials ($45.00): change its lines instead" });
      expect((await dealerA.get(`/api/assessments/${id}`)).json.estimatedCost).toBe(448.6);
    } finally {
      await dealerA.put("/api/auth/estimate-settings", { taxParts: 0, taxLabour: 0, taxMaterials: 0, terms: "", validityDays: 30 });
    }
  });
});

describe("PUT /api/assessments/{id}/estimate with lines", () => {
  it("prices parts, labour by category, paint materials, sublet; audits each line; teaches the vendor; tax from the settings", async () => {
    const tax = await dealerA.put("/api/auth/estimate-settings", { taxParts: 8.25, taxLabour: 5, taxMaterials: 8.25, terms: "Valid for {{estimate.validUntil}}", validityDays: 45 });
    expect(tax.status, JSON.stringify(tax.json)).toBe(200);
    expect(tax.json).toEqual({ taxRates: { parts: 8.25, labour: 5, materials: 8.25 }, terms: "Valid for {{estimate.validUntil}}", validityDays: 45, logoUrl: null });
    const id = await oldEstimate();
    const { sheet } = (await dealerA.get(`/api/assessments/${id}`)).json;
    const [dent] = sheet.lines.map(asInput);
    try {
    const res = await dealerA.put(`/api/assessments/${id}/estimate`, {
      reason: "OEM door shell, refinish and blend",
      materialsRateCents: 3500,
      damages,
      lines: [
        { ...dent, operation: "replace", partType: "oem", partNumber: "67001-TBA-A00", partDescription: "Door shell LF", quantity: 1, unitPriceCents: 48999, hours: 3.5, amountCents: 0 },
        { damage: 0, operation: "refinish", description: "Door LF outside", labourCategory: "refinish", hours: 2.4, rateCents: 5500 },
        { damage: 0, operation: "blend", description: "Fender LF", labourCategory: "refinish", hours: 1.1 },
        { damage: 1, operation: "sublet", description: "Bumper refinish by paint shop", amountCents: 12000, note: "Quote #88" },
        { damage: null, operation: "remove_install", description: "Door trim panel", labourCategory: "body", hours: 0.6 },
      ],
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const t = res.json.sheet.totals;
    // Parts 489.99; labour body (3.5 + 0.6) h × $50 = 205.00; refinish 2.4 × 55 + 1.1 × 50 (the estimate's refinish rate) = 132 + 55;
    // materials (2.4 + 1.1) h × $35 = 122.50; sublet 120.
    expect(t).toMatchObject({
      partsCents: 48999,
      labourCents: { body: 20500, refinish: 18700, mechanical: 0, frame: 0 },
      labourTotalCents: 39200,
      materialsCents: 12250,
      subletCents: 12000,
      otherCents: 0,
      subtotalCents: 112449,
      taxCents: { parts: 4042, labour: 1960, materials: 1011 },
      taxTotalCents: 7013,
      totalCents: 119462,
      customerPaysCents: 119462,
      insurerPaysCents: 0,
    });
    expect(res.json.estimatedCost).toBe(1194.62);
    expect(res.json.sheet.lines[0].id).toBe("d0-1");
    expect(res.json.sheet.lines[1].id).toMatch(/^[a-f0-9]{24}$/);
    const changes: string[] = res.json.audit.at(-1).changes;
    expect(changes[0]).toBe("Total: $425.50 → $1,194.62");
    expect(changes).toContain("Added line Sublet Bumper refinish by paint shop: $120.00");
    expect(changes).toContain("Tax on parts: 0% → 8.25%");
    expect(changes.find((c) => c.startsWith("Line Replace dent (left)"))).toContain("operation Repair → Replace");
    // Each damage whose lines moved away from the engine's figure teaches the vendor (pending records):
    // the dent from $300 to 489.99 + 175 + 132 + 84 + 55 + 38.50, the scratch from $100 to the $120 sublet.
    const records = await LearningRecord.find({ assessmentId: id }).sort({ damageType: 1 }).lean();
    expect(records.map((r) => [r.damageType, r.originalEstimate, r.finalCost, r.isValidated])).toEqual([
      ["dent", 300, 974.49, false],
      ["scratch", 100, 120, false],
    ]);
    } finally {
      await dealerA.put("/api/auth/estimate-settings", { taxParts: 0, taxLabour: 0, taxMaterials: 0, terms: "", validityDays: 30 });
    }
  });

  it("a deductible splits the total: the customer pays it, the insurer the rest; null removes it", async () => {
    const id = await oldEstimate();
    const { sheet } = (await dealerA.get(`/api/assessments/${id}`)).json;
    const res = await dealerA.put(`/api/assessments/${id}/estimate`, { damages, lines: sheet.lines.map(asInput), deductibleCents: 50000 });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    // More than the total: the customer pays the total.
    expect(res.json.sheet.totals).toMatchObject({ totalCents: 42550, deductibleCents: 50000, customerPaysCents: 42550, insurerPaysCents: 0 });
    const lower = await dealerA.put(`/api/assessments/${id}/estimate`, { damages, lines: sheet.lines.map(asInput), deductibleCents: 25000 });
    expect(lower.json.sheet.totals).toMatchObject({ customerPaysCents: 25000, insurerPaysCents: 17550 });
    const none = await dealerA.put(`/api/assessments/${id}/estimate`, { damages, lines: sheet.lines.map(asInput), deductibleCents: null });
    expect(none.json.sheet.totals).toMatchObject({ deductibleCents: null, customerPaysCents: 42550, insurerPaysCents: 0 });
  });

  it("refuses bad lines with 400 on the field and changes nothing; another account's estimate is 404", async () => {
    const id = await oldEstimate();
    const before = await Assessment.findById(id).lean();
    const ok = { damage: 0, operation: "repair", labourCategory: "body", hours: 1 };
    const cases: [unknown, string, string][] = [
      [[{ ...ok, id: "ffffffffffffffffffffffff" }], "lines.0.id", "This line is not on the estimate"],
      [[{ ...ok, damage: 2 }], "lines.0.damage", "This damage is not on the estimate"],
      [[{ ...ok, labourCategory: undefined }], "lines.0.labourCategory", "Choose the labour category for the hours"],
      [[{ ...ok, operation: "paint" }], "lines.0.operation", "Operation must be one of: repair, replace, refinish, blend, remove_install, sublet"],
      [[{ ...ok, hours: 1.234 }], "lines.0.hours", "Hours can have at most 2 decimal places"],
      [[{ ...ok, partType: "oem" }], "lines.0.unitPriceCents", "Unit price is required for a part"],
      [[{ ...ok, unitPriceCents: 10.5, partType: "oem" }], "lines.0.unitPriceCents", "Unit price must be a whole number"],
      [[{ ...ok, note: { $gt: "" } }], "lines.0.note", "Note must be text"],
      [[{ damage: 1, operation: "sublet" }], "lines.0.amountCents", "A sublet line needs its amount"],
      [{ 0: ok }, "lines", "Lines must be a list"],
    ];
    for (const [lines, field, message] of cases) {
      const res = await dealerA.put(`/api/assessments/${id}/estimate`, { reason: "x", damages, lines });
      expect(res.status, JSON.stringify(lines)).toBe(400);
      expect(res.json.errors?.[field], JSON.stringify(res.json)).toBe(message);
    }
    const both = await dealerA.put(`/api/assessments/${id}/estimate`, { reason: "x", damages: [{ ...damages[0], amount: 5 }, damages[1]], lines: [ok] });
    expect(both.json.errors?.["damages.0.amount"]).toBe("With lines, amounts are set on the lines");
    const changed = await dealerA.put(`/api/assessments/${id}/estimate`, { damages, lines: [ok, { ...ok, damage: 1 }] });
    expect(changed.status).toBe(400);
    expect(changed.json.errors?.reason).toBe("A reason is required when the total changes");
    expect((await dealerB.put(`/api/assessments/${id}/estimate`, { reason: "x", damages, lines: [ok] })).status).toBe(404);
    expect((await Assessment.findById(id).lean())?.updatedAt).toEqual(before?.updatedAt);
  });

  it("the estimate settings refuse bad values with 400 and stay the caller's own", async () => {
    for (const [body, field] of [
      [{ taxParts: 101 }, "taxParts"],
      [{ taxLabour: 1.2345 }, "taxLabour"],
      [{ terms: { $ne: 1 } }, "terms"],
      [{ validityDays: 0 }, "validityDays"],
    ] as const) {
      const res = await dealerA.put("/api/auth/estimate-settings", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.errors?.[field]).toBeTruthy();
    }
    expect((await dealerA.put("/api/auth/estimate-settings", { taxParts: 1, ownerId: aId })).status).toBe(400);
    await dealerB.put("/api/auth/estimate-settings", { taxParts: 7 });
    expect((await dealerA.get("/api/auth/estimate-settings")).json.taxRates.parts).toBe(0);
    expect((await dealerB.get("/api/auth/estimate-settings")).json.taxRates.parts).toBe(7);
    expect((await client(app).get("/api/auth/estimate-settings")).status).toBe(401);
  });
});

describe("the Edit Estimate form's lines (plain form posts, dollars)", () => {
  const post = (id: string, fields: Record<string, string>) =>
    dealerA.post(`/estimates?edit=${id}`, new URLSearchParams({ intent: "update", id, ...fields }).toString(), {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: app.url,
    });
  const prefixed = (prefix: string, fields: Record<string, string>) => Object.fromEntries(Object.entries(fields).map(([k, v]) => [`${prefix}.${k}`, v]));
  const damageRows = {
    ...prefixed("damages[0]", { line: "0", damageType: "dent", location: "left", severity: "moderate" }),
    ...prefixed("damages[1]", { line: "1", damageType: "scratch", location: "front", severity: "minor" }),
    ...prefixed("damages[2]", { damageType: "", location: "front", severity: "minor" }),
  };

  it("edits a line, removes one, adds one; a removed damage takes its lines; messages land on the line's fields", async () => {
    const id = await oldEstimate();
    const res = await post(id, {
      reason: "Part price from the dealer",
      materialsRate: "30",
      deductible: "",
      language: "es",
      ...damageRows,
      ...prefixed("lines[0]", { id: "d0-1", damage: "0", operation: "replace", description: "Door", labourCategory: "body", hours: "2", rate: "50", partType: "oem", partNumber: "X1", partDescription: "Door shell", quantity: "1", unitPrice: "400.10", amount: "", note: "" }),
      ...prefixed("lines[1]", { id: "d1-1", damage: "1", operation: "refinish", amount: "125.50", remove: "on" }),
      ...prefixed("lines[2]", { id: "", damage: "1", operation: "refinish", description: "Bumper", labourCategory: "refinish", hours: "1.5", rate: "60", amount: "" }),
      ...prefixed("lines[3]", { id: "", damage: "", operation: "" }),
    });
    expect(res.status, res.text.slice(0, 400)).toBe(302);
    const saved = (await dealerA.get(`/api/assessments/${id}`)).json;
    expect(saved.sheet.lines.map((l: Line) => [l.operation, l.damage])).toEqual([
      ["replace", 0],
      ["refinish", 1],
    ]);
    expect(saved.sheet).toMatchObject({ materialsRateCents: 3000, language: "es", deductibleCents: null });
    // 100 + 400.10 + 1.5 × 60 + 1.5 × 30 materials
    expect(saved.estimatedCost).toBe(635.1);

    const removed = await post(id, {
      reason: "Scratch polished out",
      ...damageRows,
      "damages[1].remove": "on",
      ...prefixed("lines[0]", { id: saved.sheet.lines[0].id, damage: "0", operation: "replace", labourCategory: "body", hours: "2", rate: "50", partType: "oem", quantity: "1", unitPrice: "400.10" }),
      ...prefixed("lines[1]", { id: saved.sheet.lines[1].id, damage: "1", operation: "refinish", labourCategory: "refinish", hours: "1.5", rate: "60" }),
    });
    expect(removed.status, removed.text.slice(0, 400)).toBe(302);
    const after = (await dealerA.get(`/api/assessments/${id}`)).json;
    expect(after.damageCategories).toEqual(["dent"]);
    expect(after.sheet.lines).toHaveLength(1);
    expect(after.estimatedCost).toBe(500.1);

    const bad = await post(id, {
      reason: "x",
      ...damageRows,
      ...prefixed("lines[0]", { damage: "0", operation: "repair", hours: "2" }),
      ...prefixed("lines[1]", { damage: "0", operation: "replace", partType: "oem", unitPrice: "-1" }),
    });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain("Choose the labour category for the hours");
    expect(bad.text).toContain("Unit price must be at least 0");
  });
});

describe("versions", () => {
  it("a sent estimate is locked; the change is S01 with its differences (API and screen), the next S02", async () => {
    const id = await oldEstimate({ status: "sent", sentAt: new Date() });
    const sent = (await dealerA.get(`/api/assessments/${id}/estimate`)).json;
    expect(sent).toMatchObject({ versionLabel: "Original", differences: null });
    const lines = sent.sheet.lines.map(asInput);
    const s01 = await dealerA.put(`/api/assessments/${id}/estimate`, {
      reason: "Hidden damage behind the door",
      damages,
      lines: [...lines, { damage: 0, operation: "repair", description: "Inner door panel", labourCategory: "frame", hours: 1.5, rateCents: 7000 }],
    });
    expect(s01.status, JSON.stringify(s01.json)).toBe(201);
    const detail = await dealerA.get(`/api/assessments/${s01.json.id}/estimate`);
    expect(detail.json).toMatchObject({ version: 2, versionLabel: "S01", earlierVersions: [{ id, version: 1, label: "Original", status: "sent" }] });
    expect(detail.json.differences).toEqual({
      from: { id, version: 1, label: "Original", status: "sent", estimateNumber: id.slice(-8).toUpperCase() },
      changes: ["Added line Repair Inner door panel: $105.00", "Total: $425.50 → $530.50"],
    });
    // The sent version is exactly as it was.
    expect((await dealerA.get(`/api/assessments/${id}/estimate`)).json.sheet).toEqual(sent.sheet);
    expect((await dealerB.get(`/api/assessments/${s01.json.id}/estimate`)).status).toBe(404);

    await Assessment.updateOne({ _id: s01.json.id }, { $set: { status: "sent" } });
    const s02 = await dealerA.put(`/api/assessments/${s01.json.id}/estimate`, {
      reason: "Frame time agreed",
      damages,
      lines: detail.json.sheet.lines.map(asInput).map((l: ReturnType<typeof asInput>, i: number) => (i === 2 ? { ...l, hours: 1 } : l)),
    });
    expect(s02.status).toBe(201);
    const next = (await dealerA.get(`/api/assessments/${s02.json.id}/estimate`)).json;
    expect(next.versionLabel).toBe("S02");
    expect(next.differences.changes).toEqual([
      "Line Repair Inner door panel: labour 1.5 h frame at $70.00/h → 1 h frame at $70.00/h; line total $105.00 → $70.00",
      "Total: $530.50 → $495.50",
    ]);
    const screen = await dealerA.get(`/estimates?view=${s02.json.id}`);
    expect(screen.text).toContain("Changes from S01");
    expect(screen.text).toContain("Line Repair Inner door panel: labour 1.5 h frame at $70.00/h → 1 h frame at $70.00/h");
  });
});

describe("the account's logo and estimate settings (Settings → Profile)", () => {
  const postLogo = async (userId: string, file: { name: string; type: string; bytes: Buffer }, path = "/api/auth/logo") => {
    const body = new FormData();
    body.append("logo", new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
    const res = await fetch(`${app.url}${path}`, { method: "POST", body, redirect: "manual", headers: { Authorization: `Bearer ${await tokenFor(userId)}` } });
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: text.startsWith("{") ? JSON.parse(text) : undefined };
  };

  it("uploads a PNG logo into storage (served to its owner only), replaces and removes it; refuses what is not a PNG or JPEG", async () => {
    const first = await postLogo(aId, { name: "logo.png", type: "image/png", bytes: await png(64, 32) });
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    expect(first.json.logoUrl).toMatch(/^\/media\/[a-f0-9]{24}$/);
    expect((await dealerA.get(first.json.logoUrl)).status).toBe(200);
    expect((await dealerB.get(first.json.logoUrl)).status).toBe(404);
    const second = await postLogo(aId, { name: "logo2.png", type: "image/png", bytes: await png(80, 40) });
    expect(second.json.logoUrl).not.toBe(first.json.logoUrl);
    expect((await dealerA.get(first.json.logoUrl)).status).toBe(404);

    const text = await postLogo(aId, { name: "notes.txt", type: "text/plain", bytes: Buffer.from("hello") });
    expect(text.status).toBe(400);
    expect(text.json.message).toBe("You can only upload: .png, .jpg, .jpeg");
    expect((await dealerA.get("/api/auth/estimate-settings")).json.logoUrl).toBe(second.json.logoUrl);
    // Found by Schemathesis: a body that is not a multipart form (or none) was a 500.
    expect((await dealerA.post("/api/auth/logo", {})).status).toBe(415);
    const bare = await fetch(`${app.url}/api/auth/logo`, { method: "POST", headers: { Authorization: `Bearer ${await tokenFor(aId)}` } });
    expect(bare.status).toBe(415);
    expect((await bare.json()).message).toBe("Send the logo as multipart/form-data in the field logo");
    const nameless = await fetch(`${app.url}/api/auth/logo`, {
      method: "POST",
      headers: { Authorization: `Bearer ${await tokenFor(aId)}`, "Content-Type": "multipart/form-data; boundary=xyz" },
      body: '--xyz\r\nContent-Disposition: form-data; name=""\r\n\r\n1\r\n--xyz--\r\n',
    });
    expect(nameless.status).toBe(400);
    expect((await dealerA.get("/api/auth/estimate-settings")).json.logoUrl).toBe(second.json.logoUrl);

    const removed = await dealerA.del("/api/auth/logo");
    expect(removed.json.logoUrl).toBeNull();
    expect((await dealerA.get(second.json.logoUrl)).status).toBe(404);
  });

  it("the Profile tab's Estimates form saves the rates with JavaScript off and shows messages on the fields", async () => {
    const post = (fields: Record<string, string>) =>
      dealerA.post("/settings?tab=profile", new URLSearchParams({ intent: "estimate-settings", ...fields }).toString(), {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: app.url,
      });
    const ok = await post({ taxParts: "6.5", taxLabour: "", taxMaterials: "6.5", terms: "Thank you, {{customer.name}}", validityDays: "14" });
    expect(ok.status, ok.text.slice(0, 300)).toBe(302);
    expect((await dealerA.get("/api/auth/estimate-settings")).json).toMatchObject({ taxRates: { parts: 6.5, labour: 0, materials: 6.5 }, validityDays: 14 });
    const bad = await post({ taxParts: "150", taxLabour: "0", taxMaterials: "0", terms: "", validityDays: "0" });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain("Tax on parts must be at most 100");
    expect(bad.text).toContain("Validity must be at least 1");
    const page = await dealerA.get("/settings?tab=profile");
    expect(page.text).toContain("Save Estimate Settings");
    expect(page.text).toContain("Thank you, {{customer.name}}");
    await dealerA.put("/api/auth/estimate-settings", { taxParts: 0, taxLabour: 0, taxMaterials: 0, terms: "", validityDays: 30 });
  });
});

describe("GET /api/assessments/{id}/estimate.pdf", () => {
  const pdfOf = async (userId: string, id: string, query = "") => {
    const res = await fetch(`${app.url}/api/assessments/${id}/estimate.pdf${query}`, { headers: { Authorization: `Bearer ${await tokenFor(userId)}` } });
    const bytes = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200) return { status: res.status, text: "", images: 0 };
    const parser = new PDFParse({ data: new Uint8Array(bytes) });
    const { text } = await parser.getText();
    await parser.destroy();
    return { status: res.status, text, images: bytes.toString("latin1").split("/Subtype /Image").length - 1 };
  };

  it("prints the lines, totals, mileage and terms in the estimate's language; the logo only when it is the owner's upload", async () => {
    const id = await oldEstimate();
    const { sheet } = (await dealerA.get(`/api/assessments/${id}`)).json;
    await dealerA.put(`/api/assessments/${id}/estimate`, { damages, lines: sheet.lines.map(asInput), mileage: 48210, language: "es" });
    await dealerA.put("/api/auth/estimate-settings", { terms: "Gracias, {{customer.name}}. Válido hasta {{estimate.validUntil}}.", validityDays: 30 });
    const uploadLogo = async (userId: string) => {
      const body = new FormData();
      body.append("logo", new Blob([new Uint8Array(await png(60, 30))], { type: "image/png" }), "logo.png");
      const res = await fetch(`${app.url}/api/auth/logo`, { method: "POST", body, headers: { Authorization: `Bearer ${await tokenFor(userId)}` } });
      return ((await res.json()) as { logoUrl: string }).logoUrl;
    };
    await uploadLogo(aId);
    const bLogo = await uploadLogo(bId);

    const es = await pdfOf(aId, id);
    expect(es.status).toBe(200);
    expect(es.text).toContain("PRESUPUESTO");
    expect(es.text).toContain("Kilometraje: 48,210");
    expect(es.text).toContain("Gracias, Contacto desconocido.");
    expect(es.text).toContain("$425.50");
    expect(es.images).toBeGreaterThan(0);
    const en = await pdfOf(aId, id, "?lang=en");
    expect(en.text).toContain("Mileage: 48,210");
    expect(en.text).toContain("Page 1 of 1");

    // A stored logo URL naming another account's upload (an import, a guessed id) prints nothing.
    await User.updateOne({ _id: aId }, { $set: { "estimateSettings.logoUrl": bLogo } });
    expect((await pdfOf(aId, id)).images).toBe(0);
    expect((await pdfOf(aId, id, "?lang=de")).status).toBe(200);
    await dealerA.put("/api/auth/estimate-settings", { terms: "", validityDays: 30 });
    expect((await dealerB.get(`/api/assessments/${id}/estimate.pdf`)).status).toBe(404);
  });
});
