import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Assessment } from "~/models/assessment.server";
import { Contact } from "~/models/contact.server";
import { client, createTestUser, signIn } from "../../tests/accounts";
import { type RunningApp } from "../../tests/app-server";
import { uploadMedia } from "../../tests/uploads";
import { startTenancyApp } from "../../tests/signed-in-app";

let app: RunningApp;
type Client = ReturnType<typeof client>;
let dealerA: Client;
let dealerB: Client;
let admin: Client;
let aId: string;
let bId: string;

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const MISSING = "0123456789abcdef01234567";

beforeAll(async () => {
  ({ app, aId, bId, dealerA, dealerB, admin } = await startTenancyApp());
});
afterAll(() => app?.stop());

const upload = (who: Client) => uploadMedia(who);

async function create(who: Client, body: Record<string, unknown> = {}) {
  const res = await who.post("/api/assessments", { title: "Front bumper", mediaUrls: [await upload(who)], ...body });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json;
}

/** An assessment written straight through the model (statuses and costs the API never takes). */
async function seed(ownerId: string, fields: Record<string, unknown>) {
  const doc = await Assessment.create({ ownerId, title: "Seeded", mediaUrls: [], ...fields });
  return String(doc._id);
}

describe("authentication", () => {
  it("answers 401 Unauthorized to anonymous callers on every call", async () => {
    const anon = client(app);
    for (const res of [
      await anon.get("/api/assessments"),
      await anon.post("/api/assessments", { title: "T", mediaUrls: ["/media/x"] }),
      await anon.get(`/api/assessments/${MISSING}`),
      await anon.put(`/api/assessments/${MISSING}`, { title: "T" }),
      await anon.del(`/api/assessments/${MISSING}`),
      await anon.post(`/api/assessments/${MISSING}/approve`),
      await anon.post(`/api/assessments/${MISSING}/reject`),
      await anon.get("/api/dashboard/stats"),
    ]) {
      expect(res.status).toBe(401);
      expect(res.json).toEqual({ message: "Unauthorized" });
    }
  });
});

