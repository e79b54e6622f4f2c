import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Assessment } from "~/models/assessment.server";
import { client } from "../../tests/accounts";
import { type RunningApp } from "../../tests/app-server";
import { editEstimateForm as form, engineLine, type EstimateRead as Read } from "../../tests/estimate-lines";
import { startTenancyApp } from "../../tests/signed-in-app";

// Issue 37 item 7, no lost updates: every write moves an assessment's revision on; reads answer it as
// a strong ETag; PUT /api/assessments/{id}/estimate and PUT /api/assessments/{id} honour If-Match
// (412 with the current version, nothing written), atomically; the Edit Estimate form carries the
// revision it was read at and a stale save comes back with what changed and what was typed.

let app: RunningApp;
type Client = ReturnType<typeof client>;
let dealerA: Client;
let aId: string;

beforeAll(async () => {
  ({ app, aId, dealerA } = await startTenancyApp());
});
afterAll(() => app?.stop());

/** A completed estimate: a dent priced $300 by the engine and a scratch $100. */
async function estimate(fields: Record<string, unknown> = {}) {
  const doc = await Assessment.create({
    ownerId: aId,
    title: "Blue Golf",
    vehicleMake: "Volkswagen",
    mediaUrls: [],
    status: "completed",
    estimatedCost: 400,
    damages: [
      { damageType: "dent", location: "left", severity: "moderate", description: "Door dent", confidence: 0.8 },
      { damageType: "scratch", location: "front", severity: "minor", description: "Bumper scratch", confidence: 0.7 },
    ],
    damageCategories: ["dent", "scratch"],
    lineItems: [engineLine("dent", "moderate", "left", 30000), engineLine("scratch", "minor", "front", 10000, 0)],
    ...fields,
  });
  return String(doc._id);
}

/** An edit setting the dent's amount (one amount per damage, the API's simplest edit). */
const dentAt = (amount: number, reason: string) => ({
  reason,
  damages: [
    { line: 0, damageType: "dent", location: "left", severity: "moderate", amount },
    { line: 1, damageType: "scratch", location: "front", severity: "minor", amount: 100 },
  ],
});

