import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Assessment } from "~/models/assessment.server";
import { EmailLog } from "~/models/email-log.server";
import { EstimateLink } from "~/models/estimate-link.server";
import type { client } from "../../tests/accounts";
import type { RunningApp } from "../../tests/app-server";
import { startTenancyApp } from "../../tests/signed-in-app";

// Issue 40 item 3, confirm before it leaves (docs/decisions/0039), as a browser without JavaScript
// posts it: the first submit of every send button (wizard, Estimates, dashboard, Compose) shows the
// confirm step — recipient, template, the email as rendered, the attachment, the TBD / not-analysed
// warning — and sends nothing; only the confirm step's own submit sends.

type Client = ReturnType<typeof client>;
let app: RunningApp;
let dealerA: Client;
let aId: string;

beforeAll(async () => {
  ({ app, aId, dealerA } = await startTenancyApp());
});
afterAll(() => app?.stop());

const post = (path: string, fields: Record<string, string>) =>
  dealerA.post(path, new URLSearchParams(fields).toString(), { Origin: app.url, "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html" });
const sentFor = async (id: string) => ({ emails: await EmailLog.countDocuments({ assessmentId: id }), links: await EstimateLink.countDocuments({ assessmentId: id }) });
const decoded = (html: string) => html.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&amp;/g, "&");

async function notAnalysedEstimate() {
  const contact = await dealerA.post("/api/contacts", { firstName: "Jane", lastName: "Doe", email: `jane.${Math.random().toString(36).slice(2, 8)}@example.com` });
  expect(contact.status).toBe(201);
  const doc = await Assessment.create({
    ownerId: aId,
    title: "Blue Civic",
    vehicleMake: "Honda",
    contactId: contact.json.id,
    mediaUrls: [],
    status: "completed",
    estimatedCost: null,
    aiAnalysis: { confidence: 0, description: "Not analysed", provider: "none", model: null },
    damages: [],
    damageCategories: [],
    lineItems: [],
  });
  return { id: String(doc._id), email: contact.json.email as string };
}

describe("the confirm step before an estimate leaves", () => {
  it("the first submit of each send button shows the confirm step and sends nothing; the second sends", async () => {
    const { id, email } = await notAnalysedEstimate();
    const template = await dealerA.post("/api/email-templates", { name: "Friendly", subject: "Hello {{contact.firstName}}: {{assessment.title}}", htmlContent: "<p>Cost {{assessment.estimatedCost}}</p>" });
    expect(template.status).toBe(201);

    // The wizard's "Send to Customer", Estimates' "Email", the dashboard's "Send Estimate": to the confirm page.
    for (const [path, fields, back] of [
      ["/upload", { intent: "send", id }, `/upload?assessment=${id}`],
      ["/estimates", { intent: "email", id }, `/estimates?view=${id}`],
      ["/?index", { intent: "send", id }, "/"],
    ] as const) {
      const first = await post(path, fields);
      expect(first.status, `${path}: ${first.text.slice(0, 200)}`).toBe(302);
      const to = new URL(first.headers.get("location")!, app.url);
      expect(to.pathname).toBe("/send");
      expect(to.searchParams.get("assessment")).toBe(id);
      expect(to.searchParams.get("returnTo")).toBe(back);
    }
    expect(await sentFor(id)).toEqual({ emails: 0, links: 0 });

    // The confirm page, server-rendered: recipient, template choice, the email for this estimate, the PDF, the warnings.
    const page = await dealerA.get(`/send?assessment=${id}&returnTo=${encodeURIComponent("/estimates")}`, { Accept: "text/html" });
    expect(page.status).toBe(200);
    const html = decoded(page.text);
    expect(html).toContain(`Jane Doe <${email}>`);
    expect(html).toContain("Your estimate: Blue Civic");
    expect(html).toContain("Estimated cost: <strong>TBD</strong>");
    expect(html).toContain(`Estimate ${id.slice(-8).toUpperCase()} - Honda.pdf`);
    expect(html).toContain("It was not analysed: nothing looked at its photos.");
    expect(html).toContain("Its cost is TBD: the customer will see TBD, not a price.");
    expect(html).toContain(">Friendly</option>");
    expect(await sentFor(id)).toEqual({ emails: 0, links: 0 });

    // Another template (JavaScript off: "Update Preview"): shown, still nothing sent.
    const base = { assessmentId: id, contactId: (await Assessment.findById(id).lean())!.contactId!.toString(), returnTo: "/estimates" };
    // The page's form posts to its own address (with the query), as the rendered form's action says.
    const confirmUrl = `/send?assessment=${id}&returnTo=${encodeURIComponent("/estimates")}`;
    expect(page.text).toContain(`action="${confirmUrl.replace(/&/g, "&amp;").replace(/%2F/g, "%2F")}"`);
    const review = await post(confirmUrl, { ...base, templateId: template.json.id, step: "review" });
    expect(review.status).toBe(200);
    expect(review.text).toContain("Hello Jane: Blue Civic");
    // Compose's first submit shows the same step in its dialog.
    const compose = await post("/email?dialog=compose", { intent: "send", assessmentId: id, contactId: base.contactId, additionalMessage: "See you Monday" });
    expect(compose.status).toBe(200);
    expect(decoded(compose.text)).toContain(`Jane Doe <${email}>`);
    expect(compose.text).toContain('name="additionalMessage" value="See you Monday"');
    expect(await sentFor(id)).toEqual({ emails: 0, links: 0 });

    // The confirm step's own submit sends, with the template picked there, and goes back.
    const sent = await post(confirmUrl, { ...base, templateId: template.json.id, step: "send", idempotencyKey: "confirm-send-1" });
    expect(sent.status).toBe(302);
    expect(sent.headers.get("location")).toBe("/estimates");
    const logs = await EmailLog.find({ assessmentId: id }).lean<{ subject: string }[]>();
    expect(logs.map((l) => l.subject)).toEqual(["Hello Jane: Blue Civic"]);
  });

  it("an estimate that cannot be sent goes back with the reason; a return address off this site is not followed", async () => {
    const { id } = await notAnalysedEstimate();
    await Assessment.updateOne({ _id: id }, { status: "uploaded" });
    const page = await dealerA.get(`/send?assessment=${id}&returnTo=${encodeURIComponent("//evil.example/x")}`, { Accept: "text/html" });
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/estimates");
    const bad = await post("/send", { assessmentId: id, contactId: "a".repeat(24), step: "send", returnTo: "https://evil.example/" });
    // Refused as every invalid form is (JavaScript off: back to the form with the messages).
    expect([302, 400]).toContain(bad.status);
    expect(bad.headers.get("location") ?? "").not.toContain("evil.example");
    expect(await sentFor(id)).toEqual({ emails: 0, links: 0 });
  });
});
