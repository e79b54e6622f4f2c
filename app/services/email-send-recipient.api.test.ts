import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Assessment } from "~/models/assessment.server";
import { EmailLog } from "~/models/email-log.server";
import { EstimateLink } from "~/models/estimate-link.server";
import { client } from "../../tests/accounts";
import { type RunningApp } from "../../tests/app-server";
import { engineLine } from "../../tests/estimate-lines";
import { poppler } from "./estimate-pdf.reader";
import { startTenancyApp } from "../../tests/signed-in-app";

// Issue 40 item 1, the recipient is the customer of record (docs/decisions/0035): sending one
// customer's estimate to another contact is refused (409, nothing sent, nothing changed) unless the
// request makes that contact the estimate's customer; then the change is audited and the page, the
// PDF and the email name the person the link was sent to.

type Client = ReturnType<typeof client>;
let app: RunningApp;
let dealerA: Client;
let aId: string;

beforeAll(async () => {
  ({ app, aId, dealerA } = await startTenancyApp());
});
afterAll(() => app?.stop());

async function contact(firstName: string, lastName: string) {
  const res = await dealerA.post("/api/contacts", { firstName, lastName, email: `${firstName.toLowerCase()}.${Math.random().toString(36).slice(2, 8)}@example.com` });
  expect(res.status).toBe(201);
  return res.json.id as string;
}

async function reviewedEstimate(contactId: string) {
  const doc = await Assessment.create({
    ownerId: aId,
    title: "Red Focus",
    vehicleMake: "Ford",
    contactId,
    mediaUrls: [],
    status: "reviewed",
    estimatedCost: 300,
    damages: [{ damageType: "dent", location: "left", severity: "moderate", description: "Door dent", confidence: 0.8 }],
    damageCategories: ["dent"],
    lineItems: [engineLine("dent", "moderate", "left", 30000)],
  });
  return String(doc._id);
}

describe("sending to someone other than the estimate's customer", () => {
  it("is refused with 409 and sends and changes nothing; with makeRecipientCustomer the recipient becomes the customer, audited, and is named everywhere", async () => {
    const jane = await contact("Jane", "Doe");
    const john = await contact("John", "Roe");
    const id = await reviewedEstimate(jane);
    const before = await Assessment.findById(id).lean();

    for (const body of [{ contactId: john }, { contactId: john, makeRecipientCustomer: false }]) {
      const refused = await dealerA.post(`/api/assessments/${id}/send-email`, body);
      expect(refused.status).toBe(409);
      expect(refused.json.message).toBe(
        "This estimate's customer is Jane Doe, not John Roe. To send it to John Roe, make John Roe this estimate's customer.",
      );
    }
    expect(await EmailLog.countDocuments({ assessmentId: id })).toBe(0);
    expect(await EstimateLink.countDocuments({ assessmentId: id })).toBe(0);
    const unchanged = await Assessment.findById(id).lean();
    expect(String(unchanged?.contactId)).toBe(jane);
    expect(unchanged?.audit).toHaveLength(before!.audit.length);
    expect(unchanged?.status).toBe("reviewed");

    const sent = await dealerA.post(`/api/assessments/${id}/send-email`, { contactId: john, makeRecipientCustomer: true });
    expect(sent.status, sent.text).toBe(202);
    const after = await dealerA.get(`/api/assessments/${id}`);
    expect(after.json.contactId).toBe(john);
    const audit = (await Assessment.findById(id).lean())!.audit;
    expect(audit.at(-1)).toMatchObject({ action: "customer changed", changes: ["Customer: Jane Doe → John Roe"] });

    const log = await EmailLog.findById(sent.json.id).lean<{ recipientEmail: string; text: string }>();
    expect(log!.recipientEmail).toMatch(/^john\./);
    expect(log!.text).toContain("John");
    const path = /\/e\/[A-Za-z0-9_-]{43}/.exec(log!.text)![0];
    const page = await fetch(`${app.url}${path}`).then((r) => r.text());
    expect(page).toContain("For John Roe");
    expect(page).not.toContain("Jane Doe");
    const pdf = Buffer.from(await (await fetch(`${app.url}${path}/pdf`)).arrayBuffer());
    const text = poppler("pdftotext", pdf, ["-layout"]);
    expect(text).toContain("John Roe");
    expect(text).not.toContain("Jane Doe");

    // Sending to the customer of record needs no confirmation.
    expect((await dealerA.post(`/api/assessments/${id}/send-email`, { contactId: john })).status).toBe(202);
  });

  it("an estimate without a customer gets the recipient, with no confirmation", async () => {
    const jane = await contact("Jane", "Doe");
    const doc = await Assessment.create({ ownerId: aId, title: "No customer", mediaUrls: [], status: "reviewed", estimatedCost: 100 });
    const sent = await dealerA.post(`/api/assessments/${doc._id}/send-email`, { contactId: jane });
    expect(sent.status, sent.text).toBe(202);
    expect(String((await Assessment.findById(doc._id).lean())?.contactId)).toBe(jane);
  });
});