describe("ETag and If-Match on an estimate", () => {
  it("reads answer a strong ETag from the revision; every write moves it on", async () => {
    const id = await estimate();
    const first = await dealerA.get(`/api/assessments/${id}`);
    expect(first.headers.get("etag")).toBe('"r0"');
    expect(first.json.revision).toBe(0);
    expect((await dealerA.get(`/api/assessments/${id}/estimate`)).headers.get("etag")).toBe('"r0"');
    // Approving is a write too: a version read before it is no longer the stored one.
    expect((await dealerA.post(`/api/assessments/${id}/approve`)).status).toBe(200);
    const after = await dealerA.get(`/api/assessments/${id}`);
    expect(after.headers.get("etag")).toBe('"r1"');
    const stale = await dealerA.put(`/api/assessments/${id}/estimate`, dentAt(350, "Dealer price"), { "If-Match": '"r0"' });
    expect(stale.status).toBe(412);
    expect(stale.json.current).toMatchObject({ id, status: "reviewed", revision: 1, estimatedCost: 400 });
  });

  it("two edits from the same read: the first is saved, the second gets 412 with the first's version and overwrites nothing", async () => {
    const id = await estimate();
    const read = await dealerA.get(`/api/assessments/${id}/estimate`);
    const tag = read.headers.get("etag")!;

    const mine = await dealerA.put(`/api/assessments/${id}/estimate`, dentAt(350, "Dealer price"), { "If-Match": tag });
    expect(mine.status, JSON.stringify(mine.json)).toBe(200);
    expect(mine.json.estimatedCost).toBe(450);
    const newTag = mine.headers.get("etag");
    expect(newTag).toBe(`"r${mine.json.revision}"`);
    expect(newTag).not.toBe(tag);

    const theirs = await dealerA.put(`/api/assessments/${id}/estimate`, dentAt(500, "Back-office sync"), { "If-Match": tag });
    expect(theirs.status).toBe(412);
    expect(theirs.json.message).toBe("The estimate changed since it was read: nothing was saved");
    expect(theirs.headers.get("etag")).toBe(newTag);
    expect(theirs.json.current).toMatchObject({ id, estimatedCost: 450, revision: mine.json.revision });
    expect(theirs.json.current.audit.at(-1)).toMatchObject({ action: "estimate edited", note: "Dealer price" });

    // The first edit is intact: one edit in the audit trail, its figure stored.
    const stored = await Assessment.findById(id).lean();
    expect(stored?.estimatedCost).toBe(450);
    expect(stored?.audit.filter((e) => e.action === "estimate edited").map((e) => e.note)).toEqual(["Dealer price"]);

    // Re-read, the same change goes through; without If-Match an edit works as it always did.
    const again = await dealerA.put(`/api/assessments/${id}/estimate`, dentAt(500, "Back-office sync"), { "If-Match": newTag! });
    expect(again.status).toBe(200);
    expect(again.json.estimatedCost).toBe(600);
    const plain = await dealerA.put(`/api/assessments/${id}/estimate`, dentAt(320, "No precondition"));
    expect(plain.status).toBe(200);
    expect(plain.json.estimatedCost).toBe(420);
  });

  it("If-Match: * and a list take any or one of the versions; a weak or foreign tag matches none", async () => {
    const id = await estimate();
    expect((await dealerA.put(`/api/assessments/${id}/estimate`, dentAt(310, "Any"), { "If-Match": "*" })).status).toBe(200);
    expect((await dealerA.put(`/api/assessments/${id}/estimate`, dentAt(320, "Weak"), { "If-Match": 'W/"r1"' })).status).toBe(412);
    expect((await dealerA.put(`/api/assessments/${id}/estimate`, dentAt(320, "Foreign"), { "If-Match": '"abc"' })).status).toBe(412);
    expect((await dealerA.put(`/api/assessments/${id}/estimate`, dentAt(330, "List"), { "If-Match": '"r0", "r1"' })).status).toBe(200);
    expect((await Assessment.findById(id).lean())?.estimatedCost).toBe(430);
  });

  it("is atomic: of edits sent at once from the same read exactly one is saved", async () => {
    // Reviewed stays reviewed on an edit: only the revision tells the versions apart.
    const id = await estimate({ status: "reviewed" });
    const tag = (await dealerA.get(`/api/assessments/${id}`)).headers.get("etag")!;
    const answers = await Promise.all(
      [301, 302, 303, 304, 305, 306].map((amount) => dealerA.put(`/api/assessments/${id}/estimate`, dentAt(amount, `Edit ${amount}`), { "If-Match": tag })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 412, 412, 412, 412, 412]);
    const winner = answers.find((a) => a.status === 200)!;
    const stored = await Assessment.findById(id).lean();
    expect(stored?.estimatedCost).toBe(winner.json.estimatedCost);
    expect(stored?.audit.filter((e) => e.action === "estimate edited")).toHaveLength(1);
  });

  it("a sent estimate: a stale If-Match creates no supplement; a current one answers the supplement with its ETag", async () => {
    const id = await estimate({ status: "sent", sentAt: new Date() });
    const tag = (await dealerA.get(`/api/assessments/${id}`)).headers.get("etag")!;
    await Assessment.updateOne({ _id: id }, { $set: { notes: "Called the customer" } });
    const stale = await dealerA.put(`/api/assessments/${id}/estimate`, dentAt(350, "Supplement"), { "If-Match": tag });
    expect(stale.status).toBe(412);
    expect(await Assessment.countDocuments({ supplementOf: id })).toBe(0);
    const fresh = (await dealerA.get(`/api/assessments/${id}`)).headers.get("etag")!;
    const supplement = await dealerA.put(`/api/assessments/${id}/estimate`, dentAt(350, "Supplement"), { "If-Match": fresh });
    expect(supplement.status).toBe(201);
    expect(supplement.headers.get("etag")).toBe(`"r${supplement.json.revision}"`);
    expect(await Assessment.countDocuments({ supplementOf: id })).toBe(1);
  });

  it("PUT /api/assessments/{id} honours If-Match too", async () => {
    const id = await estimate();
    const tag = (await dealerA.get(`/api/assessments/${id}`)).headers.get("etag")!;
    const first = await dealerA.put(`/api/assessments/${id}`, { title: "Blue Golf GTI" }, { "If-Match": tag });
    expect(first.status).toBe(200);
    expect(first.headers.get("etag")).toBe(`"r${first.json.revision}"`);
    const second = await dealerA.put(`/api/assessments/${id}`, { title: "Blue Golf TDI" }, { "If-Match": tag });
    expect(second.status).toBe(412);
    expect(second.json.current.title).toBe("Blue Golf GTI");
    expect((await Assessment.findById(id).lean())?.title).toBe("Blue Golf GTI");
  });
});

