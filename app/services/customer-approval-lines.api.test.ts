import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Assessment } from "~/models/assessment.server";
import { CustomerDecision } from "~/models/customer-decision.server";
import { EmailLog } from "~/models/email-log.server";
import { LINE_CHOICE_UNKNOWN } from "~/schemas/customer-approval";
import { readSheet, sheetTotals } from "~/utils/estimate-sheet";
import { client } from "../../tests/accounts";
import { type RunningApp } from "../../tests/app-server";
import { APPROVAL_SHEET as SHEET } from "../../tests/estimate-lines";
import { uploadMedia } from "../../tests/uploads";
import { startTenancyApp } from "../../tests/signed-in-app";

// Approval line by line (issue 40 item 6, docs/decisions/0063), over HTTP against the built app:
// the reviewer marks lines optional (API), the customer's page lists required and optional lines
// with their photo evidence, the customer picks optional lines in a plain form, the server works
// out the approved total from the version's lines (never the client's), refuses ids that are not
// this version's lines (400, nothing recorded), and the decision keeps each line's decision.

type Client = ReturnType<typeof client>;
let app: RunningApp;
let dealerA: Client;
let aId: string;

beforeAll(async () => {
  ({ app, dealerA, aId } = await startTenancyApp({ env: { TRUST_PROXY: "1" } }));
  // A busy machine starts the app and its database slowly.
}, 240_000);
afterAll(() => app?.stop());

let ipCounter = 0;
function customer(ip = `203.0.113.${++ipCounter}`) {
  const call = async (method: string, path: string, body?: URLSearchParams) => {
    const res = await fetch(`${app.url}${path}`, {
      method,
      redirect: "manual",
      headers: {
        "X-Forwarded-For": ip,
        "User-Agent": "Mozilla/5.0 (Linux; Android 14) TestPhone",
        ...(body ? { "Content-Type": "application/x-www-form-urlencoded", Origin: app.url } : {}),
      },
      body: body?.toString(),
    });
    const buffer = Buffer.from(await res.arrayBuffer());
    return { status: res.status, headers: res.headers, text: buffer.toString("utf8"), bytes: buffer };
  };
  return {
    get: (path: string) => call("GET", path),
    post: (path: string, fields: [string, string][]) => call("POST", path, new URLSearchParams(fields)),
  };
}

/** A sent estimate of account A with a photo showing its one damage, its sheet with two optional lines, and a link. */
async function linkedEstimate(sheet: Omit<typeof SHEET, "language"> & { language: string | null } = SHEET) {
  const mediaUrl = await uploadMedia(dealerA);
  const contact = await dealerA.post("/api/contacts", { firstName: "Jane", lastName: "Doe", email: `jane.${Math.random().toString(36).slice(2, 8)}@example.com` });
  const doc = await Assessment.create({
    ownerId: aId,
    title: "Silver Camry options",
    vehicleYear: 2019,
    vehicleMake: "Toyota",
    vehicleModel: "Camry",
    contactId: contact.json.id,
    mediaUrls: [mediaUrl],
    status: "sent",
    sentAt: new Date(),
    estimatedCost: sheetTotals(readSheet({ estimateSheet: sheet, damages: [{}] })).totalCents / 100,
    damages: [{ damageType: "dent", location: "left", severity: "moderate", description: "Door dent", confidence: 0.8, mediaUrl }],
    damageCategories: ["dent"],
    lineItems: [],
    estimateSheet: sheet,
  });
  const id = String(doc._id);
  const link = await dealerA.post(`/api/assessments/${id}/links`);
  expect(link.status, link.text).toBe(201);
  return { id, token: link.json.token as string };
}

const approve = (chosen: string[], extra: [string, string][] = []): [string, string][] => [
  ["intent", "approve"],
  ["signatureName", "Jane Doe"],
  ["termsAccepted", "on"],
  ...chosen.map((id): [string, string] => ["optionalLines", id]),
  ...extra,
];