describe("POST /api/assessments", () => {
  it("creates an assessment of the caller in status uploaded, with its contact, vendor, media and audit entry", async () => {
    const contact = (await dealerA.post("/api/contacts", { firstName: "Jane", lastName: "Doe", email: "jane@example.com" })).json;
    const vendor = await createTestUser({ role: "vendor" });
    const media = [await upload(dealerA), await upload(dealerA)];
    const res = await dealerA.post("/api/assessments", {
      title: " Rear quarter ",
      vehicleYear: 2019,
      vehicleMake: "Toyota",
      vehicleModel: "Camry",
      vin: "1hgcm82633a004352",
      contactId: contact.id,
      notes: "Parked overnight",
      vendorId: vendor.id,
      mediaUrls: media,
    });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      id: expect.stringMatching(/^[a-f0-9]{24}$/),
      ownerId: aId,
      title: "Rear quarter",
      vehicleYear: 2019,
      vehicleMake: "Toyota",
      vehicleModel: "Camry",
      vin: "1HGCM82633A004352",
      contactId: contact.id,
      contact: { id: contact.id, firstName: "Jane", lastName: "Doe", email: "jane@example.com" },
      notes: "Parked overnight",
      vendorId: vendor.id,
      mediaUrls: media,
      status: "uploaded",
      severity: null,
      estimatedCost: null,
      aiEstimatedCost: null,
      costNote: null,
      lineItems: [],
      // A new estimate: no lines yet, every total 0 (decision 0021).
      sheet: expect.objectContaining({ lines: [], deductibleCents: null, totals: expect.objectContaining({ totalCents: 0 }) }),
      damages: [],
      damageCategories: [],
      aiAnalysis: null,
      analysisError: null,
      videoFrames: [],
      photoHashes: [],
      photoWarnings: [],
      audit: [{ at: expect.stringMatching(ISO), by: aId, byName: expect.stringMatching(/^Dealer Tester/), action: "created", from: null, to: "uploaded", note: null, changes: [] }],
      sentAt: null,
      supplementOf: null,
      version: 1,
      supersededBy: null,
      customerDecision: null,
      revision: 0,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    // Taken off the wizard's list of files.
    const draft = (await dealerA.get("/api/objects")).json as { url: string }[];
    expect(draft.map((f) => f.url)).not.toContain(media[0]);
  });

  it("never takes status, owner, costs or AI results from the body", async () => {
    const created = await create(dealerA, {
      status: "sent",
      ownerId: bId,
      estimatedCost: 999,
      aiEstimatedCost: 5,
      severity: "severe",
      aiAnalysis: { confidence: 1, description: "x", provider: "openai" },
      audit: [],
    });
    expect(created).toMatchObject({ status: "uploaded", ownerId: aId, estimatedCost: null, aiEstimatedCost: null, severity: null, aiAnalysis: null });
    const stored = await Assessment.findById(created.id).lean();
    expect(String(stored?.ownerId)).toBe(aId);
  });

  it("answers 400 with the spec's messages and stores nothing", async () => {
    const media = [await upload(dealerA)];
    const before = await Assessment.countDocuments();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ mediaUrls: media }, "title", "Title is required"],
      [{ title: "T", vehicleYear: 1899, mediaUrls: media }, "vehicleYear", "Vehicle year must be at least 1900"],
      [{ title: "T", vehicleYear: 2031, mediaUrls: media }, "vehicleYear", "Vehicle year must be at most 2030"],
      [{ title: "T", vin: "1HGCM82633I004352", mediaUrls: media }, "vin", "VIN must be 17 characters without I, O or Q"],
      [{ title: "T", vin: "1HGCM82633O004352", mediaUrls: media }, "vin", "VIN must be 17 characters without I, O or Q"],
      [{ title: "T", vin: "1HGCM82633Q004352", mediaUrls: media }, "vin", "VIN must be 17 characters without I, O or Q"],
      [{ title: "T", mediaUrls: [] }, "mediaUrls", "Please upload at least one file"],
      [{ title: "T", mediaUrls: Array.from({ length: 21 }, () => media[0]) }, "mediaUrls", "You can only upload 20 file(s)"],
    ];
    for (const [body, field, message] of cases) {
      const res = await dealerA.post("/api/assessments", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.errors[field]).toBe(message);
    }
    expect((await dealerA.post("/api/assessments", { mediaUrls: media })).json.message).toBe("Title is required");
    expect(await Assessment.countDocuments()).toBe(before);
  });

  it("refuses another account's upload and an outside URL (400 on mediaUrls), storing nothing", async () => {
    const theirs = await upload(dealerB);
    const before = await Assessment.countDocuments();
    for (const url of [theirs, "https://evil.example/dent.jpg", `/media/${MISSING}`, "/etc/passwd"]) {
      const res = await dealerA.post("/api/assessments", { title: "T", mediaUrls: [await upload(dealerA), url] });
      expect(res.status, url).toBe(400);
      expect(res.json.errors.mediaUrls).toBe(`Unknown media URL: ${url}`);
    }
    expect(await Assessment.countDocuments()).toBe(before);
    // B's upload is still B's, on B's list.
    expect(((await dealerB.get("/api/objects")).json as { url: string }[]).map((f) => f.url)).toContain(theirs);
  });

  it("answers 400 for an operator object anywhere, storing nothing", async () => {
    const media = [await upload(dealerA)];
    const before = await Assessment.countDocuments();
    const op = { $ne: null };
    for (const field of ["title", "vehicleYear", "vehicleMake", "vehicleModel", "vin", "contactId", "notes", "vendorId"]) {
      const res = await dealerA.post("/api/assessments", { title: "T", mediaUrls: media, [field]: op });
      expect(res.status, field).toBe(400);
      expect(res.json.errors[field], field).toBeDefined();
    }
    expect((await dealerA.post("/api/assessments", { title: "T", mediaUrls: op })).status).toBe(400);
    expect((await dealerA.post("/api/assessments", { title: "T", mediaUrls: [op] })).status).toBe(400);
    expect(await Assessment.countDocuments()).toBe(before);
  });

  it("refuses another account's contact and a vendor id that is no vendor account", async () => {
    const theirs = (await dealerB.post("/api/contacts", { firstName: "Bea", lastName: "B", email: "bea@example.com" })).json;
    const contact = await dealerA.post("/api/assessments", { title: "T", mediaUrls: [await upload(dealerA)], contactId: theirs.id });
    expect(contact.status).toBe(400);
    expect(contact.json).toEqual({ message: "Contact not found", errors: { contactId: "Contact not found" } });
    const vendor = await dealerA.post("/api/assessments", { title: "T", mediaUrls: [await upload(dealerA)], vendorId: bId });
    expect(vendor.status).toBe(400);
    expect(vendor.json).toEqual({ message: "Vendor not found", errors: { vendorId: "Vendor not found" } });
  });
});

