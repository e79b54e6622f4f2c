import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Assessment } from "~/models/assessment.server";
import { EmailLog } from "~/models/email-log.server";
import { client } from "../../tests/accounts";
import { type RunningApp } from "../../tests/app-server";
import type { FormLine } from "../../tests/estimate-lines";
import { sentGolfEstimate } from "../../tests/sent-estimate";
import { poppler } from "./estimate-pdf.reader";
import { startTenancyApp } from "../../tests/signed-in-app";

// Issue 40 item 5, supplements read as supplements (docs/decisions/0053): every version carries the
// original's number with its label (`1A2B3C4D-S01`) in the API, the PDF, the page and the email; the
// customer's page of a supplement shows what changed since the version the customer approved (else
// the one last sent): lines added, removed and changed, the new total and the difference; and a
// supplement's email says it is a revised estimate, whatever template it is sent with.

type Client = ReturnType<typeof client>;
let app: RunningApp;
let dealerA: Client;
let aId: string;

beforeAll(async () => {
  ({ app, aId, dealerA } = await startTenancyApp({ env: { TRUST_PROXY: "1", ESTIMATE_LINK_RATE_POSTS: "1000", ESTIMATE_LINK_RATE_TOKEN: "1000", ESTIMATE_LINK_RATE_IP: "5000" } }));
});
afterAll(() => app?.stop());

