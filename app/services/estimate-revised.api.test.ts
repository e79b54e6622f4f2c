import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Assessment } from "~/models/assessment.server";
import { CustomerDecision } from "~/models/customer-decision.server";
import { EmailLog } from "~/models/email-log.server";
import { client } from "../../tests/accounts";
import { type RunningApp } from "../../tests/app-server";
import { sentGolfEstimate } from "../../tests/sent-estimate";
import { startTenancyApp } from "../../tests/signed-in-app";

// Issue 40 item 2, a link serves exactly one version (docs/decisions/0035): the moment a supplement
// replaces a sent version, that version's links refuse decisions (410 "This estimate has been
// revised"), pointing to the newer version's page once it was sent; and a decision racing the
// supplement lands only on a version that was still the current one when it was recorded.

type Client = ReturnType<typeof client>;
let app: RunningApp;
let dealerA: Client;
let aId: string;

beforeAll(async () => {
  ({ app, aId, dealerA } = await startTenancyApp({ env: { TRUST_PROXY: "1", ESTIMATE_LINK_RATE_POSTS: "1000", ESTIMATE_LINK_RATE_TOKEN: "1000", ESTIMATE_LINK_RATE_IP: "5000" } }));
});
afterAll(() => app?.stop());

let ipCounter = 0;
async function post(path: string, body: Record<string, string>) {
  const res = await fetch(`${app.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: app.url, "X-Forwarded-For": `203.0.113.${(++ipCounter % 250) + 1}` },
    body: new URLSearchParams(body).toString(),
  });
  return { status: res.status, text: await res.text() };
}
const get = async (path: string) => {
  const res = await fetch(`${app.url}${path}`, { redirect: "manual", headers: { "X-Forwarded-For": "203.0.113.251" } });
  return { status: res.status, text: await res.text() };
};
const approve = { intent: "approve", signatureName: "Jane Doe", termsAccepted: "on" };

/** A sent estimate of account A (a dent $300 and a scratch $100) with its customer. */
const sentEstimate = () => sentGolfEstimate(dealerA, aId);

async function linkOf(id: string) {
  const res = await dealerA.post(`/api/assessments/${id}/links`);
  expect(res.status, res.text).toBe(201);
  return `/e/${res.json.token as string}`;
}

/** The dealer revises the sent estimate: a supplement with the dent at `amount`. */
const supplement = (id: string, amount: number) =>
  dealerA.put(`/api/assessments/${id}/estimate`, {
    reason: "Hidden damage behind the door",
    damages: [
      { line: 0, damageType: "dent", location: "left", severity: "moderate", amount },
      { line: 1, damageType: "scratch", location: "front", severity: "minor", amount: 100 },
    ],
  });

describe("a supplement revises the sent version at once", () => {
  it("the old link refuses decisions with 410 and says so; once the new version is emailed, it points to that page", async () => {
    const { id, contactId } = await sentEstimate();
    const old = await linkOf(id);
    const revised = await supplement(id, 2400);
    expect(revised.status, revised.text).toBe(201);
    const v2 = revised.json.id as string;

    // No link for the new version yet: refused, and nowhere to go.
    for (const body of [approve, { intent: "decline", reason: "Too dear" }]) {
      const refused = await post(old, body);
      expect(refused.status).toBe(410);
      expect(refused.text).toContain("This estimate has been revised");
      expect(refused.text).not.toContain('data-testid="newer-version-link"');
    }
    const page = await get(old);
    expect(page.status).toBe(410);
    expect(page.text).toContain("This estimate has been revised");
    expect(page.text).not.toContain('value="approve"');
    expect(await CustomerDecision.countDocuments({ assessmentId: id })).toBe(0);
    expect((await Assessment.findById(id).lean())?.customerDecision).toBeUndefined();

    // The dealer emails the revised estimate: the old page now links to the page that email carries.
    const sent = await dealerA.post(`/api/assessments/${v2}/send-email`, { contactId });
    expect(sent.status, sent.text).toBe(202);
    const log = await EmailLog.findById(sent.json.id).lean<{ text: string }>();
    const fresh = /\/e\/[A-Za-z0-9_-]{43}/.exec(log!.text)![0];
    const pointed = await get(old);
    expect(pointed.status).toBe(410);
    expect(pointed.text).toContain("This estimate has been revised");
    expect(pointed.text).toContain(`href="${fresh}"`);
    const now = await get(fresh);
    expect(now.status).toBe(200);
    expect(now.text).toContain('value="approve"');
    expect((await post(fresh, approve)).status).toBe(303);
    expect(await CustomerDecision.find({ rootId: id }).lean()).toEqual([expect.objectContaining({ version: 2, estimatedCost: 2500 })]);
  });

  it("a decision racing the supplement lands only on a version still current when it was recorded", async () => {
    for (let run = 0; run < 16; run++) {
      const { id } = await sentEstimate();
      const old = await linkOf(id);
      // The decision and the supplement at once, the decision sent a little later each run.
      const [decided, revised] = await Promise.all([
        new Promise<void>((resolve) => setTimeout(resolve, (run % 8) * 20)).then(() => post(old, approve)),
        supplement(id, 2400),
      ]);
      expect(revised.status, revised.text).toBe(201);
      expect([303, 410]).toContain(decided.status);
      const v1 = await Assessment.findById(id).lean();
      const decisions = await CustomerDecision.find({ rootId: id }).lean();
      if (decided.status === 303) {
        // Recorded while v1 was current: the decision and its copy are v1's, with v1's amount.
        expect(decisions).toEqual([expect.objectContaining({ version: 1, estimatedCost: 400 })]);
        expect(String(v1?.customerDecision?.decisionId)).toBe(String(decisions[0]._id));
      } else {
        expect(decided.text).toContain("This estimate has been revised");
        expect(decisions).toEqual([]);
        expect(v1?.customerDecision).toBeUndefined();
      }
      // Either way v1 is replaced now: nothing more lands on it.
      expect((await post(old, { intent: "decline" })).status).toBe(410);
      expect(await CustomerDecision.countDocuments({ rootId: id })).toBe(decided.status === 303 ? 1 : 0);
    }
    // Which of the two wins each run depends on the machine's load: the test above holds each order
    // apart, this one that no interleaving puts a decision on a replaced version.
  });
});