describe("GET /api/assessments", () => {
  let camry: { id: string };
  beforeAll(async () => {
    await Assessment.deleteMany({});
    const at = (minutes: number) => new Date(Date.UTC(2025, 0, 1, 12, minutes));
    await seed(aId, { title: "Hail damage", vehicleMake: "Ford", vehicleModel: "F-150", vin: "1FTFW1ET5DFC10312", createdAt: at(1) });
    camry = { id: await seed(aId, { title: "Door ding", vehicleMake: "Toyota", vehicleModel: "Camry", status: "completed", createdAt: at(2) }) };
    await seed(aId, { title: "Scratched Bumper", vehicleMake: "Honda", vehicleModel: "Civic", vin: "JH4KA7561PC008269", status: "completed", createdAt: at(3) });
    await seed(aId, { title: "Cracked windshield", status: "sent", createdAt: at(4) });
    await seed(bId, { title: "Door ding", vehicleMake: "Toyota", vehicleModel: "Corolla", status: "completed", createdAt: at(5) });
  });
  const titles = async (who: Client, query = "") =>
    ((await who.get(`/api/assessments${query}`)).json as { title: string }[]).map((a) => a.title);

  it("lists only the caller's assessments, newest first, without parameters the whole list", async () => {
    expect(await titles(dealerA)).toEqual(["Cracked windshield", "Scratched Bumper", "Door ding", "Hail damage"]);
    expect(await titles(dealerB)).toEqual(["Door ding"]);
    expect((await dealerA.get("/api/assessments")).json[0].owner).toBeUndefined();
  });

  it("searches title, make, model and VIN, case-insensitively", async () => {
    expect(await titles(dealerA, "?q=HAIL")).toEqual(["Hail damage"]);
    expect(await titles(dealerA, "?q=toyota")).toEqual(["Door ding"]);
    expect(await titles(dealerA, "?q=CIVIC")).toEqual(["Scratched Bumper"]);
    expect(await titles(dealerA, "?q=jh4ka7561")).toEqual(["Scratched Bumper"]);
    expect(await titles(dealerA, "?q=f-150")).toEqual(["Hail damage"]);
    expect(await titles(dealerA, "?q=nothing-like-it")).toEqual([]);
    expect(await titles(dealerA, `?q=${encodeURIComponent(".*")}`)).toEqual([]);
  });

  it("filters by status, alone and with the search; 'all' is no filter; an unknown status is a 400", async () => {
    expect(await titles(dealerA, "?status=completed")).toEqual(["Scratched Bumper", "Door ding"]);
    expect(await titles(dealerA, "?status=completed&q=bumper")).toEqual(["Scratched Bumper"]);
    expect(await titles(dealerA, "?status=sent&q=bumper")).toEqual([]);
    expect(await titles(dealerA, "?status=all")).toHaveLength(4);
    const bad = await dealerA.get("/api/assessments?status=done");
    expect(bad.status).toBe(400);
    expect(bad.json.errors.status).toMatch(/^status must be one of: all, uploaded/);
    // A bracketed parameter is another parameter, never an operator.
    expect(await titles(dealerA, "?status[$ne]=x")).toHaveLength(4);
  });

  it("pages with limit and offset, and refuses bad values", async () => {
    expect(await titles(dealerA, "?limit=2&offset=1")).toEqual(["Scratched Bumper", "Door ding"]);
    expect(await titles(dealerA, "?limit=1000&offset=4")).toEqual([]);
    for (const query of ["?limit=0", "?limit=1001", "?limit=abc", "?offset=-1", "?offset=1.5"]) {
      expect((await dealerA.get(`/api/assessments${query}`)).status, query).toBe(400);
    }
  });

  it("admins see every account's assessments with the owner", async () => {
    const res = await admin.get("/api/assessments");
    expect(res.json).toHaveLength(5);
    const theirs = res.json.find((a: { ownerId: string }) => a.ownerId === bId);
    expect(theirs.owner).toEqual({ id: bId, name: expect.stringMatching(/^Dealer Tester/) });
  });

  it("GET /api/assessments/{id}: in scope only; another account's or a malformed id is a 404", async () => {
    expect((await dealerA.get(`/api/assessments/${camry.id}`)).json.title).toBe("Door ding");
    for (const [who, id] of [[dealerB, camry.id], [dealerA, "not-an-id"], [dealerA, MISSING], [dealerA, "%24where"]] as const) {
      const res = await who.get(`/api/assessments/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.json).toEqual({ message: "Assessment not found" });
    }
    const asAdmin = await admin.get(`/api/assessments/${camry.id}`);
    expect(asAdmin.json.owner).toEqual({ id: aId, name: expect.any(String) });
  });
});

describe("PUT /api/assessments/{id}", () => {
  it("replaces the editable fields only; status, costs and media stay; an 'updated' audit entry", async () => {
    const created = await create(dealerA, { vehicleMake: "Ford", notes: "n" });
    await Assessment.updateOne({ _id: created.id }, { $set: { status: "completed", estimatedCost: 120 } });
    const res = await dealerA.put(`/api/assessments/${created.id}`, {
      title: "Renamed",
      vehicleYear: "2020",
      vin: "jh4ka7561pc008269",
      status: "sent",
      estimatedCost: 1,
      mediaUrls: [],
      ownerId: bId,
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      title: "Renamed",
      vehicleYear: 2020,
      vin: "JH4KA7561PC008269",
      vehicleMake: null,
      notes: null,
      status: "completed",
      estimatedCost: 120,
      mediaUrls: created.mediaUrls,
      ownerId: aId,
    });
    expect(res.json.audit.map((e: { action: string }) => e.action)).toEqual(["created", "updated"]);
  });

  it("bad input: 400 and nothing changes", async () => {
    const created = await create(dealerA);
    const res = await dealerA.put(`/api/assessments/${created.id}`, { title: "", vehicleYear: 1899, vin: { $ne: null } });
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual({
      title: "Title is required",
      vehicleYear: "Vehicle year must be at least 1900",
      vin: "VIN must be text",
    });
    expect((await Assessment.findById(created.id).lean())?.title).toBe("Front bumper");
  });

  it("another account's assessment or a malformed id: 404 and unchanged; an admin may edit it", async () => {
    const theirs = await create(dealerB, { title: "Bea's" });
    for (const id of [theirs.id, "not-an-id", MISSING]) {
      const res = await dealerA.put(`/api/assessments/${id}`, { title: "Hacked" });
      expect(res.status, id).toBe(404);
      expect(res.json).toEqual({ message: "Assessment not found" });
    }
    expect((await Assessment.findById(theirs.id).lean())?.title).toBe("Bea's");
    const contact = (await dealerB.post("/api/contacts", { firstName: "Bo", lastName: "B", email: "bo@example.com" })).json;
    const edited = await admin.put(`/api/assessments/${theirs.id}`, { title: "Checked", contactId: contact.id });
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({ title: "Checked", ownerId: bId, contact: { id: contact.id } });
  });
});

describe("approve and reject", () => {
  it("approve: completed → reviewed with who and when; again is a 409", async () => {
    const id = await seed(aId, { status: "completed" });
    const res = await dealerA.post(`/api/assessments/${id}/approve`);
    expect(res.status).toBe(200);
    expect(res.json.status).toBe("reviewed");
    const entry = res.json.audit.at(-1);
    expect(entry).toEqual({ at: expect.stringMatching(ISO), by: aId, byName: expect.stringMatching(/^Dealer Tester/), action: "approved", from: "completed", to: "reviewed", note: null, changes: [] });
    expect(Math.abs(Date.parse(entry.at) - Date.now())).toBeLessThan(60_000);
    const again = await dealerA.post(`/api/assessments/${id}/approve`);
    expect(again.status).toBe(409);
    expect(again.json).toEqual({ message: "Only a completed assessment can be approved" });
    for (const status of ["uploaded", "processing", "analyzing", "sent"]) {
      const other = await seed(aId, { status });
      expect((await dealerA.post(`/api/assessments/${other}/approve`)).status, status).toBe(409);
      expect((await Assessment.findById(other).lean())?.status).toBe(status);
    }
  });

  it("reject: completed or reviewed → uploaded with the note; from elsewhere a 409", async () => {
    const reviewed = await seed(aId, { status: "reviewed" });
    const res = await dealerA.post(`/api/assessments/${reviewed}/reject`, { note: "Wrong panel" });
    expect(res.status).toBe(200);
    expect(res.json.status).toBe("uploaded");
    expect(res.json.audit.at(-1)).toMatchObject({ by: aId, action: "rejected", from: "reviewed", to: "uploaded", note: "Wrong panel" });
    const completed = await seed(aId, { status: "completed" });
    expect((await dealerA.post(`/api/assessments/${completed}/reject`)).json.audit.at(-1)).toMatchObject({ from: "completed", to: "uploaded", note: null });
    const again = await dealerA.post(`/api/assessments/${reviewed}/reject`);
    expect(again.status).toBe(409);
    expect(again.json).toEqual({ message: "Only a completed or reviewed assessment can be rejected" });
    expect((await dealerA.post(`/api/assessments/${completed}/reject`, { note: { $ne: null } })).status).toBe(400);
  });

  it("another account's assessment or a malformed id: 404 and unchanged; an admin may approve it", async () => {
    const theirs = await seed(bId, { status: "completed" });
    for (const id of [theirs, "not-an-id", MISSING]) {
      expect((await dealerA.post(`/api/assessments/${id}/approve`)).status, id).toBe(404);
      expect((await dealerA.post(`/api/assessments/${id}/reject`)).status, id).toBe(404);
    }
    expect((await Assessment.findById(theirs).lean())?.status).toBe("completed");
    const approved = await admin.post(`/api/assessments/${theirs}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.json.audit.at(-1).byName).toMatch(/^Admin Tester/);
  });

  it("answers 405 to other methods", async () => {
    const id = await seed(aId, { status: "completed" });
    expect((await dealerA.put(`/api/assessments/${id}/approve`)).status).toBe(405);
    expect((await dealerA.post(`/api/assessments/${id}`)).status).toBe(405);
    expect((await dealerA.del("/api/assessments")).status).toBe(405);
  });
});

describe("GET /api/dashboard/stats", () => {
  it("counts, sums and the AI accuracy over the caller's assessments only", async () => {
    const c = await createTestUser({ role: "dealer" });
    const dealerC = client(app, { cookie: await signIn(app, c.username, c.password) });
    const empty = await dealerC.get("/api/dashboard/stats");
    expect(empty.json).toEqual({
      totalAssessments: 0,
      pendingReviews: 0,
      totalRevenue: 0,
      aiAccuracy: 0,
      recentAssessments: [],
      workflow: { upload: 0, analysis: 0, review: 0, complete: 0 },
    });

    let minute = 0;
    const add = (status: string, costs: { estimatedCost?: number; aiEstimatedCost?: number } = {}) =>
      seed(c.id, { status, title: `${status} ${minute}`, createdAt: new Date(Date.UTC(2025, 1, 1, 0, minute++)), ...costs });
    await add("uploaded");
    await add("uploaded");
    await add("processing");
    await add("analyzing");
    await add("completed", { estimatedCost: 500, aiEstimatedCost: 100 });
    await add("completed");
    await add("completed");
    await add("reviewed", { estimatedCost: 115, aiEstimatedCost: 100 }); // exactly 15 %: within
    await add("reviewed", { estimatedCost: 116, aiEstimatedCost: 100 }); // 16 %: not
    await add("sent", { estimatedCost: 170.25, aiEstimatedCost: 200 }); // 14.9 %: within
    await add("sent", { estimatedCost: 300 }); // no AI figure: revenue only
    await add("sent", { aiEstimatedCost: 50 }); // TBD: adds nothing, compared with nothing
    // Another account's, however large, never counts.
    await seed(bId, { status: "sent", estimatedCost: 1_000_000, aiEstimatedCost: 1_000_000 });
    await seed(bId, { status: "completed" });

    const res = await dealerC.get("/api/dashboard/stats");
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      totalAssessments: 12,
      pendingReviews: 3,
      totalRevenue: 470.25,
      aiAccuracy: 66.7,
      workflow: { upload: 2, analysis: 2, review: 3, complete: 5 },
    });
    expect(res.json.recentAssessments.map((a: { title: string }) => a.title)).toEqual(["sent 11", "sent 10", "sent 9", "reviewed 8", "reviewed 7"]);
    expect(res.json.recentAssessments[0]).toMatchObject({ ownerId: c.id, status: "sent", estimatedCost: null });

    // The admin's figures are over every account.
    const all = await admin.get("/api/dashboard/stats");
    expect(all.json.totalAssessments).toBe(await Assessment.countDocuments());
    expect(all.json.totalRevenue).toBeGreaterThanOrEqual(1_000_470.25);
    expect(all.json.recentAssessments[0].owner).toBeDefined();
  });
});