let ipCounter = 0;
const forwarded = () => ({ "X-Forwarded-For": `198.51.100.${(++ipCounter % 250) + 1}` });
async function post(path: string, body: Record<string, string>) {
  const res = await fetch(`${app.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: app.url, ...forwarded() },
    body: new URLSearchParams(body).toString(),
  });
  return { status: res.status, text: await res.text() };
}
const get = async (path: string) => {
  const res = await fetch(`${app.url}${path}`, { redirect: "manual", headers: forwarded() });
  return { status: res.status, text: await res.text() };
};
/** The HTML's text between one test id's element and the next tag that closes a section (enough to read one figure or list). */
const testIdText = (html: string, id: string) => {
  const at = html.indexOf(`data-testid="${id}"`);
  if (at < 0) return null;
  const end = html.indexOf(/<\/(ul|td|span)>/.exec(html.slice(at))?.[0] ?? "</", at);
  return html
    .slice(html.indexOf(">", at) + 1, end)
    .replace(/<[^>]+>/g, " ")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/<!-- -->/g, "")
    .replace(/\s+/g, " ")
    .trim();
};

/** A sent estimate of account A (a dent $300 and a scratch $100) with its customer, and its number. */
async function sentEstimate() {
  const sent = await sentGolfEstimate(dealerA, aId);
  return { ...sent, number: sent.id.slice(-8).toUpperCase() };
}

/** A line as read, sent back as an edit's line (kept as it is unless `over` changes it). */
const asInput = (l: FormLine, over: Record<string, unknown> = {}) => ({
  id: l.id,
  damage: l.damage,
  operation: l.operation,
  description: l.description,
  ...(l.labour ? { labourCategory: l.labour.category, hours: l.labour.hours, rateCents: l.labour.rateCents } : {}),
  ...(l.part ? { partType: l.part.type, partNumber: l.part.number, partDescription: l.part.description, quantity: l.part.quantity, unitPriceCents: l.part.unitPriceCents } : {}),
  amountCents: l.amountCents,
  note: l.note,
  ...over,
});

/**
 * The dealer revises the estimate `id` line by line: the dent's flat amount raised by `raiseCents`,
 * a whole-vehicle sublet line added when `add` names it, the line `remove` (an id) left out.
 */
async function revise(id: string, { raiseCents = 0, add, remove }: { raiseCents?: number; add?: { description: string; amountCents: number }; remove?: string } = {}) {
  const read = await dealerA.get(`/api/assessments/${id}/estimate`);
  expect(read.status, read.text).toBe(200);
  const lines = (read.json.sheet.lines as FormLine[])
    .filter((l) => l.id !== remove)
    .map((l) => (l.damage === 0 ? asInput(l, { amountCents: l.amountCents + raiseCents }) : asInput(l)));
  if (add) lines.push({ damage: null, operation: "sublet", description: add.description, amountCents: add.amountCents, note: "" } as never);
  const damages = (read.json.damages as { damageType: string; location: string; severity: string }[]).map((d, line) => ({ line, damageType: d.damageType, location: d.location, severity: d.severity }));
  const res = await dealerA.put(`/api/assessments/${id}/estimate`, { reason: "Hidden damage behind the door", damages, lines });
  expect(res.status, res.text).toBe(201);
  return { id: res.json.id as string, lines: read.json.sheet.lines as FormLine[] };
}

/** Emails the version to its customer; the email as queued and the page its link opens. */
async function email(id: string, contactId: string) {
  const sent = await dealerA.post(`/api/assessments/${id}/send-email`, { contactId });
  expect(sent.status, sent.text).toBe(202);
  const log = await EmailLog.findById(sent.json.id).lean<{ subject: string; text: string; html: string }>();
  const path = /\/e\/[A-Za-z0-9_-]{43}/.exec(log!.text)![0];
  // Delivered: the version is sent (as the delivery worker marks it), so the next edit is a supplement.
  await Assessment.updateOne({ _id: id }, { $set: { status: "sent", sentAt: new Date() } });
  return { log: log!, path };
}

describe("a supplement names itself and what changed", () => {
  it("after the customer approved the original: the number, the page's changes since the approved version, the PDF and the email", async () => {
    const { id, contactId, number } = await sentEstimate();
    const first = await email(id, contactId);
    expect(first.log.subject).toBe("Your estimate: Blue Golf");
    expect(first.log.text).not.toContain("revised");
    const original = await get(first.path);
    expect(original.text).toContain(`Estimate No. ${number}`);
    expect(original.text).not.toContain('data-testid="supplement-changes"');
    expect((await post(first.path, { intent: "approve", signatureName: "Jane Doe", termsAccepted: "on" })).status).toBe(303);

    // S01: the dent raised by $2,100 and an alignment added.
    const s01 = await revise(id, { raiseCents: 210000, add: { description: "Wheel alignment", amountCents: 8900 } });
    const api = await dealerA.get(`/api/assessments/${s01.id}/estimate`);
    expect(api.json).toMatchObject({ versionLabel: "S01", estimateNumber: `${number}-S01`, earlierVersions: [{ label: "Original", estimateNumber: number }] });
    expect((await dealerA.get(`/api/assessments/${id}/estimate`)).json).toMatchObject({ estimateNumber: number, supplements: [{ label: "S01", estimateNumber: `${number}-S01` }] });

    const revised = await email(s01.id, contactId);
    const pdf = Buffer.from(await (await fetch(`${app.url}${revised.path}/pdf`, { headers: forwarded() })).arrayBuffer());
    const printed = poppler("pdftotext", pdf, ["-layout"]);
    expect(printed).toContain(`${number}-S01`);
    expect(printed).toContain("SUPPLEMENT S01");

    expect(revised.log.subject).toBe(`Revised estimate ${number}-S01: Your estimate: Blue Golf`);
    expect(revised.log.text).toContain(
      `This is a revised estimate (S01, No. ${number}-S01). It replaces the estimate you approved (Original, total $400.00): the new total is $2,589.00, a difference of +$2,189.00.`,
    );
    expect(revised.log.html).toContain("<strong>This is a revised estimate (S01");

    const page = await get(revised.path);
    expect(page.status).toBe(200);
    expect(testIdText(page.text, "version-name")).toBe(`Revised estimate S01 No. ${number}-S01`);
    expect(page.text).toContain(`What changed since the estimate you approved (Original, No. ${number})`);
    expect(testIdText(page.text, "lines-added")).toBe("Sublet Wheel alignment: $89.00");
    expect(testIdText(page.text, "lines-changed")).toMatch(/: \$300\.00 → \$2,400\.00$/);
    expect(testIdText(page.text, "lines-removed")).toBeNull();
    expect(testIdText(page.text, "previous-total")).toBe("$400.00");
    expect(testIdText(page.text, "new-total")).toBe("$2,589.00");
    expect(testIdText(page.text, "total-difference")).toBe("+$2,189.00");

    // S02, never approved: still compared with the approved original (the scratch's line removed, so it is TBD).
    const s02 = await revise(s01.id, { remove: s01.lines.find((l) => l.damage === 1)!.id });
    const third = await get((await email(s02.id, contactId)).path);
    expect(third.text).toContain(`What changed since the estimate you approved (Original, No. ${number})`);
    expect(testIdText(third.text, "lines-removed")).toMatch(/: \$100\.00$/);
    expect(testIdText(third.text, "lines-added")).toBe("Sublet Wheel alignment: $89.00");
  });

  it("without an approval: compared with the version last sent; a template naming the version is sent as written, others say it is revised", async () => {
    const { id, contactId, number } = await sentEstimate();
    await email(id, contactId);
    const s01 = await revise(id, { raiseCents: 5000 });
    await email(s01.id, contactId);
    const s02 = await revise(s01.id, { raiseCents: 1000 });

    const own = await dealerA.post("/api/email-templates", {
      name: "Names the version",
      subject: "{{#if estimate.revised}}Update {{estimate.number}}{{else}}Estimate {{estimate.number}}{{/if}} for {{assessment.title}}",
      htmlContent: "<p>Version {{estimate.versionLabel}}: was {{estimate.previousTotal}}, change {{estimate.difference}}.</p>",
    });
    expect(own.status, own.text).toBe(201);
    expect(own.json.warnings).toEqual([]);
    const plain = await dealerA.post("/api/email-templates", { name: "Older template", subject: "Hello {{contact.firstName}}", htmlContent: "<p>Your estimate.</p>" });
    expect(plain.status, plain.text).toBe(201);

    const sentWith = async (templateId: string) => {
      const sent = await dealerA.post(`/api/assessments/${s02.id}/send-email`, { contactId, templateId });
      expect(sent.status, sent.text).toBe(202);
      return (await EmailLog.findById(sent.json.id).lean<{ subject: string; text: string }>())!;
    };
    const written = await sentWith(own.json.id);
    expect(written.subject).toBe(`Update ${number}-S02 for Blue Golf`);
    expect(written.text).toContain("Version S02: was $450.00, change +$10.00.");
    expect(written.text).not.toContain("This is a revised estimate");
    const older = await sentWith(plain.json.id);
    expect(older.subject).toBe(`Revised estimate ${number}-S02: Hello Jane`);
    expect(older.text).toContain(`It replaces the estimate we sent you (S01, total $450.00): the new total is $460.00, a difference of +$10.00.`);

    const page = await get(/\/e\/[A-Za-z0-9_-]{43}/.exec(older.text)![0]);
    expect(page.text).toContain(`What changed since the estimate we sent you (S01, No. ${number}-S01)`);
    expect(testIdText(page.text, "lines-changed")).toMatch(/: \$350\.00 → \$360\.00$/);
    expect(testIdText(page.text, "total-difference")).toBe("+$10.00");
  });
});
