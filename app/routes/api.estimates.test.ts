import { PDFParse } from "pdf-parse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Assessment } from "~/models/assessment.server";
import { Job } from "~/models/job.server";
import { ANALYSIS_JOB } from "~/services/analysis/types";
import { LearningRecord } from "~/models/learning-record.server";
import { client, createTestUser, tenancyClients, tokenFor } from "../../tests/accounts";
import { type RunningApp } from "../../tests/app-server";
import { engineLine } from "../../tests/estimate-lines";
import { uploadMedia } from "../../tests/uploads";
import { startTenancyApp } from "../../tests/signed-in-app";

// The Estimates review desk over HTTP: the screen's list and summary (its loader's JSON), the
// estimate edit (PUT /api/assessments/{id}/estimate), supplements, learning records, the PDF and
// the screen's delete.

let app: RunningApp;
type Client = ReturnType<typeof client>;
let dealerA: Client;
let dealerB: Client;
let aId: string;
let vendorId: string;

const MISSING = "0123456789abcdef01234567";
const VIN = "1HGCM82633A004352";

beforeAll(async () => {
  ({ app, aId, dealerA, dealerB } = await startTenancyApp());
  vendorId = (await createTestUser({ role: "vendor" })).id;
});
afterAll(() => app?.stop());

/** A priced engine line (cents), as the analysis stores it. */
/** A completed estimate of A: two damages priced 300.00 and 125.50 by the vendor's rules. */
async function completedEstimate(fields: Record<string, unknown> = {}) {
  const mediaUrl = await uploadMedia(dealerA);
  const doc = await Assessment.create({
    ownerId: aId,
    title: "Silver Camry",
    vehicleYear: 2019,
    vehicleMake: "Toyota",
    vehicleModel: "Camry",
    vin: VIN,
    vendorId,
    mediaUrls: [mediaUrl],
    status: "completed",
    severity: "moderate",
    estimatedCost: 425.5,
    aiEstimatedCost: 425.5,
    damages: [
      { damageType: "dent", location: "left", severity: "moderate", description: "Door dent", confidence: 0.8, mediaUrl },
      { damageType: "scratch", location: "front", severity: "minor", description: "Bumper scratch", confidence: 0.7, mediaUrl },
    ],
    damageCategories: ["dent", "scratch"],
    lineItems: [engineLine("dent", "moderate", "left", 30000, 30000 - 20000), engineLine("scratch", "minor", "front", 12550, 12550 - 20000)],
    aiAnalysis: { confidence: 0.75, description: "Two damages", provider: "embedded" },
    ...fields,
  });
  return String(doc._id);
}

const rows = (dent: number | null, scratch: number | null) => [
  { line: 0, damageType: "dent", location: "left", severity: "moderate", amount: dent },
  { line: 1, damageType: "scratch", location: "front", severity: "minor", amount: scratch },
];

const screen = (who: Client, search: string) => who.get(`/estimates?${search}${search ? "&" : ""}_data=routes%2F_app.estimates`);