describe("the Edit Estimate form's revision (plain form posts)", () => {
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    dealerA.post(path, body, { "Content-Type": "application/x-www-form-urlencoded", Origin: app.url, ...headers });

  it("a stale save is refused: what changed and the total now, what was typed kept on its line, the current revision carried, nothing saved", async () => {
    const id = await estimate();
    const read = (await dealerA.get(`/api/assessments/${id}`)).json as Read;
    const typed = { reason: "Cheaper PDR quote", "lines[0].description": "Door skin PDR", "lines[0].hours": "1.5" };
    // Someone else saves first (the API, from the same read).
    expect((await dealerA.put(`/api/assessments/${id}/estimate`, dentAt(350, "Dealer price"), { "If-Match": '"r0"' })).status).toBe(200);

    // JavaScript off: the page comes back with the message, and the form as it was typed.
    const page = await post(`/estimates?edit=${id}`, form(id, read, typed), { Accept: "text/html" });
    expect(page.status).toBe(409);
    expect(page.text).toContain("This estimate changed since you opened it: nothing was saved");
    expect(page.text).toContain("Dealer price");
    expect(page.text).toContain("Total: $400.00 → $450.00");
    expect(page.text).toContain("Cheaper PDR quote");
    expect(page.text).toMatch(/name="lines\[0\]\.description"[^>]*value="Door skin PDR"|value="Door skin PDR"[^>]*name="lines\[0\]\.description"/);
    expect(page.text).toMatch(/name="lines\[0\]\.id" value="d0-1"/);
    expect(page.text).toMatch(/name="revision" value="1"/);
    const stored = await Assessment.findById(id).lean();
    expect(stored?.estimatedCost).toBe(450);
    expect(stored?.audit.map((e) => e.note).filter(Boolean)).toEqual(["Dealer price"]);

    // JavaScript on (the route's data request): the same refusal as data.
    const data = await post(`/estimates?edit=${id}&_data=routes%2F_app.estimates`, form(id, read, typed));
    expect(data.status).toBe(409);
    expect(data.json.conflict.entries.map((e: { note: string | null }) => e.note)).toEqual(["Dealer price"]);
    expect(data.json.conflict.estimatedCost).toBe(450);

    // Saved again from the current revision, the save is deliberate: what was typed replaces the other
    // edit (whose spread kept the line's id), and the audit keeps both.
    const again = await post(`/estimates?edit=${id}&_data=routes%2F_app.estimates`, form(id, { ...read, revision: 1, audit: stored!.audit }, typed));
    expect(again.status).toBe(204);
    const after = await Assessment.findById(id).lean();
    expect(after?.audit.map((e) => e.note).filter(Boolean)).toEqual(["Dealer price", "Cheaper PDR quote"]);
    expect(JSON.stringify(after?.estimateSheet)).toContain("Door skin PDR");
  });
});