const money = (cents: number) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);
const totalOf = (ids: string[]) => {
  const sheet = readSheet({ estimateSheet: SHEET, damages: [{}] });
  return sheetTotals({ ...sheet, lines: sheet.lines.filter((l) => ids.includes(l.id)) }).totalCents;
};

describe("the reviewer marks lines optional", () => {
  it("PUT …/estimate takes `optional` per line, the sheet answers it, a supplement keeps it; a bad value is a 400", async () => {
    const { id } = await linkedEstimate();
    const before = await dealerA.get(`/api/assessments/${id}`);
    expect(before.json.sheet.lines.map((l: { optional?: boolean }) => l.optional ?? false)).toEqual([false, true, true]);
    const damages = [{ line: 0, damageType: "dent", location: "left", severity: "moderate" }];
    const row = (l: (typeof SHEET.lines)[number], optional?: unknown) => ({
      id: l.id,
      damage: l.damage,
      operation: l.operation,
      description: l.description,
      ...(l.labour ? { labourCategory: l.labour.category, hours: l.labour.hours, rateCents: l.labour.rateCents } : {}),
      amountCents: l.amountCents,
      ...(optional === undefined ? {} : { optional }),
    });
    const bad = await dealerA.put(`/api/assessments/${id}/estimate`, { damages, lines: [row(SHEET.lines[0], "maybe")], reason: "x" });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toContain("Optional must be true or false");
    // The sent version is edited: a supplement, whose lines keep their marks unless the edit says otherwise.
    const edited = await dealerA.put(`/api/assessments/${id}/estimate`, { damages, lines: [row(SHEET.lines[0], true), row(SHEET.lines[1]), row(SHEET.lines[2], false)], reason: "Options" });
    expect(edited.status, edited.text).toBe(201);
    expect(edited.json.sheet.lines.map((l: { optional?: boolean }) => l.optional ?? false)).toEqual([true, true, false]);
    // The sent version is as it was sent.
    expect((await dealerA.get(`/api/assessments/${id}`)).json.sheet.lines.map((l: { optional?: boolean }) => l.optional ?? false)).toEqual([false, true, true]);
  });
});