describe("/estimates list and summary", () => {
  let ids: string[];
  // Accounts of its own: the summary counts an account's whole set, which other tests add to.
  let lister: Awaited<ReturnType<typeof tenancyClients>>;
  beforeAll(async () => {
    lister = await tenancyClients(app);
    const yesterday = new Date(Date.now() - 36 * 3600 * 1000);
    const seed = (ownerId: string, fields: Record<string, unknown>) =>
      Assessment.create({ ownerId, title: "Seeded", mediaUrls: [], ...fields }).then((d) => String(d._id));
    ids = [
      await seed(lister.aId, { title: "Hail on the ROOF", vehicleMake: "Subaru", vehicleModel: "Outback", status: "completed", estimatedCost: 100.25 }),
      await seed(lister.aId, { title: "Door", vehicleMake: "Ford", vehicleModel: "Focus", vin: "2FMDK3GC4BBA12345", status: "sent", estimatedCost: 200 }),
      await seed(lister.aId, { title: "Bumper", vehicleMake: "Kia", vehicleModel: "Rio", status: "uploaded" }),
    ];
    // Sent yesterday: not Sent Today (updatedAt written as it was, without the timestamps plugin).
    await Assessment.collection.insertOne({
      ownerId: new Assessment.base.Types.ObjectId(lister.aId),
      title: "Old send",
      status: "sent",
      estimatedCost: 50,
      mediaUrls: [],
      createdAt: yesterday,
      updatedAt: yesterday,
    });
    await seed(lister.bId, { title: "Hail on the roof", vehicleMake: "Subaru", status: "sent", estimatedCost: 9999 });
  });

  it("summarises the caller's whole set: total, pending review, total value, sent today", async () => {
    const res = await screen(lister.dealerA, "q=zzz");
    expect(res.status).toBe(200);
    expect(res.json.summary).toEqual({ total: 4, pendingReview: 1, totalValue: 350.25, sentToday: 1 });
    expect(res.json.assessments).toEqual([]);
  });

  it("searches title, make, model and VIN in any case, filters by status, and never shows another account's", async () => {
    const titles = async (search: string) => (await screen(lister.dealerA, search)).json.assessments.map((a: { title: string }) => a.title);
    expect(await titles("q=hail%20roof")).toEqual(["Hail on the ROOF"]);
    expect(await titles("q=SUBARU")).toEqual(["Hail on the ROOF"]);
    expect(await titles("q=focus")).toEqual(["Door"]);
    expect(await titles("q=bba12345")).toEqual(["Door"]);
    expect(await titles("q=%5E.*%24")).toEqual([]);
    expect(await titles("status=sent")).toEqual(["Door", "Old send"]);
    expect(await titles("status=sent&q=door")).toEqual(["Door"]);
    expect((await titles("status=all")).length).toBe(4);
    expect((await titles("status=bogus")).length).toBe(4);
  });

  it("an old bookmark's page stays within bounds: page 0 or junk is the first, past the end the last", async () => {
    for (const page of ["0", "-1", "abc", "99"]) {
      const res = await screen(lister.dealerA, `page=${page}`);
      expect(res.json.assessments, page).toHaveLength(4);
      expect(res.json).toMatchObject({ matched: 4, older: null, newer: null });
    }
  });

  it("another account's estimate does not open (not found), mine does with its detail", async () => {
    const theirs = await Assessment.findOne({ ownerId: lister.bId }).lean();
    expect((await screen(lister.dealerA, `view=${theirs?._id}`)).json.target).toBeNull();
    const mine = (await screen(lister.dealerA, `view=${ids[0]}`)).json.target;
    expect(mine).toMatchObject({ id: ids[0], title: "Hail on the ROOF", supplements: [] });
  });

  it("summary cards and search counts follow a change at once (they are kept a few seconds between changes)", async () => {
    const before = await screen(lister.dealerA, "q=bumper");
    expect(before.json.summary.total).toBe(4);
    expect(before.json.matched).toBe(1);
    expect((await lister.dealerA.del(`/api/assessments/${ids[2]}`)).status).toBe(200);
    const after = await screen(lister.dealerA, "q=bumper");
    expect(after.json.summary.total).toBe(3);
    expect(after.json.matched).toBe(0);
  });
});