describe("DELETE /api/assessments/{id}", () => {
  it("deletes the assessment and its media objects", async () => {
    const created = await create(dealerA);
    const url = created.mediaUrls[0];
    expect((await dealerA.get(url)).status).toBe(200);
    const res = await dealerA.del(`/api/assessments/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ message: "Assessment deleted successfully" });
    expect(await Assessment.findById(created.id)).toBeNull();
    expect((await dealerA.get(url)).status).toBe(404);
    expect((await dealerA.del(`/api/assessments/${created.id}`)).status).toBe(404);
  });

  it("keeps a media object another assessment still shows", async () => {
    const url = await upload(dealerA);
    const first = await create(dealerA, { mediaUrls: [url] });
    const second = await create(dealerA, { mediaUrls: [url] });
    expect((await dealerA.del(`/api/assessments/${first.id}`)).status).toBe(200);
    expect((await dealerA.get(url)).status).toBe(200);
    expect((await dealerA.del(`/api/assessments/${second.id}`)).status).toBe(200);
    expect((await dealerA.get(url)).status).toBe(404);
  });

  it("another account's assessment or a malformed id: 404 and it stays with its media; an admin may delete it", async () => {
    const theirs = await create(dealerB);
    for (const id of [theirs.id, "not-an-id", "%24where"]) {
      const res = await dealerA.del(`/api/assessments/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.json).toEqual({ message: "Assessment not found" });
    }
    expect(await Assessment.findById(theirs.id)).not.toBeNull();
    expect((await dealerB.get(theirs.mediaUrls[0])).status).toBe(200);
    expect((await admin.del(`/api/assessments/${theirs.id}`)).status).toBe(200);
    expect((await dealerB.get(theirs.mediaUrls[0])).status).toBe(404);
  });
});

describe("account deletion", () => {
  it("deleting an account removes its assessments and their media, and nobody else's", async () => {
    const victim = await createTestUser({ role: "dealer" });
    const asVictim = client(app, { cookie: await signIn(app, victim.username, victim.password) });
    const doomed = await create(asVictim);
    const kept = await create(dealerB);
    expect((await admin.del(`/api/admin/users/${victim.id}`)).status).toBe(200);
    expect(await Assessment.countDocuments({ ownerId: victim.id })).toBe(0);
    expect((await admin.get(doomed.mediaUrls[0])).status).toBe(404);
    expect(await Assessment.findById(kept.id)).not.toBeNull();
    expect((await dealerB.get(kept.mediaUrls[0])).status).toBe(200);
    expect(await Contact.countDocuments({ ownerId: victim.id })).toBe(0);
  });
});