describe("the customer approves line by line", () => {
  it("the page lists required and optional lines with each line's photo and damage number, and a box per optional line", async () => {
    const { token } = await linkedEstimate();
    const page = await customer().get(`/e/${token}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain("<script");
    expect(page.text.match(/data-testid="optional-tag"/g)).toHaveLength(2);
    expect(page.text).toContain(`name="optionalLines" value="d0-2"`);
    expect(page.text).toContain(`name="optionalLines" value="v-1"`);
    expect(page.text).not.toContain(`name="optionalLines" value="d0-1"`);
    // The dent's lines show the photo it was seen on and its number; the sublet (whole vehicle) has none.
    expect(page.text).toContain(`src="/e/${token}/photos/0"`);
    expect(page.text).toContain("Damage 1 · Photo 1");
    // Nothing ticked yet: the total is the required work's.
    expect(page.text).toContain(`Total for what you approve: ${money(totalOf(["d0-1"]))}`);
  });

  it("'Update the total' works the total out on the server for what is ticked, and records nothing", async () => {
    const { id, token } = await linkedEstimate();
    const res = await customer().post(`/e/${token}`, approve(["v-1"], [["recalculate", "1"], ["approvedTotalCents", "1"]]));
    expect(res.status).toBe(200);
    expect(res.text).toContain(`Total for what you approve: ${money(totalOf(["d0-1", "v-1"]))}`);
    expect(res.text).toMatch(/id="optional-v-1"[^>]*checked/);
    expect(await CustomerDecision.countDocuments({ assessmentId: id })).toBe(0);
  });

  it("approve with one optional line: each line's decision, the server's total (not the client's), time, IP, user agent and the PDF's hash kept; the dealer, the page and the notice show it", async () => {
    const { id, token } = await linkedEstimate();
    const revenueBefore = (await dealerA.get("/api/dashboard/stats")).json.totalRevenue as number;
    const phone = customer("203.0.113.200");
    const pdf = await phone.get(`/e/${token}/pdf`);
    const res = await phone.post(`/e/${token}`, approve(["v-1"], [["approvedTotalCents", "100"], ["total", "1.00"]]));
    expect(res.status, res.text).toBe(303);
    const expected = totalOf(["d0-1", "v-1"]);
    const whole = totalOf(["d0-1", "d0-2", "v-1"]);
    // The dashboard's Total Revenue counts what was approved, not the whole version (sent, so it was counted whole before).
    const revenueAfter = (await dealerA.get("/api/dashboard/stats")).json.totalRevenue as number;
    expect(Math.round(revenueAfter * 100) - Math.round(revenueBefore * 100)).toBe(expected - whole);
    expect((await dealerA.get(`/api/assessments/${id}`)).json.customerDecision).toMatchObject({ decision: "approved", approvedTotalCents: expected });
    // The dealer's card says what was approved beside the estimate's own total.
    const cards = await dealerA.get(`/estimates?q=${encodeURIComponent("Silver Camry options")}&view=${id}`);
    expect(cards.text).toContain(`Approved ${money(expected)}`);
    const stored = await CustomerDecision.findOne({ assessmentId: id }).lean();
    expect(stored).toMatchObject({
      decision: "approved",
      approvedTotalCents: expected,
      ip: "203.0.113.200",
      userAgent: "Mozilla/5.0 (Linux; Android 14) TestPhone",
      pdfSha256: createHash("sha256").update(pdf.bytes).digest("hex"),
    });
    expect(stored?.lines?.map((l) => [l.id, l.optional, l.decision])).toEqual([
      ["d0-1", false, "approved"],
      ["d0-2", true, "declined"],
      ["v-1", true, "approved"],
    ]);
    // The dealer's API.
    const listed = await dealerA.get(`/api/assessments/${id}/links`);
    expect(listed.json.decisions[0]).toMatchObject({ approvedTotalCents: expected, lines: [{ id: "d0-1", decision: "approved" }, { id: "d0-2", decision: "declined" }, { id: "v-1", decision: "approved" }] });
    // The customer's page.
    const page = await phone.get(`/e/${token}?done=approved`);
    expect(page.text).toContain(`Approved total: ${money(expected)}`);
    expect(page.text.match(/data-decision="declined"/g)).toHaveLength(1);
    // The dealer's notice.
    const notice = await vi.waitFor(async () => {
      const found = await EmailLog.findOne({ ownerId: aId, idempotencyKey: `customer-decision:${String(stored?._id)}` }).lean<{ text: string }>();
      expect(found).not.toBeNull();
      return found!;
    });
    expect(notice.text).toContain(`Approved total: ${money(expected)}`);
    expect(notice.text).toContain("Optional line declined: #1 Door blend");
  });

  it("an id that is not one of this version's lines (made up, or the older version's) is a 400 with the message, and nothing is recorded", async () => {
    const { id, token } = await linkedEstimate();
    const made = await customer().post(`/e/${token}`, approve(["v-1", "zz-9"]));
    expect(made.status).toBe(400);
    expect(made.text).toContain(LINE_CHOICE_UNKNOWN);
    expect(made.text).toContain("Jane Doe");
    expect(await CustomerDecision.countDocuments({ assessmentId: id })).toBe(0);
    expect((await Assessment.findById(id).lean())?.customerDecision).toBeUndefined();

    // A supplement without the coating: the older version's line is not on the new one.
    const damages = [{ line: 0, damageType: "dent", location: "left", severity: "moderate" }];
    const lines = [
      { id: "d0-1", damage: 0, operation: "repair", description: "Door dent", labourCategory: "body", hours: 2, rateCents: 6000 },
      { id: "d0-2", damage: 0, operation: "refinish", description: "Door blend", labourCategory: "refinish", hours: 1.5, rateCents: 6500 },
    ];
    const supplement = await dealerA.put(`/api/assessments/${id}/estimate`, { damages, lines, reason: "No coating" });
    expect(supplement.status, supplement.text).toBe(201);
    const newLink = await dealerA.post(`/api/assessments/${supplement.json.id}/links`);
    expect(newLink.status, newLink.text).toBe(201);
    const older = await customer().post(`/e/${newLink.json.token}`, approve(["v-1"]));
    expect(older.status).toBe(400);
    expect(older.text).toContain(LINE_CHOICE_UNKNOWN);
    expect(await CustomerDecision.countDocuments({ assessmentId: supplement.json.id })).toBe(0);
  });

  it("a decline declines every line; a decision recorded before lines were kept reads as the whole version", async () => {
    const { id, token } = await linkedEstimate();
    expect((await customer().post(`/e/${token}`, [["intent", "decline"], ["optionalLines", "v-1"]])).status).toBe(303);
    const listed = await dealerA.get(`/api/assessments/${id}/links`);
    expect(listed.json.decisions[0].approvedTotalCents).toBeNull();
    expect(listed.json.decisions[0].lines.map((l: { decision: string }) => l.decision)).toEqual(["declined", "declined", "declined"]);

    const old = await linkedEstimate();
    const links = (await dealerA.get(`/api/assessments/${old.id}/links`)).json.links as { id: string }[];
    const estimate = await Assessment.findById(old.id).lean<{ estimatedCost: number }>();
    await CustomerDecision.create({
      ownerId: aId,
      assessmentId: old.id,
      rootId: old.id,
      version: 1,
      linkId: links[0].id,
      decision: "approved",
      signatureName: "Old Customer",
      termsAccepted: true,
      decidedAt: new Date(),
      ip: "192.0.2.1",
      userAgent: "Old",
      pdfSha256: "0".repeat(64),
      estimatedCost: estimate!.estimatedCost,
    });
    const read = await dealerA.get(`/api/assessments/${old.id}/links`);
    expect(read.status).toBe(200);
    expect(read.json.decisions[0]).toMatchObject({ lines: null, approvedTotalCents: Math.round(estimate!.estimatedCost * 100) });
    const page = await customer().get(`/e/${old.token}`);
    expect(page.text).toContain("signed as Old Customer");
    expect(page.text).not.toContain('data-testid="decision-lines"');
  });
});

describe("the customer's page speaks the estimate's language", () => {
  it("an estimate in Spanish: the page's words, its html lang and Content-Language are Spanish; a dead link answers in the browser's language", async () => {
    const { token } = await linkedEstimate({ ...SHEET, language: "es" });
    const page = await customer().get(`/e/${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-language")).toBe("es");
    expect(page.text).toContain('<html lang="es">');
    expect(page.text).toContain("Trabajo opcional (recomendado, no obligatorio)");
    expect(page.text).toContain(`Total de lo que aprueba: ${money(totalOf(["d0-1"]))}`);
    expect(page.text).toContain("Aprobar presupuesto");
    expect(page.text).toContain("Daño 1 · Foto 1");
    expect(page.text).toContain("Mano de obra (carrocería)");
    expect(page.text).not.toContain("Approve estimate");
    expect(page.text).not.toContain("Optional work");
    // A refusal of the form comes back in the same language.
    const refused = await customer().post(`/e/${token}`, [["intent", "approve"]]);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('<html lang="es">');

    const gone = await fetch(`${app.url}/e/not-a-real-token-${Math.random().toString(36).slice(2)}`, { headers: { "Accept-Language": "fr-CA,fr;q=0.9,en;q=0.5" } });
    expect(gone.status).toBe(404);
    const text = await gone.text();
    expect(text).toContain('<html lang="fr">');
    expect(text).toContain("Lien introuvable");
  });
});