describe("PUT /api/assessments/{id}/estimate", () => {
  it("saves: recomputes the total, audits before → after with the reason, completed → reviewed, one learning record per changed line", async () => {
    const id = await completedEstimate();
    const res = await dealerA.put(`/api/assessments/${id}/estimate`, {
      severity: "major",
      reason: "OEM door skin needed",
      damages: rows(450, 125.5),
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({ id, status: "reviewed", severity: "major", estimatedCost: 575.5, aiEstimatedCost: 425.5 });
    // The engine's line stays on record; the reviewer's amount is spread over the damage's labour,
    // part and flat amount in proportion ($300 → $450: each × 1.5), so each keeps its category (issue 37).
    expect(res.json.lineItems[0]).toMatchObject({ priced: true, totalCents: 30000 });
    expect(res.json.lineItems[0].manualCents).toBeUndefined();
    expect(res.json.sheet.lines.filter((l: { damage: number }) => l.damage === 0)).toEqual([
      expect.objectContaining({
        damage: 0,
        operation: "repair",
        labour: { category: "body", hours: 2, rateCents: 7500 },
        part: expect.objectContaining({ quantity: 1, unitPriceCents: 15000 }),
        amountCents: 15000,
        basis: [{ kind: "reviewer", fromCents: 30000, toCents: 45000 }],
      }),
    ]);
    expect(res.json.sheet.totals).toMatchObject({ subtotalCents: 57550, totalCents: 57550, taxTotalCents: 0 });
    const entry = res.json.audit.at(-1);
    expect(entry).toMatchObject({ action: "estimate edited", from: "completed", to: "reviewed", note: "OEM door skin needed", by: aId });
    expect(entry.changes).toEqual([
      "Total: $425.50 → $575.50",
      "dent (moderate, left): $300.00 → $450.00",
      "Severity: moderate → major",
    ]);
    const records = await LearningRecord.find({ assessmentId: id }).lean();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      damageType: "dent",
      severity: "moderate",
      originalEstimate: 300,
      finalCost: 450,
      adminAdjustment: 150,
      adjustmentReason: "OEM door skin needed",
      vehicleMake: "Toyota",
      isValidated: false,
    });
    expect(String(records[0].vendorId)).toBe(vendorId);
  });

  it("adds and removes damages; a blank amount makes the total TBD; categories follow the damages", async () => {
    const id = await completedEstimate();
    const res = await dealerA.put(`/api/assessments/${id}/estimate`, {
      severity: "moderate",
      reason: "Scratch polished out; mirror found",
      damages: [rows(300, 0)[0], { damageType: "mirror_damage", location: "right", severity: "minor" }],
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.estimatedCost).toBeNull();
    expect(res.json.costNote).toBe("Priced by hand");
    expect(res.json.damageCategories).toEqual(["dent", "mirror_damage"]);
    expect(res.json.audit.at(-1).changes).toContain("Removed scratch (minor, front): $125.50");
    expect(await LearningRecord.countDocuments({ assessmentId: id })).toBe(0);
  });

  it("refuses bad input with 400 and field messages, changing nothing", async () => {
    const id = await completedEstimate();
    const cases: [unknown, string, string][] = [
      [{ reason: "x", damages: rows(-5, 125.5) }, "damages.0.amount", "Amount must be a positive number"],
      [{ reason: "x", damages: [{ ...rows(1, 1)[0], damageType: "laser_burn" }] }, "damages.0.damageType", "Damage type must be one of: scratch, dent, crack, rust, broken_part, missing_part, paint_damage, glass_damage, bumper_damage, headlight_damage, taillight_damage, mirror_damage, wheel_damage, body_panel_damage"],
      [{ damages: rows(450, 125.5) }, "reason", "A reason is required when the total changes"],
      [{ reason: "   ", damages: rows(450, 125.5) }, "reason", "A reason is required when the total changes"],
      [{ reason: "x", damages: { $gt: "" } }, "damages", "Damages must be a list"],
      [{ reason: { $ne: null }, damages: rows(1, 1) }, "reason", "Reason must be text"],
      [{ reason: "x", severity: { $ne: null }, damages: rows(1, 1) }, "severity", "Severity must be one of: minor, moderate, major, severe"],
      [{ reason: "x", damages: [{ ...rows(1, 1)[0], line: 7 }] }, "damages.0.line", "This line is not on the estimate"],
      [{ reason: "x", damages: [rows(1, 1)[0], rows(1, 1)[0]] }, "damages.1.line", "Each line can be edited once"],
      [{ reason: "x", damages: rows(1.234, 1) }, "damages.0.amount", "Amount can have at most 2 decimal places"],
    ];
    const before = await Assessment.findById(id).lean();
    for (const [body, field, message] of cases) {
      const res = await dealerA.put(`/api/assessments/${id}/estimate`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.errors?.[field], JSON.stringify(res.json)).toBe(message);
    }
    const after = await Assessment.findById(id).lean();
    expect(after?.updatedAt).toEqual(before?.updatedAt);
    expect(after?.status).toBe("completed");
    expect(await LearningRecord.countDocuments({ assessmentId: id })).toBe(0);
  });

  it("a sent estimate stays as it was: the edit is a supplement (version 2) linked to it", async () => {
    const id = await completedEstimate({ status: "sent", sentAt: new Date() });
    const before = await Assessment.findById(id).lean();
    const res = await dealerA.put(`/api/assessments/${id}/estimate`, { severity: "moderate", reason: "Hidden damage found", damages: rows(520, 125.5) });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    expect(res.json).toMatchObject({ supplementOf: id, version: 2, status: "reviewed", estimatedCost: 645.5, title: "Silver Camry", vin: VIN });
    expect(res.json.id).not.toBe(id);
    expect(res.json.audit).toHaveLength(1);
    expect(res.json.audit[0]).toMatchObject({ action: "supplement of version 1", to: "reviewed", note: "Hidden damage found" });
    // As it was sent, updatedAt included; only marked as replaced by the supplement (a write: its revision moves on),
    // and so adding nothing to the dashboard's counters any more (its tally, docs/decisions/0031).
    const after = await Assessment.findById(id).lean();
    expect(after).toEqual({ ...before, supersededBy: new Assessment.base.Types.ObjectId(res.json.id as string), revision: (before?.revision ?? 0) + 1, tally: "-" });
    const [record] = await LearningRecord.find({ assessmentId: res.json.id }).lean();
    expect(record).toMatchObject({ originalEstimate: 300, finalCost: 520 });
    const detail = (await screen(dealerA, `view=${id}`)).json.target;
    expect(detail.supplements).toEqual([{ id: res.json.id, version: 2, label: "S01", status: "reviewed", estimateNumber: `${id.slice(-8).toUpperCase()}-S01` }]);
  });

  it("lists, counts and sums take the latest version once; earlier versions are reached from it; deleting the latest restores the one before", async () => {
    const who = await tenancyClients(app);
    const mine = client(app, { token: await tokenFor(who.aId) });
    const v1 = String(
      (
        await Assessment.create({
          ownerId: who.aId,
          title: "Blue Golf",
          mediaUrls: [],
          status: "sent",
          sentAt: new Date(),
          estimatedCost: 400,
          damages: [{ damageType: "dent", location: "left", severity: "moderate", description: "Door dent", confidence: 0.8 }],
          damageCategories: ["dent"],
          lineItems: [engineLine("dent", "moderate", "left", 40000, 40000 - 20000)],
        })
      )._id,
    );
    const edit = (id: string, amount: number) =>
      mine.put(`/api/assessments/${id}/estimate`, { severity: "moderate", reason: "Hidden damage", damages: [{ line: 0, damageType: "dent", location: "left", severity: "moderate", amount }] });
    const v2 = await edit(v1, 650);
    expect(v2.status).toBe(201);
    // Editing the replaced version again is refused: there is a newer one.
    const again = await edit(v1, 700);
    expect(again.status).toBe(409);
    expect(again.json.message).toBe("A newer version of this estimate exists: edit the latest version");

    const list = (await mine.get("/api/assessments")).json as { id: string; version: number; supersededBy: string | null }[];
    expect(list.map((a) => [a.id, a.version])).toEqual([[v2.json.id, 2]]);
    expect((await mine.get("/api/assessments?status=sent")).json).toEqual([]);
    const page = (await screen(mine, "")).json;
    expect(page.summary).toEqual({ total: 1, pendingReview: 0, totalValue: 650, sentToday: 0 });
    expect(page.assessments.map((a: { version: number }) => a.version)).toEqual([2]);
    const stats = (await mine.get("/api/dashboard/stats")).json;
    expect(stats).toMatchObject({ totalAssessments: 1, totalRevenue: 0 });
    expect(stats.recentAssessments.map((a: { id: string; version: number }) => [a.id, a.version])).toEqual([[v2.json.id, 2]]);
    // The earlier version is still there, named from the latest and naming it.
    expect((await mine.get(`/api/assessments/${v1}`)).json).toMatchObject({ id: v1, version: 1, supersededBy: v2.json.id });
    const detail = (await screen(mine, `view=${v2.json.id}`)).json.target;
    expect(detail.earlierVersions).toEqual([{ id: v1, version: 1, label: "Original", status: "sent", estimateNumber: v1.slice(-8).toUpperCase() }]);

    expect((await mine.del(`/api/assessments/${v2.json.id}`)).status).toBe(200);
    expect(((await mine.get("/api/assessments")).json as { id: string }[]).map((a) => a.id)).toEqual([v1]);
    expect((await screen(mine, "")).json.summary).toMatchObject({ total: 1, totalValue: 400, sentToday: 1 });
  });

  it("nothing changed: 200 with the estimate as it was, no audit entry", async () => {
    const id = await completedEstimate();
    const res = await dealerA.put(`/api/assessments/${id}/estimate`, { severity: "moderate", damages: rows(300, 125.5) });
    expect(res.status).toBe(200);
    expect(res.json.status).toBe("completed");
    expect(res.json.audit).toHaveLength(0);
  });

  it("an estimate with nothing found stays TBD when saved as it is (no reason asked, no made-up $0)", async () => {
    const id = await completedEstimate({ severity: undefined, estimatedCost: undefined, aiEstimatedCost: undefined, damages: [], damageCategories: [], lineItems: [] });
    const res = await dealerA.put(`/api/assessments/${id}/estimate`, { damages: [] });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.estimatedCost).toBeNull();
    expect(res.json.audit).toHaveLength(0);
  });

  it("another account's estimate, a malformed or missing id: 404; during analysis: 409", async () => {
    const id = await completedEstimate();
    for (const target of [id, "nope", MISSING]) {
      const res = await dealerB.put(`/api/assessments/${target}/estimate`, { reason: "x", damages: rows(1, 1) });
      expect(res.status, target).toBe(404);
    }
    const busy = await completedEstimate({ status: "analyzing" });
    expect((await dealerA.put(`/api/assessments/${busy}/estimate`, { reason: "x", damages: rows(1, 1) })).status).toBe(409);
    expect((await client(app).put(`/api/assessments/${id}/estimate`, { damages: [] })).status).toBe(401);
  });
});

describe("the estimate's customer", () => {
  const newContact = async (who: Client, firstName: string) => {
    const res = await who.post("/api/contacts", { firstName, lastName: "Lee", email: `${firstName.toLowerCase()}@example.com` });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    return res.json.id as string;
  };

  it("PUT /estimate sets and changes the customer (audited, no reason asked: the total stays); absent keeps it", async () => {
    const id = await completedEstimate();
    const ann = await newContact(dealerA, "Ann");
    const bob = await newContact(dealerA, "Bob");
    const set = await dealerA.put(`/api/assessments/${id}/estimate`, { severity: "moderate", damages: rows(300, 125.5), contactId: ann });
    expect(set.status, JSON.stringify(set.json)).toBe(200);
    expect(set.json).toMatchObject({ contactId: ann, contact: { firstName: "Ann" }, status: "reviewed", estimatedCost: 425.5 });
    expect(set.json.audit.at(-1).changes).toEqual(["Customer: none → Ann Lee"]);
    const kept = await dealerA.put(`/api/assessments/${id}/estimate`, { severity: "major", damages: rows(300, 125.5) });
    expect(kept.json.contactId).toBe(ann);
    const changed = await dealerA.put(`/api/assessments/${id}/estimate`, { severity: "major", damages: rows(300, 125.5), contactId: bob });
    expect(changed.json.contactId).toBe(bob);
    expect(changed.json.audit.at(-1).changes).toEqual(["Customer: Ann Lee → Bob Lee"]);
  });

  it("another account's contact, a malformed or missing one: 400 on contactId, nothing changes; another account's estimate: 404", async () => {
    const id = await completedEstimate();
    const theirs = await newContact(dealerB, "Theo");
    const before = await Assessment.findById(id).lean();
    for (const contactId of [theirs, MISSING, "nope", { $ne: null }]) {
      const res = await dealerA.put(`/api/assessments/${id}/estimate`, { damages: rows(300, 125.5), contactId });
      expect(res.status, JSON.stringify(contactId)).toBe(400);
      expect(res.json.errors?.contactId).toBe("Contact not found");
    }
    expect((await Assessment.findById(id).lean())?.updatedAt).toEqual(before?.updatedAt);
    const mine = await newContact(dealerA, "Mia");
    expect((await dealerB.put(`/api/assessments/${id}/estimate`, { damages: rows(300, 125.5), contactId: mine })).status).toBe(404);
    // PUT /api/assessments/{id} holds the same rule.
    const put = await dealerA.put(`/api/assessments/${id}`, { title: "Silver Camry", contactId: theirs });
    expect(put.status).toBe(400);
    expect(put.json.errors?.contactId).toBe("Contact not found");
  });

  it("a sent estimate's new customer is a supplement; the sent version keeps whom it went to", async () => {
    const ann = await newContact(dealerA, "Ann");
    const bob = await newContact(dealerA, "Bob");
    const id = await completedEstimate({ status: "sent", sentAt: new Date(), contactId: ann });
    const res = await dealerA.put(`/api/assessments/${id}/estimate`, { severity: "moderate", damages: rows(300, 125.5), contactId: bob });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    expect(res.json).toMatchObject({ supplementOf: id, version: 2, contactId: bob });
    expect(String((await Assessment.findById(id).lean())?.contactId)).toBe(ann);
  });

  it("the Edit Estimate form offers the owner's contacts and saves the choice", async () => {
    const id = await completedEstimate();
    const ann = await newContact(dealerA, "Ann");
    const dialog = (await screen(dealerA, `edit=${id}`)).json;
    expect(dialog.contacts).toContainEqual({ id: ann, firstName: "Ann", lastName: "Lee" });
    const res = await dealerA.post(
      `/estimates?edit=${id}`,
      new URLSearchParams({
        intent: "update",
        id,
        severity: "moderate",
        contactId: ann,
        "damages[0].line": "0", "damages[0].damageType": "dent", "damages[0].location": "left", "damages[0].severity": "moderate", "damages[0].amount": "300",
        "damages[1].line": "1", "damages[1].damageType": "scratch", "damages[1].location": "front", "damages[1].severity": "minor", "damages[1].amount": "125.50",
      }).toString(),
      { "Content-Type": "application/x-www-form-urlencoded", Origin: app.url },
    );
    expect(res.status, res.text.slice(0, 300)).toBe(302);
    expect(String((await Assessment.findById(id).lean())?.contactId)).toBe(ann);
  });

  it("sending from Compose to an estimate without a customer makes that contact its customer", async () => {
    const id = await completedEstimate();
    const ann = await newContact(dealerA, "Ann");
    const res = await dealerA.post(`/api/assessments/${id}/send-email`, { contactId: ann });
    expect(res.status, JSON.stringify(res.json)).toBeLessThan(300);
    const saved = await Assessment.findById(id).lean();
    expect(String(saved?.contactId)).toBe(ann);
    expect(saved?.audit.at(-1)).toMatchObject({ action: "customer assigned", changes: ["Customer: none → Ann Lee"] });
    // An estimate with a customer keeps it when sent elsewhere once.
    const bob = await newContact(dealerA, "Bob");
    await dealerA.post(`/api/assessments/${id}/send-email`, { contactId: bob });
    expect(String((await Assessment.findById(id).lean())?.contactId)).toBe(ann);
  });
});

describe("GET /api/assessments/{id}/estimate.pdf", () => {
  it("streams a PDF with the VIN and the total; works with a Bearer token; 404 for another account's", async () => {
    const id = await completedEstimate();
    const res = await fetch(`${app.url}/api/assessments/${id}/estimate.pdf`, { headers: { Authorization: `Bearer ${await tokenFor(aId)}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    // Named by the estimate's number (docs/decisions/0053), not its id; a supplement by its number and label.
    const number = id.slice(-8).toUpperCase();
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="estimate-${number}.pdf"; filename*=UTF-8''estimate-${number}.pdf`);
    const supplement = await Assessment.create({ ownerId: aId, title: "Silver Camry", status: "reviewed", supplementOf: id, version: 2, mediaUrls: [] });
    const revised = await fetch(`${app.url}/api/assessments/${String(supplement._id)}/estimate.pdf`, { headers: { Authorization: `Bearer ${await tokenFor(aId)}` } });
    expect(revised.status).toBe(200);
    expect(revised.headers.get("content-disposition")).toBe(`attachment; filename="estimate-${number}-S01.pdf"; filename*=UTF-8''estimate-${number}-S01.pdf`);
    await revised.arrayBuffer();
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    const parser = new PDFParse({ data: new Uint8Array(bytes) });
    const { text } = await parser.getText();
    await parser.destroy();
    expect(text).toContain(VIN);
    expect(text).toContain("$425.50");
    expect(text).toContain("2019 Toyota Camry");
    expect(text).toContain("Unknown contact");
    expect(text).toContain(`Estimate ${id}`);

    expect((await dealerB.get(`/api/assessments/${id}/estimate.pdf`)).status).toBe(404);
    expect((await client(app).get(`/api/assessments/${id}/estimate.pdf`)).status).toBe(401);
  });

  it("labels the PDF in the account's language when the estimate names none (the figures and the API's JSON stay as they are)", async () => {
    const id = await completedEstimate();
    expect((await dealerA.put("/api/auth/preferences", { language: "fr" })).status).toBe(200);
    try {
      const res = await dealerA.get(`/api/assessments/${id}`);
      expect(res.status).toBe(200);
      expect(res.text).toContain('"completed"');
      expect(res.text).not.toContain("terminée");
      const bytes = Buffer.from(await (await fetch(`${app.url}/api/assessments/${id}/estimate.pdf`, { headers: { Authorization: `Bearer ${await tokenFor(aId)}` } })).arrayBuffer());
      const parser = new PDFParse({ data: new Uint8Array(bytes) });
      const { text } = await parser.getText();
      await parser.destroy();
      // The lines' layout (issue 27): headings in capitals, the estimate's id in the footer.
      for (const label of ["DEVIS", "CLIENT", "Contact inconnu", "VÉHICULE", "DOMMAGES", "LIGNES DU DEVIS", "Sous-total", "Main-d'œuvre (carrosserie)", `Devis ${id} Page 1 sur 1`]) expect(text).toContain(label);
      expect(text).toContain("$425.50");
      expect(text).not.toContain("Unknown contact");
    } finally {
      await dealerA.put("/api/auth/preferences", { language: "en" });
    }
  });
});

describe("the Edit Estimate form on /estimates (plain form posts)", () => {
  const post = (id: string, fields: Record<string, string>) =>
    dealerA.post(`/estimates?edit=${id}`, new URLSearchParams({ intent: "update", id, ...fields }).toString(), {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: app.url,
    });
  const row = (i: number, fields: Record<string, string>) =>
    Object.fromEntries(Object.entries(fields).map(([key, value]) => [`damages[${i}].${key}`, value]));
  const dent = row(0, { line: "0", damageType: "dent", location: "left", severity: "moderate", amount: "450" });
  const scratch = row(1, { line: "1", damageType: "scratch", location: "front", severity: "minor", amount: "125.50" });
  const blankRow = row(2, { damageType: "", location: "front", severity: "minor", amount: "" });

  it("saves rows, drops removed and blank ones, and goes back to the estimate", async () => {
    const id = await completedEstimate();
    const res = await post(id, { severity: "moderate", reason: "Scratch polished out", ...dent, ...scratch, [`damages[1].remove`]: "on", ...blankRow });
    expect(res.status, res.text.slice(0, 300)).toBe(302);
    expect(res.headers.get("location")).toBe(`/estimates?view=${id}`);
    const saved = await Assessment.findById(id).lean();
    expect(saved).toMatchObject({ status: "reviewed", estimatedCost: 450, damageCategories: ["dent"] });
  });

  it("shows the messages on the form (the row the user sees) and changes nothing", async () => {
    const id = await completedEstimate();
    const negative = await post(id, { severity: "moderate", reason: "x", ...dent, ...scratch, "damages[1].amount": "-3", ...blankRow });
    expect(negative.status).toBe(422);
    expect(negative.text).toContain("Amount must be a positive number");
    const noReason = await post(id, { severity: "moderate", ...dent, ...scratch, ...blankRow });
    expect(noReason.status).toBe(400);
    expect(noReason.text).toContain("A reason is required when the total changes");
    expect((await Assessment.findById(id).lean())?.status).toBe("completed");
  });

  it("an estimate being analyzed is refused with a toast, back on the estimate", async () => {
    const id = await completedEstimate({ status: "analyzing" });
    const res = await post(id, { severity: "moderate", reason: "x", ...dent, ...scratch });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/estimates?view=${id}`);
    expect((await Assessment.findById(id).lean())?.status).toBe("analyzing");
  });
});

describe("delete from /estimates", () => {
  it("asks first, then removes the estimate, its analysis job and its media", async () => {
    const id = await completedEstimate();
    const { mediaUrls } = (await Assessment.findById(id).lean())!;
    await Job.create({ type: ANALYSIS_JOB, key: id, payload: { assessmentId: id }, state: "done", maxAttempts: 3, runAt: new Date() });
    const question = await dealerA.get(`/estimates?delete=${id}`);
    expect(question.text).toContain("Are you sure you want to delete “Silver Camry”?");
    const res = await dealerA.post(`/estimates?delete=${id}`, `intent=delete&id=${id}`, {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: app.url,
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/estimates");
    expect(await Assessment.findById(id)).toBeNull();
    expect(await Job.countDocuments({ key: id })).toBe(0);
    expect((await dealerA.get(mediaUrls[0])).status).toBe(404);
  });
});
